--target chooses where the bytes of every file live. The null target keeps
names with a size and nothing else: every I/O completes at once, without a
system call, so a script measures platter's own cost.

  $ platter --target list
  os
  sim:PRESET
  null

The same script on the null target: the file is a name of 1 MiB, reads
return what the size allows, a write past the end extends it, and p.run
works on it as on a file.

  $ cat > t.lua <<'EOF'
  > local p = require "platter"
  > local path = p.scratch("n.dat")
  > local f = assert(p.open(path, { create = true, write = true, size = "1m" }))
  > print(f:size(), f:pread(1048576 - 100, 4096), f:pwrite(1048576, 10))
  > print(f:size())
  > local r = p.run{ file = f, pattern = "random", bs = "4k", count = 1000 }
  > print(r.ops, r.bytes)
  > f:close()
  > EOF
  $ platter --target null t.lua
  1048576\t100\t10 (esc)
  1048586
  1000\t4096000 (esc)

No file was made on the machine.

  $ ls
  t.lua

The record keeps the target, and rerun passes it on.

  $ platter --target null --json r.json t.lua > /dev/null
  $ platter -e 'local d = require("cjson").decode(require("platter").read_text("r.json")); print(d.options.target)'
  null
  $ platter rerun --dry-run r.json 2>&1 | grep -o -- "'--target' 'null'"
  '--target' 'null'

Bad values are usage errors that name the value.

  $ platter --target nope t.lua
  platter: unknown --target 'nope' (see 'platter --target list')
  Try 'platter --help'.
  [2]
  $ platter --target null:x t.lua
  platter: --target 'null:x': this target takes no argument
  Try 'platter --help'.
  [2]
  $ platter --target null --sim nvme t.lua
  platter: --target 'null' and --sim choose different targets: give one
  Try 'platter --help'.
  [2]
  $ platter --target sim t.lua
  platter: --target sim needs a preset: --target sim:PRESET (see 'platter --sim list')
  Try 'platter --help'.
  [2]
  $ platter --target
  platter: option '--target' needs a value
  Try 'platter --help'.
  [2]

sim:PRESET is --sim PRESET, and os is the default. A script sees the choice
in p.config: virtual is true where no machine is behind the target (the
cache watch then leaves the machine's storage counters alone).

  $ platter --target null -e 'local c = require("platter").config; print(c.target, c.virtual)'
  null	true (esc)
  $ platter --target sim:nvme -e 'local c = require("platter").config; print(c.sim, c.target, c.virtual)'
  nvme	nil	true (esc)
  $ platter -e 'local c = require("platter").config; print(c.target, c.virtual)'
  nil	nil (esc)

  $ platter --target sim:ata-5400-1999 -e 'print(require("platter").ram())'
  134217728
  $ platter --target os -e 'print(require("platter").ram() > 134217728)'
  true

The I/O made no system call: strace sees no 4 KiB pread64 or pwrite64 on the
null target, and 1001 on the os one (f:pread's and p.run's thousand) (the dynamic loader's own reads
of library headers are not 4 KiB). Last, skipped where strace is missing.

  $ command -v strace >/dev/null || exit 80
  $ export ASAN_OPTIONS=detect_leaks=0  # LeakSanitizer cannot work under ptrace
  $ strace -f -qq -e trace=pread64,pwrite64 -o null.tr platter --target null t.lua > /dev/null
  $ grep -c 'p\(read\|write\)64(.*, 4096, ' null.tr
  0
  [1]
  $ strace -f -qq -e trace=pread64,pwrite64 -o os.tr platter t.lua > /dev/null 2>&1
  $ grep -c 'pread64(.*, 4096, ' os.tr
  1001
  $ rm -f null.tr os.tr
