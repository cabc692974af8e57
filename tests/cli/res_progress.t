On a terminal, a phase or run longer than a second shows one progress line
on stderr, rewritten in place ("\r" ... ESC[K) and erased when it ends:
the name, the percentage and ETA when the run knows its end, the elapsed
time and the current rate. `script` (util-linux) gives the pseudo-terminal.

  $ command -v script >/dev/null || exit 80
  $ cat > long.lua <<'LUA'
  > local p = require "platter"
  > local f = assert(p.open(p.scratch("long.dat"), { create = true, write = true, size = "1m", direct = true }))
  > p.phase("reading", function()
  >   local t = p.now() + 1.4e9
  >   while p.now() < t do f:pread(0, 4096) end
  > end)
  > p.run{ file = f, pattern = "random", bs = 4096, seconds = 1.4, name = "random run" }
  > print("done")
  > LUA
  $ script -qec "platter long.lua 2>/dev/null; platter long.lua" /dev/null < /dev/null > tty.out
  $ tr '\r' '\n' < tty.out | grep -a . | sed -e 's/[0-9][0-9.]*/N/g' -e 's/\x1b\[K/<EL>/g' | uniq
  done
  reading: N s, N IOPS, N MB/s<EL>
  <EL>
  random run:  N%, N s, N IOPS, N MB/s, ETA N s<EL>
  <EL>done

With a time series (--interval, or interval on the phase or run), each
report also shows the last closed interval's MB/s and p99; where the line
would be wider than the terminal (80 columns here) that part stands for the
rates since the previous report, which are left out (the sed below leaves
them out in either case).

  $ script -qec "platter --interval 200ms long.lua" /dev/null < /dev/null > tty2.out
  $ tr '\r' '\n' < tty2.out | grep -a . | sed -E -e 's/[0-9][0-9.]*/N/g' -e 's/\x1b\[K/<EL>/g' \
  >   -e 's/pN N (ns|us|ms|s)</p99 T</' -e 's/, N IOPS, N MB\/s;/;/' | uniq
  reading: N s; last N ms: N MB/s, p99 T<EL>
  <EL>
  random run:  N%, N s, ETA N s; last N ms: N MB/s, p99 T<EL>
  <EL>done
  $ tr '\r' '\n' < tty2.out | grep -a 'last 200 ms' | awk '{ if (length($0) > 82) print "too wide: " $0 }'

Not in a pipe, nor with --quiet.

  $ platter long.lua 2>&1 | od -c | grep -c 033
  0
  [1]
  $ script -qec "platter --quiet long.lua" /dev/null < /dev/null | od -c | grep -c 033
  0
  [1]

A generator that raises leaves no progress frame behind: p.run closes its
job at once, so the garbage collector finds nothing to close later, when it
would take the frames of the phases after it with it.

  $ cat > gen_err.lua <<'LUA'
  > local p = require "platter"
  > local f = assert(p.open(p.scratch("g.dat"), { create = true, write = true, size = "1m", direct = true }))
  > print(pcall(p.run, { file = f, gen = function(i)
  >   if i == 3 then error("gen stop", 0) end
  >   return "read", 0, 4096
  > end }))
  > p.phase("live", function()
  >   collectgarbage() collectgarbage()
  >   local t = p.now() + 1.4e9
  >   while p.now() < t do f:pread(0, 4096) end
  > end)
  > print("done")
  > LUA
  $ script -qec "platter gen_err.lua" /dev/null < /dev/null > tty2.out
  $ tr '\r' '\n' < tty2.out | grep -a . | sed -e 's/[0-9][0-9.]*/N/g' -e 's/\x1b\[K/<EL>/g' | uniq
  false\tgen stop (esc)
  live: N s, N IOPS, N MB/s<EL>
  <EL>done

A long `size=` fill in p.open shows its own line: bytes written of the size
asked for, with a percentage and ETA (PLATTER_PROGRESS_MS makes it draw at
once, so a small fill is enough), and it is erased before the script goes on.

  $ cat > fill.lua <<'LUA'
  > local p = require "platter"
  > local f = assert(p.open(p.scratch("fill.dat"), { create = true, write = true, size = "64m" }))
  > print(f:size())
  > LUA
  $ PLATTER_PROGRESS_MS=1 script -qec "platter fill.lua" /dev/null < /dev/null > tty3.out
  $ tr '\r' '\n' < tty3.out | grep -a . | sed -e 's/[0-9][0-9.]*/N/g' -e 's/\x1b\[K/<EL>/g' -e 's/  */ /g' | uniq | sed -n '1p;$p'
  filling the file (size=): N%, N s, N MB/s, ETA N s<EL>
  <EL>N
