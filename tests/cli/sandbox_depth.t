Deep nesting ends in a Lua error that says "stack overflow", never in a
signal, in both flavours. LuaJIT runs nested coroutines, string.gsub
callbacks and load readers on the C stack without counting them (before
this, a chain of coroutines crashed it at about 105,000 deep, gsub at about
950), so the sandbox counts them and stops at 150.

  $ cat > deep.lua <<'LUA'
  > local function try(name, fn, ...)
  >   local ok, e = pcall(fn, ...)
  >   print(string.format("%s %s %s", name, ok, tostring(e):find("stack overflow") and "stack overflow" or e))
  > end
  > local function wrapchain(d) if d == 0 then return 0 end
  >   return coroutine.wrap(function() return 1 + wrapchain(d - 1) end)() end
  > local function resumechain(d) if d == 0 then return 0 end
  >   local ok, v = coroutine.resume(coroutine.create(function() return 1 + resumechain(d - 1) end))
  >   if not ok then error(v, 0) end
  >   return v
  > end
  > local function gsubchain(s) return (s:gsub(".", gsubchain)) end
  > local function loadchain(n) return load(function() loadchain(n + 1) end) end
  > local function rec() return 1 + rec() end
  > local function pcalls(n) local ok, e = pcall(pcalls, n + 1) if not ok then error(e, 0) end end
  > local mt = {}
  > mt.__tostring = function(t) return "<" .. tostring(t.inner) .. ">" end
  > mt.__concat = function(a, b) return table.concat({ a.inner .. b }) end
  > mt.__index = function(t, k) return tostring(t[k]) end
  > local loop = setmetatable({}, mt); rawset(loop, "inner", loop)
  > try("wrap", wrapchain, 200000)
  > try("resume", resumechain, 200000)
  > try("gsub", gsubchain, "x")
  > try("load", loadchain, 0)
  > try("recursion", rec)
  > try("pcall", pcalls, 0)
  > try("tostring", tostring, loop)
  > try("concat", function() return loop .. "x" end)
  > try("index", function() return setmetatable({}, mt).x end)
  > -- the count is undone on every way out: a chain of 50 works after the errors
  > print("after", wrapchain(50), resumechain(50))
  > -- a yield still passes through the counted resume and wrap
  > local gen = coroutine.wrap(function() for i = 1, 3 do coroutine.yield(i) end end)
  > print("yield", gen(), gen(), gen(), coroutine.resume(coroutine.create(function() coroutine.yield(7) end)))
  > print("gsub", ("a-b"):gsub("-", { ["-"] = "+" }), string.gsub("abc", "%w", "%0%0", 2))
  > LUA
  $ platter deep.lua 2>&1
  wrap false stack overflow
  resume false stack overflow
  gsub false stack overflow
  load false stack overflow
  recursion false stack overflow
  pcall false stack overflow
  tostring false stack overflow
  concat false stack overflow
  index false stack overflow
  after\t50\t50 (esc)
  yield\t1\t2\t3\ttrue\t7 (esc)
  gsub\ta+b\taabbc\t2 (esc)

Under LuaJIT the coroutine count names itself.

  $ platter -e 'if not jit then print("stack overflow (coroutines nested too deeply)") return end
  > local function c(d) return d == 0 or coroutine.wrap(function() return c(d - 1) end)() end
  > print(select(2, pcall(c, 1000)))'
  stack overflow (coroutines nested too deeply)

An overflow nobody catches ends the script with status 1; the scratch file
is removed, as on every error.

  $ platter -e 'local p = require "platter"
  > assert(p.open(p.scratch("s.dat"), { create = true, write = true, size = 4096 }))
  > local function c(d) return d == 0 or coroutine.wrap(function() return c(d - 1) end)() end
  > c(200000)' 2>&1
  platter: .*stack overflow.* (re)
  [1]
  $ platter -e 'local function c(d) return coroutine.wrap(function() return c(d + 1) end)() end c(0)' 2>/dev/null
  [1]
  $ ls
  deep.lua

string.rep with a huge count raises in both flavours (LuaJIT used to cut
the count to 32 bits and return "" without a word), and an empty string
repeated 2^40 times is "" at once (Lua 5.4 used to copy nothing for hours
inside one C call, where no Ctrl-C reaches). timeout stops a regression.

  $ timeout 10 platter -e 'for _, n in ipairs { 2^31, 2^40, 2^53 } do print(pcall(string.rep, "x", n)) end
  > print(pcall(string.rep, "x", 2^31, ",")) print(#string.rep("", 2^40), #("ab"):rep(3, ","))'
  false\tresulting string too large (esc)
  false\tresulting string too large (esc)
  false\tresulting string too large (esc)
  false\tresulting string too large (esc)
  0\t8 (esc)
