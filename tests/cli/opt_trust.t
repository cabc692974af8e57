Scripts run in a sandbox unless --trust is given: the io library is not
there, so io.open fails with an error that names it and the way out.

  $ platter -e 'local f = io.open("note.txt", "w")'
  platter: (command line):1: 'io' is not available in the sandbox (run with --trust to allow it)
  [1]
  $ ls

With --trust the full standard library is back.

  $ platter --trust -e 'local f = assert(io.open("note.txt", "w")); f:write("hello\n"); f:close()'
  $ cat note.txt
  hello
  $ platter --trust -e 'print(io.open("note.txt"):read("*l"), type(os.execute), type(debug), type(package), platter.trusted)'
  hello\tfunction\ttable\ttable\ttrue (esc)
  $ platter -e 'print((pcall(function() return os.execute("true") end)), platter.trusted)'
  false\tfalse (esc)

The same goes for the path allow list: without --trust p.open takes only
paths under the current directory, $TMPDIR and the paths named on the
command line; with --trust any path.

  $ mkdir -p "$TMPDIR/elsewhere" && cd "$TMPDIR/elsewhere" && echo data > outside.txt && cd - > /dev/null
  $ mkdir work && cd work
  $ TMPDIR=/nonexistent platter -e 'print(platter.open("../../tmp/elsewhere/outside.txt"))'
  platter: \(command line\):1: open: ../../tmp/elsewhere/outside.txt -> /.*/tmp/elsewhere/outside.txt is outside the current directory, \$TMPDIR and the paths named on the command line \(run with --trust to lift the sandbox\) (re)
  [1]
  $ TMPDIR=/nonexistent platter --trust -e 'print(platter.open("../../tmp/elsewhere/outside.txt"))'
  platter.file (../../tmp/elsewhere/outside.txt)
  $ TMPDIR=/nonexistent platter -e 'print(platter.open("../../tmp/elsewhere/outside.txt"))' ../../tmp/elsewhere/outside.txt
  platter.file (../../tmp/elsewhere/outside.txt)
  $ cd ..

require loads only platter's own modules in the sandbox, and any module
with --trust.

  $ platter -e 'require "string"'
  platter: (command line):1: require 'string': only platter's own modules can be loaded in the sandbox (run with --trust to load others)
  [1]
  $ platter --trust -e 'print(require "string" == string)'
  true
  $ platter -e 'print(type(require "platter.args"), require "platter" == platter)'
  table\ttrue (esc)
  $ platter -e 'require "platter.core"'
  platter: (command line):1: require 'platter.core': an internal module, not available in the sandbox (run with --trust to allow it)
  [1]
  $ platter -e 'print(require("cjson").encode({ 1, 2 }))'
  [1,2]

Internal modules are refused: platter.fast would hand a script FFI entry
points that take any userdata as a file.

  $ platter -e 'require "platter.fast"'
  platter: \(command line\):1: require 'platter.fast': .*not available in the sandbox.* (re)
  [1]
  $ platter --trust -e 'print(type(require "platter.fast"))'
  table

Options come before the script: --trust after it is the script's argument.

  $ platter -e 'print(type(io), platter.trusted)' --trust
  platter: (command line):1: 'io' is not available in the sandbox (run with --trust to allow it)
  [1]
