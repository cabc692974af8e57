Without --trust, p.open, p.scratch and p.remove accept a path only when,
after realpath, it lies under the current directory, under $TMPDIR (or
/tmp), or is (or lies under a directory) named on the command line.

  $ mkdir -p ../outside/sub && echo x > ../outside/sub/f && echo y > ../outside/g
  $ OUT=$(cd ../outside && pwd)
  $ cat > open.lua <<'LUA'
  > local p = require "platter"
  > local path = ...
  > local f, err = p.open(path)
  > print(f and "opened" or err)
  > LUA

The current directory and $TMPDIR are allowed.

  $ echo z > here; platter open.lua here
  opened
  $ echo t > "$TMPDIR/t"; platter open.lua "$TMPDIR/t" && platter -e 'print(platter.open(...) ~= nil)' "$TMPDIR/t"
  opened
  true

Anything else is refused, with the resolved path when it differs from the
one given. ".." and symlinks cannot get around it.

  $ platter -e 'platter.open("../outside/g")'
  platter: \(command line\):1: open: \.\./outside/g -> /.*/outside/g is outside the current directory, \$TMPDIR and the paths named on the command line \(run with --trust to lift the sandbox\) (re)
  [1]
  $ ln -s ../outside/g link
  $ platter -e 'platter.open("link")'
  platter: \(command line\):1: open: link -> /.*/outside/g is outside .* (re)
  [1]
  $ ln -s ../outside dirlink
  $ platter -e 'platter.open("dirlink/new.dat", { create = true, write = true })'
  platter: \(command line\):1: open: dirlink/new.dat -> /.*/outside/new.dat is outside .* (re)
  [1]
  $ ls ../outside
  g
  sub

A symlink that stays inside is fine; a dangling one is refused even when
it points inside, since creating through it would follow it.

  $ ln -s here inlink; platter open.lua inlink
  opened
  $ ln -s nowhere dangling
  $ platter -e 'platter.open("dangling", { create = true, write = true })'
  platter: (command line):1: open: dangling is a dangling symlink (platter does not create a file through one)
  [1]
  $ ls nowhere
  ls: cannot access 'nowhere': No such file or directory
  [2]

Paths named on the command line are allowed: a file just itself, a
directory with everything under it. Plain arguments count, and so do the
value of key=value (dd style) and of -Xvalue / --name=value.

  $ platter open.lua "$OUT/g"
  opened
  $ platter -e 'platter.open(select(2, ...))' "$OUT/g" "$OUT/sub/f"
  $ platter -e 'print(platter.open(...))' "$OUT/sub/f" "$OUT/g" 2>&1 | grep -c 'is outside'
  0
  [1]
  $ platter -e 'print((platter.open("'"$OUT"'/sub/f")))' "$OUT/g"
  platter: \(command line\):1: open: /.*/outside/sub/f is outside .* (re)
  [1]
  $ platter -e 'print((platter.open("'"$OUT"'/sub/f")))' "$OUT"
  platter.file (/*/outside/sub/f) (glob)
  $ platter -e 'print((platter.open("'"$OUT"'/g")))' "if=$OUT/g"
  platter.file (/*/outside/g) (glob)
  $ platter -e 'print((platter.open("'"$OUT"'/sub/f")))' "-d$OUT"
  platter.file (/*/outside/sub/f) (glob)
  $ platter -e 'print((platter.open("'"$OUT"'/sub/f")))' "--dir=$OUT/sub"
  platter.file (/*/outside/sub/f) (glob)

A named file that does not exist yet may be created.

  $ platter -e 'assert(platter.open("'"$OUT"'/new.dat", { create = true, write = true, size = 4096 }))' "of=$OUT/new.dat"
  $ ls ../outside
  g
  new.dat
  sub

p.scratch and p.remove follow the same rule.

  $ platter -e 'platter.remove("../outside/new.dat")'
  platter: \(command line\):1: remove: \.\./outside/new\.dat -> /.*/outside/new\.dat is outside .* (re)
  [1]
  $ platter -e 'platter.scratch("../outside/new.dat")'
  platter: \(command line\):1: scratch: \.\./outside/new\.dat -> /.*/outside/new\.dat is outside .* (re)
  [1]
  $ platter -e 'print(platter.remove("../outside/new.dat"))' ../outside/new.dat
  true
  $ platter -e 'print(platter.remove("gone"))'
  nil\tremove gone: No such file or directory\t2 (esc)

--trust lifts the rule.

  $ platter --trust -e 'print((platter.open("../outside/g")))'
  platter.file (../outside/g)

The rest of the sandbox: a reduced os, text-only load, and a clear error
for anything missing.

  $ platter -e 'print(type(os.time()), type(os.clock()), type(os.date()), os.difftime(3, 1))'
  number\\tnumber\\tstring\\t2(\.0)? \(esc\) (re)
  $ for k in execute getenv remove rename tmpname setlocale exit; do
  >   platter -e "print('$k', (pcall(function() return os.$k('x') end)))"
  > done
  execute\tfalse (esc)
  getenv\tfalse (esc)
  remove\tfalse (esc)
  rename\tfalse (esc)
  tmpname\tfalse (esc)
  setlocale\tfalse (esc)
  exit\tfalse (esc)
  $ platter -e 'print(load(string.dump(function() end)))'
  nil\tload: binary (bytecode) chunks are refused in the sandbox (esc)
  $ platter --trust -e 'local f = assert(io.open("bc.luac", "wb")); f:write(string.dump(function() print("ran") end)); f:close()'
  $ platter ./bc.luac
  platter: .*(binary|bytecode|mode).* (re)
  [1]
  $ platter --trust ./bc.luac
  ran
  $ rm bc.luac
  $ platter -e 'x = 41; print(load("return x + 1")(), loadstring == load)'
  42\ttrue (esc)
  $ platter -e 'print(load("return y", "chunk", "t", { y = 5 })())'
  5
  $ platter -e 'y = 6; print(load("return y", "chunk", "t", nil)())'
  6
  $ for g in io debug package dofile loadfile ffi; do platter -e "local _ = $g" 2>&1; done
  platter: (command line):1: 'io' is not available in the sandbox (run with --trust to allow it)
  platter: (command line):1: 'debug' is not available in the sandbox (run with --trust to allow it)
  platter: (command line):1: 'package' is not available in the sandbox (run with --trust to allow it)
  platter: (command line):1: 'dofile' is not available in the sandbox (run with --trust to allow it)
  platter: (command line):1: 'loadfile' is not available in the sandbox (run with --trust to allow it)
  platter: (command line):1: 'ffi' is not available in the sandbox (run with --trust to allow it)
  [1]
  $ platter -e 'print(jit == nil or type(jit), setfenv == nil or type(setfenv), utf8 == nil or type(utf8))'
  true\\ttrue\\t(true|table) \(esc\) (re)

Strings share one metatable; the sandbox hides it, so a script cannot reach
the real string table through it.

  $ platter -e 'print(getmetatable(""))'
  string
  $ platter -e 'string.upper = nil; print(("ok"):upper())'
  OK
