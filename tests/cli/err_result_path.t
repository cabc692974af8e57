A result file that cannot be written stops the run before anything runs:
exit 2, naming the option, the path and why.

  $ platter --json /nonexistent/r.json sweep
  platter: --json /nonexistent/r.json: cannot write the result there: No such file or directory
  [2]
  $ platter --csv /nonexistent/dir/r.csv -e 'print("ran")'
  platter: --csv /nonexistent/dir/r.csv: cannot write the result there: No such file or directory
  [2]
  $ mkdir d
  $ platter --json d -e 'print("ran")'
  platter: --json d: cannot write the result there: Is a directory
  [2]
  $ touch f
  $ platter --json f/r.json -e 'print("ran")'
  platter: --json f/r.json: cannot write the result there: Not a directory
  [2]
  $ platter --json d/r.json --csv r.csv -e 'print("ran")'
  ran
  $ ls d r.csv
  r.csv
  
  d:
  r.json

Where the result goes when the path is not a plain file (the device nodes,
which need root to make: res_path_nodes.t). A named pipe is written to in
place, not replaced by a regular file:

  $ mkfifo fifo
  $ (cat fifo > fifo.out &); platter --csv fifo -e 'local p = require "platter"; p.phase("x", function() end)'
  $ sleep 0.5; test -p fifo && head -c 14 fifo.out
  rep,seq,kind,n (no-eol)

/dev/stdout (and /dev/stderr, /dev/fd/1, /proc/self/fd/1) is platter's own
output, which the result follows, not replaces, also when it goes to a file:

  $ platter --json /dev/stdout -e 'local p = require "platter"; p.phase("x", function() end); print("a table")' > out.txt
  $ head -1 out.txt; sed -n '2p' out.txt | head -c 1; echo
  a table
  {
  $ test -h /dev/stdout && echo /dev/stdout is still a link
  /dev/stdout is still a link

Through a symlink the file it names is replaced, and the link stays; a link
that leads nowhere is refused:

  $ echo old > target.json; ln -s target.json link.json
  $ platter --json link.json -e 'print("ran")'
  ran
  $ test -h link.json && head -c 1 target.json; echo
  {
  $ ln -s nowhere.json dangling.json
  $ platter --json dangling.json -e 'print("ran")'
  platter: --json dangling.json: cannot write the result there: No such file or directory
  [2]
