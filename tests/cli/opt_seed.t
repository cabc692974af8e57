--seed N seeds p.random's generator (default 1). The same seed gives the
same sequence, on LuaJIT and on Lua 5.4 alike, so the values below are
pinned.

  $ cat > draw.lua <<'LUA'
  > local p = require "platter"
  > p.write("seed ", p.seed(), "\n")
  > for i = 1, 3 do
  >   p.write(p.random(0, 1048576, 4096), " ", p.random(1, 1000000), " ", p.random(10, 20), "\n")
  > end
  > LUA
  $ platter --seed 42 draw.lua
  seed 42
  86016 378981 17
  970752 991804 18
  753664 850009 18
  $ platter --seed=42 draw.lua
  seed 42
  86016 378981 17
  970752 991804 18
  753664 850009 18

The number is decimal: a leading 0 is not octal, and hex is refused.

  $ platter --seed 0x2a draw.lua
  platter: bad --seed '0x2a': expected a non-negative integer
  Try 'platter --help'.
  [2]
  $ platter --seed 010 -e 'print(platter.seed())'
  10

Without --seed the seed is 1.

  $ platter draw.lua > default.out; platter --seed 1 draw.lua | cmp - default.out && echo same
  same
  $ head -1 default.out
  seed 1

A long run repeats exactly; another seed gives another sequence.

  $ cat > many.lua <<'LUA'
  > local p = require "platter"
  > for i = 1, 2000 do p.write(p.random(0, 1073741824, 512), "\n") end
  > LUA
  $ platter --seed 7 many.lua > a; platter --seed 7 many.lua > b; wc -l < a; cmp a b && echo same
  2000
  same
  $ platter --seed 8 many.lua > c; cmp -s a c || echo differ
  differ
  $ sort -u a | wc -l | awk '$1 > 1900 { print "mostly distinct" }'
  mostly distinct

p.seed(n) inside a script restarts the generator, exactly as --seed n does,
and returns the seed in force.

  $ platter -e 'local p = require "platter"; print(p.seed(7)); for i = 1, 2000 do p.write(p.random(0, 1073741824, 512), "\n") end' | tail -n +2 | cmp - a && echo same
  same
  $ platter --seed 9 -e 'print(platter.seed(), platter.seed(3), platter.seed())'
  9\t3\t3 (esc)
