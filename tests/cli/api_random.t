p.random has three forms, like math.random plus an alignment:
p.random() is a float in [0,1), p.random(m) an integer in [1,m], and
p.random(lo, hi [, align]) a multiple of align in [lo,hi]. All draw from
the one generator that --seed and p.seed set, so values are pinned.

  $ platter --seed 42 -e 'local p = require "platter"; print(p.random(), p.random(6), p.random(1000000))'
  0.083862971059882\t3\t680044 (esc)

The bounds are inclusive and reached.

  $ platter -e 'local p = require "platter"
  > local seen, lo, hi, bad = {}, math.huge, -1, 0
  > for i = 1, 5000 do
  >   local a, b, c = p.random(), p.random(6), p.random(4096, 65536, 4096)
  >   if a < 0 or a >= 1 or c % 4096 ~= 0 then bad = bad + 1 end
  >   seen[b] = true; lo = math.min(lo, c); hi = math.max(hi, c)
  > end
  > print(bad, #seen, seen[0], seen[7], lo, hi)'
  0\t6\tnil\tnil\t4096\t65536 (esc)
  $ platter -e 'print(platter.random(7, 7), platter.random(0, 0), platter.random(0, 4095, 4096))'
  7\t0\t0 (esc)

An empty interval, or one holding no multiple of align, is an error.

  $ platter -e 'platter.random(0)'
  platter: \(command line\):1: bad argument #1 to '.*' \(interval is empty\) (re)
  [1]
  $ platter -e 'platter.random(5, 1)'
  platter: \(command line\):1: bad argument #2 to '.*' \(interval is empty\) (re)
  [1]
  $ platter -e 'platter.random(1, 3, 4)'
  platter: \(command line\):1: bad argument #3 to '.*' \(no multiple of the alignment lies in the interval\) (re)
  [1]
  $ platter -e 'platter.random(-1, 3)'
  platter: \(command line\):1: bad argument #1 to '.*' \(lower bound must (not be negative|be a non-negative integer)\) (re)
  [1]
