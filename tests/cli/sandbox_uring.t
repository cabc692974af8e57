io_uring in a sandboxed run: every ring comes from the ring broker,
restricted to reads, writes and syncs (docs/sandbox.md, "What io_uring can
reach"), and p.parallel's workers ask the same broker, each for its own
rings. (tests/unit/test_sandbox.c checks what such a ring refuses.)

  $ platter --version -v 2>&1 | grep -q 'io_uring: built in' || exit 80
  $ head -c 1048576 /dev/zero > d.dat
  $ cat > u.lua <<'LUA'
  > local p = require "platter"
  > local f = assert(p.open("d.dat"))
  > local r = p.run { file = f, engine = "io_uring", qd = 8, bs = 4096, count = 256 }
  > print("one", r.ops, r.errors)
  > p.parallel(2, function(w)
  >   local g = assert(p.open("d.dat"))
  >   local s = p.run { file = g, engine = "io_uring", qd = 4, bs = 4096, count = 100 }
  >   print("worker", w, s.ops, s.errors)
  > end)
  > LUA
  $ platter u.lua 2>/dev/null | sort
  one\t256\t0 (esc)
  worker\t1\t100\t0 (esc)
  worker\t2\t100\t0 (esc)
