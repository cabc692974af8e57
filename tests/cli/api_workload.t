p.workload(name, args) runs a shipped workload inside a script's run
(docs/api.md). Every name that platter list shows can be run so, and answers
--help as it does on the command line, then returns to the script.

  $ for w in $(platter list | cut -d' ' -f1); do
  >   platter -e "platter.workload('$w', {'--help'}) print('back')" > nested.txt || echo "$w failed"
  >   (platter $w --help; echo back) | cmp -s - nested.txt || echo "$w differs"
  > done
  $ rm nested.txt

Under --sim a script that only runs the sweep prints what the sweep prints
alone, byte for byte, stdout and stderr, and records the same phases.

  $ platter --sim hitachi-85mb-1988 --json alone.json sweep -s 2m -d 0.2 --max 2k > alone.txt 2>&1
  $ cat > both.lua <<'EOF'
  > platter.workload("sweep", { "-s", "2m", "-d", "0.2", "--max", "2k" })
  > EOF
  $ platter --sim hitachi-85mb-1988 --json nested.json both.lua > nested.txt 2>&1
  $ cmp alone.txt nested.txt && echo same
  same
  $ head -3 nested.txt
  sweep: making scratch file platter-sweep.4242.dat (2 MiB)
  Random
  bsize\treq/sec\tbw\treq/sec\tbw (esc)
  $ cat > phases.lua <<'EOF'
  > local c = require "cjson"
  > local function load(f)
  >   local fh = io.open(f)
  >   local r = c.decode(fh:read("*a"))
  >   fh:close()
  >   return r
  > end
  > local a, b = load(arg[1]), load(arg[2])
  > local same = #a.phases == #b.phases
  > for i, ph in ipairs(a.phases) do
  >   same = same and ph.name == b.phases[i].name and ph.ops == b.phases[i].ops
  > end
  > print(#a.phases, same and "same phases" or "different phases")
  > for _, w in ipairs(b.script.workloads) do
  >   print(w.name, table.concat(w.args, " "), w.sha256 == a.script.sha256 and "same source")
  > end
  > EOF
  $ platter --trust phases.lua alone.json nested.json
  18	same phases (esc)
  sweep	-s 2m -d 0.2 --max 2k	same source (esc)
  $ rm alone.* nested.* both.lua

Errors are strings that start with the workload's name; pcall catches them.
Uncaught, one reads as `platter NAME` would print it, with status 1.

  $ platter --sim ata-5400-1999 -e 'local ok, e = pcall(platter.workload, "sweep", { "-s", "big" }) print(ok) print(e)'
  false
  sweep: bad value 'big' for -s: bad size 'big': not a number
  Try 'platter sweep --help'.
  $ platter --sim ata-5400-1999 -e 'platter.workload("sweep", { "nofile.dat" })'
  platter: sweep: open nofile.dat: No such file or directory
  [1]
  $ platter --sim ata-5400-1999 -e 'platter.workload("nosuch")'
  platter: (command line):1: p.workload: no workload named 'nosuch' (only the shipped workloads of 'platter list')
  [1]

A nested workload has the caller's grants and no more: a path the script
hands it is refused unless it was named on platter's command line.

  $ platter --sim ata-5400-1999 -e 'platter.workload("dd", { "if=/etc/passwd", "of=copy.dat" })'
  platter: dd: open: /etc/passwd is outside the current directory, $TMPDIR and the paths named on the command line (run with --trust to lift the sandbox)
  [1]
  $ platter --sim ata-5400-1999 -e 'platter.workload("dd", { "if=" .. arg[1], "of=copy.dat" })' /etc/passwd
  dd: failed to open '/etc/passwd': No such file or directory
  platter: dd: exited with status 1
  [1]

(Under --sim the files are the model's, which has no /etc/passwd: the call
got past the sandbox.)

  $ ls
  phases.lua
