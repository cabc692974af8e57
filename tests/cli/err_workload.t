An error in a shipped workload is about the user's input or the system,
not about a line of platter's own Lua: it reads "platter: WORKLOAD: ...",
or like the original tool's message where the workload imitates one, and
never shows workloads/NAME.lua:LINE.

  $ platter sweep /nonexistent/big.dat
  platter: sweep: open: /nonexistent/big.dat is outside the current directory, $TMPDIR and the paths named on the command line (its directory /nonexistent: No such file or directory; run with --trust to lift the sandbox)
  [1]
  $ platter --trust sweep /nonexistent/big.dat
  platter: sweep: open /nonexistent/big.dat: No such file or directory
  [1]
  $ platter readahead /nonexistent/f
  platter: readahead: open: /nonexistent/f is outside the current directory, $TMPDIR and the paths named on the command line (its directory /nonexistent: No such file or directory; run with --trust to lift the sandbox)
  [1]
  $ platter --trust readahead /nonexistent/f
  platter: readahead: open /nonexistent/f: No such file or directory
  [1]
  $ platter dd if=/nonexistent/x of=/dev/null
  platter: dd: open: /nonexistent/x is outside the current directory, $TMPDIR and the paths named on the command line (its directory /nonexistent: No such file or directory; run with --trust to lift the sandbox)
  [1]
  $ platter --trust dd if=/nonexistent/x of=/dev/null
  dd: failed to open '/nonexistent/x': No such file or directory
  [1]
  $ platter bonnie -d /nonexistent -s 1 2>&1 >/dev/null | grep platter
  platter: bonnie: remove: /nonexistent/Bonnie.* is outside the current directory, $TMPDIR and the paths named on the command line (its directory /nonexistent: No such file or directory; run with --trust to lift the sandbox) (glob)
  $ platter iozone -f /nonexistent/x -s 1m -r 4k -i 0 2>&1 >/dev/null
  platter: iozone: open: /nonexistent/x is outside the current directory, $TMPDIR and the paths named on the command line (its directory /nonexistent: No such file or directory; run with --trust to lift the sandbox)
  [1]
  $ platter --trust zones /nonexistent/x
  platter: zones: open /nonexistent/x: No such file or directory
  [1]

No shipped workload or command shows a position in platter's own Lua on
these paths.

  $ for w in sweep readahead zones hdparm; do platter $w /nonexistent/x; done 2>&1 | grep -c '\.lua:[0-9]'
  0
  [1]
  $ for c in compare rerun; do platter $c /nonexistent/a.json; done 2>&1 | grep -c '\.lua:[0-9]'
  0
  [1]

--verbose keeps the position and adds the traceback.

  $ platter --verbose sweep /nonexistent/big.dat 2>&1 | head -2
  platter: workloads/sweep.lua:*: open: /nonexistent/big.dat is outside * (glob)
  stack traceback:

A user's own script keeps its file:line, even a copy of a shipped
workload at the same relative path as the built-in one.

  $ mkdir workloads && cp "$TESTDIR/../../workloads/sweep.lua" workloads/
  $ platter workloads/sweep.lua /nonexistent/big.dat
  platter: workloads/sweep.lua:*: open: /nonexistent/big.dat is outside * (glob)
  [1]
  $ printf 'local p = require "platter"\nassert(p.open("/nonexistent/x"))\n' > mine.lua
  $ platter mine.lua
  platter: mine.lua:2: open: /nonexistent/x is outside * (glob)
  [1]
  $ rm -r workloads mine.lua
