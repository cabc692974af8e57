platter pack SCRIPT... -o NAME.platter writes one plain-text file holding a
script and the modules it requires from beside it; platter NAME.platter runs
it, with require served from the pack alone; platter verify checks it.

A script with two modules beside it: mylib.lua, and util/init.lua (require
"util" finds util.lua, else util/init.lua). A require in a comment or a string
is not one; platter's own modules are not packed.

  $ mkdir proj && cd proj
  $ cat > main.lua <<'LUA'
  > local p = require "platter"
  > local lib = require "mylib"
  > local util = require("util")
  > -- require "commented"
  > local s = "require 'instring'"
  > print(lib.greeting(), util.shout("hi"), ...)
  > if (...) == "boom" then lib.boom() end
  > LUA
  $ cat > mylib.lua <<'LUA'
  > local M = {}
  > function M.greeting() return "version one" end
  > function M.boom()
  >   error("kaboom")
  > end
  > return M
  > LUA
  $ mkdir util && printf 'return { shout = function(s) return s:upper() .. "!" end }\n' > util/init.lua
  $ cd ..
  $ platter pack proj/main.lua -o app.platter
  app.platter: 3 members, \d+ bytes \(platter-pack 1\) (re)
  sha256 [0-9a-f]{64} (re)
    main.lua          223 bytes  the entry script
    mylib.lua         109 bytes  require "mylib" at main.lua:2
    util/init.lua      59 bytes  require "util" at main.lua:3
  $ platter pack proj/main.lua -q -o app.platter

The pack is text: its header lists the members with their sizes and sha256s
(those of sha256sum), then each member's code follows as it was.

  $ head -1 app.platter
  platter-pack 1
  $ grep '^entry\|^member' app.platter | sed 's/ [0-9a-f]\{64\}$/ HASH/'
  entry main.lua
  member main.lua 223 HASH
  member mylib.lua 109 HASH
  member util/init.lua 59 HASH
  $ (cd proj && sha256sum main.lua mylib.lua util/init.lua) > sums
  $ awk '{ print "member " $2 " " $1 }' sums > want
  $ grep '^member' app.platter | awk '{ print $1 " " $2 " " $4 }' | diff - want
  $ grep -n 'function M.greeting\|^--- ' app.platter
  11:--- member main.lua
  20:--- member mylib.lua
  22:function M.greeting() return "version one" end
  28:--- member util/init.lua
  31:--- end

Run from another directory, the modules come from the pack: changing the
module on disk, or removing the directory, changes nothing.

  $ mkdir elsewhere && cd elsewhere
  $ platter ../app.platter a b
  version one\tHI!\ta\tb (esc)
  $ sed -i 's/version one/version two/' ../proj/mylib.lua
  $ platter ../app.platter a
  version one\tHI!\ta (esc)
  $ mv ../proj ../proj.away
  $ platter ../app.platter
  version one\tHI! (esc)
  $ cd ..

Under --trust too, a module beside the pack on disk does not replace a member.

  $ printf 'return { greeting = function() return "from the disk" end }\n' > mylib.lua
  $ platter --trust app.platter t
  version one\tHI!\tt (esc)
  $ rm mylib.lua

Errors in the user's code name the pack, the member and the line.

  $ platter app.platter boom
  version one\tHI!\tboom (esc)
  platter: app.platter:mylib.lua:4: kaboom
  [1]
  $ platter -v app.platter boom 2>&1 | grep -o 'app.platter:[a-z.]*:[0-9]*: in'
  app.platter:mylib.lua:4: in
  app.platter:main.lua:7: in
  $ printf 'platter-pack 1\n' > short.platter
  $ platter short.platter
  platter: short.platter: it is cut short (its header has no end)
  [1]

