Text in and out of a sandboxed script. p.read_text reads a whole file under
the path rules (fio's job files). p.output_file writes text a script chose,
so it takes only a file named on the command line itself, never another
path beneath a root: a script must not plant a file nobody named.

  $ cat > w.lua <<'LUA'
  > local p = require "platter"
  > local w = assert(p.output_file((...)))
  > w:write("report ", 42, "\n")
  > assert(w:close())
  > print(pcall(w.write, w, "x"))
  > LUA

A file named on the command line (as a word, as key=value, or as --opt=value)
can be written, whether it exists or not; it is truncated first.

  $ platter w.lua report.txt
  false\tattempt to use a closed output file (esc)
  $ cat report.txt
  report 42
  $ echo "old old old old old" > old.txt
  $ platter -e 'assert(platter.output_file("old.txt")):write("new\n")' --output=old.txt
  $ cat old.txt
  new

Anything else under the current directory is refused, a dotfile included,
and nothing is created.

  $ platter -e 'platter.output_file(".bashrc")'
  platter: \(command line\):1: output_file: .bashrc is not a file named on the command line: a script writes text only to a file named there, or to a NAME.log file under the allowed directories \(run with --trust to lift the sandbox\) (re)
  [1]
  $ platter -e 'platter.output_file("sub/x.txt")' sub
  platter: \(command line\):1: output_file: sub/x.txt is not a file named on the command line.* (re)
  [1]
  $ ls -a
  .
  ..
  old.txt
  report.txt
  w.lua

A log is the one kind of file a script may create without its name on the
command line (fio's NAME_bw.1.log): a plain NAME.log under the current
directory, $TMPDIR or a named directory, never a dotfile, never through a
symlink, never outside.

  $ platter -e 'local w = assert(platter.output_file("job_bw.1.log")); w:write("1, 2, 0, 0, 0\n"); w:close()'
  $ cat job_bw.1.log
  1, 2, 0, 0, 0
  $ mkdir logs && platter -e 'assert(platter.output_file("logs/job_lat.1.log")):close()' && ls logs
  job_lat.1.log
  $ platter -e 'platter.output_file(".job.log")'
  platter: \(command line\):1: output_file: .job.log is not a file named on the command line.* (re)
  [1]
  $ platter -e 'platter.output_file("job.log.sh")'
  platter: \(command line\):1: output_file: job.log.sh is not a file named on the command line.* (re)
  [1]
  $ platter -e 'platter.output_file("/etc/platter-test.log")'
  platter: \(command line\):1: output_file: /etc/platter-test.log is not a file named on the command line.* (re)
  [1]
  $ echo keep > kept.txt && ln -s kept.txt link.log
  $ platter -e 'print(platter.output_file("link.log"))'
  nil\toutput_file link.log: Too many levels of symbolic links\t40 (esc)
  $ cat kept.txt
  keep
  $ rm -r link.log kept.txt job_bw.1.log logs

A named file that is not a regular file is refused, and so is a named file
replaced by a symlink after platter started.

  $ platter -e 'platter.output_file("/dev/null")' /dev/null
  platter: \(command line\):1: output_file: /dev/null is not a regular file \(text output goes only to one\) (re)
  [1]
  $ mkdir d && platter -e 'platter.output_file("d")' d
  platter: \(command line\):1: output_file: d is not a file named on the command line.* (re)
  [1]
  $ echo secret > target
  $ cat > swap.lua <<'LUA'
  > local p = require "platter"
  > p.sleep(0.5)
  > print(pcall(p.output_file, "named.txt"))
  > LUA
  $ touch named.txt; (sleep 0.2; rm named.txt; ln -s target named.txt) & platter swap.lua named.txt; wait
  false\toutput_file: named.txt is no longer the file named on the command line (it is a symlink now; refused in the sandbox) (esc)
  $ cat target
  secret

p.read_text reads under the same roots as p.open, up to a limit, and fails
with the errno text.

  $ printf '[job]\nrw=read\n' > job.fio
  $ platter -e 'io = nil; local t = platter.read_text("job.fio"); print(#t, t:match("rw=%w+"))'
  14\trw=read (esc)
  $ platter -e 'print(platter.read_text("nope.fio"))'
  nil\tread_text nope.fio: No such file or directory\t2 (esc)
  $ platter -e 'print(platter.read_text("job.fio", 4))'
  nil\tread_text job.fio: larger than 4 bytes\t27 (esc)
  $ platter -e 'platter.read_text("/etc/passwd")'
  platter: \(command line\):1: read_text: /etc/passwd is outside the current directory, \$TMPDIR and the paths named on the command line \(run with --trust to lift the sandbox\) (re)
  [1]

p.getenv reads the environment (fio job files expand $VAR): sandboxed, only
the variables named with --env, since the environment holds secrets (tokens,
keys) that a script could otherwise put in what it prints or records.

  $ FOO=bar platter --env FOO --env PLATTER_NOT_SET -e 'print(platter.getenv("FOO"), platter.getenv("PLATTER_NOT_SET"))'
  bar\tnil (esc)
  $ FOO=bar SECRET_TOKEN=s3cr3t platter --env FOO -e 'print(platter.getenv("SECRET_TOKEN"))'
  platter: (command line):1: getenv: $SECRET_TOKEN is not granted to a sandboxed script: name it with --env SECRET_TOKEN (or run with --trust)
  [1]
  $ SECRET_TOKEN=s3cr3t platter -e 'print(pcall(platter.getenv, "SECRET_TOKEN"))' | grep -c s3cr3t
  0
  [1]
  $ SECRET_TOKEN=s3cr3t platter --trust -e 'print(require("platter").getenv("SECRET_TOKEN"))'
  s3cr3t
  $ TMPDIR=/var/tmp platter -e 'print(platter.getenv("TMPDIR"))'
  /var/tmp
  $ platter --env 'A B' -e 1
  platter: bad --env 'A B': expected the name of an environment variable, such as SIZE
  Try 'platter --help'.
  [2]
