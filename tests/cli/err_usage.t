Exit statuses: 0 ok, 1 script or runtime error, 2 usage error. Every error
is one "platter: ..." message on stderr, never a crash.

Usage errors (2) name what was wrong and point to --help. They go to
stderr, not stdout.

  $ platter
  platter: no workload or script given
  Try 'platter --help'.
  [2]
  $ platter 2>/dev/null
  [2]
  $ platter --bogus
  platter: unknown option '--bogus'
  Try 'platter --help'.
  [2]
  $ platter -x sweep
  platter: unknown option '-x'
  Try 'platter --help'.
  [2]
  $ platter --seed
  platter: option '--seed' needs a number
  Try 'platter --help'.
  [2]
  $ platter --seed abc -e ''
  platter: bad --seed 'abc': expected a non-negative integer
  Try 'platter --help'.
  [2]
  $ platter --seed=-1 -e ''
  platter: bad --seed '-1': expected a non-negative integer
  Try 'platter --help'.
  [2]
  $ platter --seed 5x -e ''
  platter: bad --seed '5x': expected a non-negative integer
  Try 'platter --help'.
  [2]
  $ platter -e
  platter: option '-e' needs a chunk of Lua code
  Try 'platter --help'.
  [2]
  $ platter --lua-dir
  platter: option '--lua-dir' needs a directory
  Try 'platter --help'.
  [2]

A script file that cannot be read, and a name that is neither a file nor a
shipped workload, are usage errors too.

  $ platter missing.lua
  platter: cannot read script missing.lua: No such file or directory
  [2]
  $ platter ./missing
  platter: cannot read script ./missing: No such file or directory
  [2]

A script is read whole before the Lua heap's limit applies, so its size has
a limit of its own, 128 MiB: before, `platter /dev/zero` grew until the
kernel's OOM killer stopped it (here a sparse file stands in for an endless
source, so that a regression fails without filling the memory).

  $ truncate -s 200m huge.lua
  $ platter huge.lua
  platter: cannot read script huge.lua: larger than 128 MiB
  [2]
  $ platter plan huge.lua
  platter: cannot read script huge.lua: larger than 128 MiB
  [2]
  $ rm huge.lua
  $ platter nosuch
  platter: no workload named 'nosuch' (see 'platter list'; a script file needs a '/' or a .lua ending)
  [2]

A syntax error is a script error (1) reported as FILE:LINE.

  $ printf 'local x = 1\nlocal y = = 2\n' > syntax.lua
  $ platter syntax.lua
  platter: syntax.lua:2: unexpected symbol near '?='? (re)
  [1]
  $ platter -e 'x ='
  platter: \(command line\):1: unexpected symbol near '?<eof>'? (re)
  [1]

So is an error raised while the script runs, with the line it came from.

  $ printf 'local p = require "platter"\n\nerror("boom")\n' > boom.lua
  $ platter boom.lua
  platter: boom.lua:3: boom
  [1]
  $ platter boom.lua 2>/dev/null
  [1]
  $ platter -e 'error("no position", 0)'
  platter: no position
  [1]
  $ platter -e 'error({})'
  platter: (error object is a table value)
  [1]
  $ platter -e 'local t = nil; return t.x'
  platter: \(command line\):1: attempt to index .* (re)
  [1]
  $ platter -e 'undefined_function()'
  platter: (command line):1: undefined global 'undefined_function'
  [1]

--verbose adds the traceback.

  $ platter --verbose boom.lua 2>&1 | head -2
  platter: boom.lua:3: boom
  stack traceback:
  $ platter --verbose boom.lua 2>&1 | grep -c 'boom.lua:3: in main chunk'
  1

A bad argument to a platter function says which function, which argument
and why. (In a method call, as in Lua itself, self is not counted.)

  $ platter -e 'platter.open("x", { bogus = true })'
  platter: (command line):1: bad argument #2 to 'open' (unknown option 'bogus')
  [1]
  $ platter -e 'platter.open("/etc/passwd")'
  platter: (command line):1: open: /etc/passwd is outside the current directory, $TMPDIR and the paths named on the command line (run with --trust to lift the sandbox)
  [1]
  $ platter -e 'local f = platter.open("f.dat", { create = true, write = true })
  > f:pread(0, "many")'
  platter: (command line):2: bad argument #2 to 'pread' (number expected, got string)
  [1]
  $ platter -e 'local f = platter.open("f.dat"); f:close(); f:read(1)'
  platter: (command line):1: attempt to use a closed file
  [1]
  $ rm f.dat

p.exit(n) ends the script with status n; p.exit() with 0.

  $ platter -e 'local p = require "platter"; print("before"); p.exit(7); print("after")'
  before
  [7]
  $ platter -e 'platter.exit()'
  $ platter -e 'platter.exit(256)'
  platter: \(command line\):1: bad argument #1 to '.*' \(exit status must be within 0..255\) (re)
  [1]

A workload's bad option is a usage error naming the workload, pointing to
its own --help.

  $ platter sweep --bogus
  platter: sweep: unknown option '--bogus'
  Try 'platter sweep --help'.
  [2]
  $ platter sweep -s
  platter: sweep: option '-s' needs a value
  Try 'platter sweep --help'.
  [2]
  $ platter sweep -s 12q
  platter: sweep: bad value '12q' for -s: bad size '12q': unknown unit 'q'
  Try 'platter sweep --help'.
  [2]
  $ platter sweep --duration=soon
  platter: sweep: bad value 'soon' for --duration: bad duration 'soon': not a number
  Try 'platter sweep --help'.
  [2]
  $ platter sweep -m fast
  platter: sweep: unknown mode 'fast'
  Try 'platter sweep --help'.
  [2]
  $ platter sweep a b
  platter: sweep: unexpected argument 'b'
  Try 'platter sweep --help'.
  [2]

p.usage_error gives the same shape from any script.

  $ platter -e 'platter.usage_error("mytool", "need -x")'
  platter: mytool: need -x
  Try 'platter mytool --help'.
  [2]

None of these left a scratch file behind.

  $ ls
  boom.lua
  syntax.lua