The result record keeps the pack: script.kind "pack", script.sha256 that of
the whole file, script.pack its name, entry and each member's name, size and
sha256, which are sha256sum's.

  $ platter --json r.json app.platter x >/dev/null
  $ platter -e 'local d = require("cjson").decode(platter.read_text("r.json")).script
  > print(d.kind, d.name, d.pack.name, d.pack.entry, ("%d"):format(d.pack.format), d.sha256 == d.pack.sha256)
  > print(d.sha256)
  > for _, m in ipairs(d.pack.members) do print(m.sha256 .. "  " .. m.name, ("%d"):format(m.size)) end' > got
  $ head -1 got
  pack\tapp.platter\tapp.platter\tmain.lua\t1\ttrue (esc)
  $ sed -n 2p got | diff - <(sha256sum app.platter | cut -d' ' -f1)
  $ sed -n '3,$p' got | cut -f1 | diff - sums

rerun of such a record says which pack it was made from and runs it again,
from the copy in the record.

  $ platter rerun r.json 2>&1 | sed 's/[0-9a-f]\{64\}/HASH/'
  rerun: the record was made from the pack app.platter (sha256 HASH); the record holds it, and it runs again from there
  rerun: inside the current directory or $TMPDIR, granted anyway and need not be named again: x
  rerun: app.platter (seed 1, arguments: x)
  version one\tHI!\tx (esc)

