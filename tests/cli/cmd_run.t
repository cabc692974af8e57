A script file gets its arguments both as the chunk's varargs (...) and in
the global table arg, as the stand-alone lua interpreter passes them;
arg[0] is the script as named on the command line.

  $ cat > show.lua <<'LUA'
  > local n = select("#", ...)
  > print("n", n, "#arg", #arg, "arg[0]", arg[0], "arg[-1]", arg[-1])
  > for i = 1, n do
  >   print(i, "[" .. select(i, ...) .. "]", "[" .. arg[i] .. "]")
  > end
  > LUA
  $ platter show.lua one "two words" "" -x --trust
  n\t5\t#arg\t5\targ[0]\tshow.lua\targ[-1]\tnil (esc)
  1\t[one]\t[one] (esc)
  2\t[two words]\t[two words] (esc)
  3\t[]\t[] (esc)
  4\t[-x]\t[-x] (esc)
  5\t[--trust]\t[--trust] (esc)

Options after the script name belong to the script: the --trust above did
not lift the sandbox.

  $ platter show.lua --trust > /dev/null; platter -e 'print(platter.trusted)' --trust
  false

Without arguments, ... is empty and arg holds only arg[0].

  $ platter ./show.lua
  n\t0\t#arg\t0\targ[0]\t./show.lua\targ[-1]\tnil (esc)

A name is a script file when it has a '/' or ends in .lua, so a file
without the ending runs when named with a path.

  $ cp show.lua script
  $ platter ./script a
  n\t1\t#arg\t1\targ[0]\t./script\targ[-1]\tnil (esc)
  1\t[a]\t[a] (esc)

"--" ends platter's options, so a script may start with a dash.

  $ cp show.lua ./-odd.lua
  $ platter -- -odd.lua z
  n\t1\t#arg\t1\targ[0]\t-odd.lua\targ[-1]\tnil (esc)
  1\t[z]\t[z] (esc)

-e CODE runs a chunk of code instead of a script; what follows the code
is its arguments and arg[0] is "-e".

  $ platter -e 'print(select("#", ...), arg[0], #arg, ...)' a b
  2\t-e\t2\ta\tb (esc)
  $ platter -e 'print(...)' -e --seed
  -e\t--seed (esc)
  $ platter --seed 3 -e 'print(platter.seed())'
  3

The library is there as require "platter" and as the global platter.

  $ platter -e 'local p = require "platter"; print(p == platter, type(p.open))'
  true\tfunction (esc)

Whatever the chunk returns is ignored: the exit status is 0.

  $ platter -e 'return 5, "x"'

A bare name runs the shipped workload of that name (see platter list);
here a very short sweep of one cell.

  $ platter --quiet sweep -s 64k --min 4k --max 4k -d 1ms -t reread -m cooked
  Reread
  bsize\treq/sec\tbw (esc)
  \tcooked\tcooked (esc)
  4096\\t[0-9.e+]+\\t[0-9]+ \(esc\) (re)
  $ ls
  -odd.lua
  script
  show.lua

--lua-dir (or $PLATTER_LUA_DIR) loads the library and the workloads from a
source tree instead of the copies built into the binary.

  $ mkdir -p tree/lua/platter tree/workloads
  $ cp "$PLATTER_LUA_DIR"/lua/platter/*.lua tree/lua/platter/
  $ printf -- '-- hello: a test workload\nprint("hello", ...)\n' > tree/workloads/sweep.lua
  $ platter --lua-dir tree sweep 1 2
  hello\t1\t2 (esc)
  $ platter --lua-dir=tree list | grep '^sweep '
  sweep      hello: a test workload
  $ PLATTER_LUA_DIR=tree platter sweep x
  hello\tx (esc)