platter verify checks every hash and lists the members, as sha256sum would
(exit status 0); --sha256 compares the whole file with the hash its sender
published.

  $ platter verify app.platter | sed 's/[0-9a-f]\{64\}/HASH/'
  app.platter: intact (platter-pack 1, 3 members, entry main.lua)
  sha256 HASH
    HASH  223  main.lua
    HASH  109  mylib.lua
    HASH   59  util/init.lua
  $ platter verify app.platter | sed -n 2p | diff - <(sha256sum app.platter | awk '{ print "sha256 " $1 }')
  $ platter verify app.platter --sha256 "$(sha256sum app.platter | cut -d' ' -f1)" | sed -n 2p | sed 's/[0-9a-f]\{64\}/HASH/'
  sha256 HASH (the published one)
  $ platter verify app.platter --sha256 "$(printf x | sha256sum | cut -d' ' -f1)" 2>&1 | sed 's/[0-9a-f]\{64\}/HASH/g'
  platter: verify: app.platter: its sha256 is HASH, not the published HASH
  $ platter verify app.platter --sha256 12ab
  platter: verify: --sha256 12ab: a sha256 is 64 hex digits
  Try 'platter verify --help'.
  [2]
  $ platter verify --json app.platter > v.json
  $ platter -e 'local d = require("cjson").decode(platter.read_text("v.json"))
  > print(d.file, d.intact, ("%d"):format(d.format), d.entry, d.error, #d.members)
  > for _, m in ipairs(d.members) do print(m.name, ("%d"):format(m.size), m.ok, #m.sha256) end'
  app.platter\ttrue\t1\tmain.lua\tnil\t3 (esc)
  main.lua\t223\ttrue\t64 (esc)
  mylib.lua\t109\ttrue\t64 (esc)
  util/init.lua\t59\ttrue\t64 (esc)

A pack altered after it was made is refused, naming the member that does
not match, by run (nothing of it runs) and by verify (exit status 1).

  $ sed 's/version one/version 1.0/' app.platter > bad.platter
  $ platter bad.platter
  platter: bad.platter: member mylib.lua does not match its sha256 (the pack is damaged or was altered)
  [1]
  $ platter verify bad.platter
  platter: verify: bad.platter: member mylib.lua does not match its sha256 (the pack is damaged or was altered)
  [1]
  $ platter verify --json bad.platter > vb.json
  [1]
  $ platter -e 'local d = require("cjson").decode(platter.read_text("vb.json"))
  > print(d.intact, d.error)
  > for _, m in ipairs(d.members) do print(m.name, m.ok) end'
  false\tbad.platter: member mylib.lua does not match its sha256 (the pack is damaged or was altered) (esc)
  main.lua\ttrue (esc)
  mylib.lua\tfalse (esc)
  util/init.lua\ttrue (esc)
  $ sed 's/version one/version one, longer/' app.platter > longer.platter
  $ platter longer.platter
  platter: longer.platter: member mylib.lua is not the 109 bytes its header says (the pack is damaged or was altered)
  [1]
  $ sed 's/^entry main.lua/entry mylib.lua/' app.platter > entry.platter
  $ platter verify entry.platter
  platter: verify: entry.platter: its header or layout was altered (the content does not match its closing sha256)
  [1]
  $ sed 's/platter-pack 1/platter-pack 2/' app.platter > future.platter
  $ platter future.platter
  platter: future.platter: a pack of format 2; this platter reads format 1
  [1]
  $ echo 'print("ran")' > plain.platter
  $ platter plain.platter
  platter: plain.platter: not a platter pack (its first line is not 'platter-pack 1')
  [1]
  $ platter nosuch.platter
  platter: cannot read script nosuch.platter: No such file or directory
  [2]

A script that requires a module that is not beside it cannot be packed: the
error names the module and where it is required (exit status 1, no pack
written). -x leaves a module out (one the receiver has installed, for a
--trust run); -m adds one that is required by a computed name.

  $ mkdir two && printf 'local a = require "helper"\nlocal b = require(os.getenv("X") or "extra")\n' > two/job.lua
  $ printf 'return 1\n' > two/extra.lua
  $ platter pack two/job.lua
  pack: two/job.lua:2: a require with a computed name is not followed (name its module with -m MODULE)
  platter: pack: two/job.lua:1: require 'helper': no two/helper.lua or two/helper/init.lua beside two/job.lua (give -x helper to leave it out)
  [1]
  $ ls *.platter | grep -c job
  0
  [1]
  $ platter pack two/job.lua -x helper -m extra
  pack: two/job.lua:2: a require with a computed name is not followed (name its module with -m MODULE)
  job.platter: 2 members, \d+ bytes \(platter-pack 1\) (re)
  sha256 [0-9a-f]{64} (re)
    job.lua        72 bytes  the entry script
    extra.lua       9 bytes  -m extra
  $ platter job.platter
  platter: job.platter:job.lua:1: require 'helper': not a member of the pack job.platter, nor one of platter's own modules
  [1]
  $ mkdir two/more && echo 'return 2' > two/more/x.lua && echo 'return 3' > outside.lua
  $ platter pack -q two/job.lua two/more/x.lua -x helper -m extra -o job2.platter 2>/dev/null
  $ grep '^member' job2.platter | cut -d' ' -f2
  job.lua
  more/x.lua
  extra.lua
  $ platter pack two/job.lua outside.lua -x helper
  platter: pack: outside.lua is not in two/job.lua's directory (two) or below it: a member is named by its path there
  Try 'platter pack --help'.
  [2]
  $ platter pack two/job.lua -o job.zip
  platter: pack: -o job.zip: a pack's name ends in .platter (platter runs it by that name)
  Try 'platter pack --help'.
  [2]
  $ platter pack
  platter: pack: missing SCRIPT.lua
  Try 'platter pack --help'.
  [2]

A script whose manifest (p.script) comes first can be described from its pack.

  $ mkdir q && cat > q/qd.lua <<'LUA'
  > local p = require "platter"
  > local h = require "helpers"
  > local P = p.script({ name = "qd", version = "1.0", api = "platter/1",
  >   description = "reads at one queue depth",
  >   params = { qd = { type = "int", default = 4, min = 1 } } }, ...)
  > print(h.twice(P.qd))
  > LUA
  $ echo 'return { twice = function(n) return 2 * n end }' > q/helpers.lua
  $ platter pack -q q/qd.lua
  $ platter describe qd.platter
  name: qd
  version: 1.0
  api: platter/1
  description: reads at one queue depth
  needs: write no, device any, root no
  parameters:
    --qd N  (int, at least 1, default 4)
  $ platter describe --json qd.platter | grep -o '"name":"qd"'
  "name":"qd"
  $ platter qd.platter --qd 21
  42
  $ platter qd.platter --qd 0
  platter: qd: --qd 0: must be at least 1
  Try 'platter qd --help'.
  [2]
