What a sandboxed script may change beneath the current directory, $TMPDIR
and a directory named on the command line. A script chooses the bytes it
writes: f:write copies what a read brought in, and f:stage gathers single
bytes. So, before this rule, a shared script could copy a line of its own
text into a .bashrc in the current directory, or over a Makefile, and the
next shell or `make` ran it outside the sandbox. Now a change (make, write,
truncate, remove, scratch) never follows a symlink, never touches a dot file
or a dot directory, and never touches a file platter did not make, unless
the path itself is named on the command line.

  $ echo 'all:; @echo the users own' > Makefile
  $ cp Makefile keep
  $ mkdir .ssh sub && echo mine > sub/own && ln -s Makefile link
  $ cat > evil.lua <<'LUA'
  > local p = require "platter"
  > --PAYLOAD:echo pwned
  > local me = assert(p.open("evil.lua"))
  > local n = me:size()
  > me:pread(0, n)
  > local g = assert(p.open((...) or ".bashrc", { write = true, create = true }))
  > print("copied", g:write(n, me) == n)
  > LUA

The escape: the script's own text into a shell start-up file. Refused, and
nothing is made.

  $ platter evil.lua 2>&1 >/dev/null | sed 's/ beneath [^:]*:/ beneath DIR:/'
  platter: evil.lua:6: open: .bashrc is a dot file or lies in a dot directory beneath DIR: a sandboxed script does not read, make, write or remove those (name it on the command line, or run with --trust)
  $ ls -a | grep -c bashrc
  0
  [1]
  $ platter -e 'local p = require "platter"; p.open(".ssh/authorized_keys", { write = true, create = true })' 2>&1 | sed 's/ beneath .*//'
  platter: (command line):1: open: .ssh/authorized_keys is a dot file or lies in a dot directory
  $ platter -e 'local p = require "platter"; p.mkdir(".config")' 2>&1 | sed 's/ beneath .*//'
  platter: (command line):1: mkdir: .config is a dot file or lies in a dot directory
  $ ls -a .ssh
  .
  ..

Nor is a dot file read: credentials live in them, and what a script reads can
end up in what it prints or in a record someone posts. Through a symlink
too; a link to an ordinary file reads as before, and a stat still sees a
dot file.

  $ echo 'aws_secret_access_key = hunter2' > .ssh/id_rsa && ln -s .ssh/id_rsa data && ln -s sub/own plain
  $ cat > peek.lua <<'LUA'
  > local p = require "platter"
  > for _, f in ipairs { function() return p.open(".ssh/id_rsa") end,
  >                      function() return p.read_text(".ssh/id_rsa") end,
  >                      function() return p.readdir(".ssh") end,
  >                      function() return p.open("data") end } do
  >   local ok, err = pcall(f)
  >   print(ok, (tostring(err):gsub("^peek%.lua:%d+: ", ""):gsub(" beneath .*", "")))
  > end
  > print(p.read_text("plain"), p.stat(".ssh/id_rsa") ~= nil)
  > LUA
  $ platter peek.lua
  false\topen: .ssh/id_rsa is a dot file or lies in a dot directory (esc)
  false\tread_text: .ssh/id_rsa is a dot file or lies in a dot directory (esc)
  false\treaddir: .ssh is a dot file or lies in a dot directory (esc)
  false\topen: data is a dot file or lies in a dot directory (esc)
  mine
  \ttrue (esc)
  $ rm data plain .ssh/id_rsa

A file platter did not make is not written, truncated, removed or taken as
scratch: the Makefile keeps its bytes, byte gathering with f:stage included.

  $ cat > stage.lua <<'LUA'
  > local p = require "platter"
  > local src = assert(p.open("evil.lua"))
  > src:pread(0, 64)
  > local ok, err = pcall(p.open, "Makefile", { write = true })
  > print(ok, (tostring(err):gsub("^.-open: ", "")))
  > for _, f in ipairs { function() return p.remove("Makefile") end,
  >                      function() return p.scratch("sub/own") end,
  >                      function() return p.open("sub/own", { write = true, size = 8192 }) end } do
  >   print(select(2, pcall(f)):match("not made by platter") ~= nil)
  > end
  > LUA
  $ platter stage.lua | sed 's/ beneath [^ ]* / beneath DIR /'
  false\tMakefile was not made by platter: beneath DIR a sandboxed script writes and removes only files platter made (name it on the command line, or run with --trust) (esc)
  true
  true
  true
  $ cmp Makefile keep && cat sub/own
  mine

A symlink is not followed for a change, even one that stays beneath the
root: the text of the path is where a change lands.

  $ platter -e 'local p = require "platter"; p.open("link", { write = true })' 2>&1 | sed 's/ beneath .*//'
  platter: (command line):1: open: link: a sandboxed script does not make, write or remove anything through a symlink
  $ cmp Makefile keep

What platter made, it may change again, in this run and in later ones: a file
it makes carries a mark (the xattr user.platter, its inode number), and what
it makes inside a directory it made is covered by that directory's mark.

  $ cat > mk.lua <<'LUA'
  > local p = require "platter"
  > local f = assert(p.open("data.bin", { write = true, create = true, size = 8192 }))
  > assert(p.mkdir("d"))
  > assert(p.open("d/a", { write = true, create = true })):write(4096)
  > LUA
  $ platter mk.lua
  $ python3 -c 'import os; print(os.getxattr("data.bin", "user.platter").decode() == str(os.stat("data.bin").st_ino), os.getxattr("d", "user.platter").decode() == str(os.stat("d").st_ino))'
  True True
  $ platter -e 'local p = require "platter"; assert(p.open("data.bin", { write = true })):write(4096); assert(p.open("d/a", { write = true })):write(4096); assert(p.remove("d/a")); assert(p.remove("data.bin")); assert(p.rmdir("d")); print("changed")'
  changed

A mark copied onto another file (another inode) does not count.

  $ platter -e 'assert(platter.open("made.bin", { write = true, create = true }))'
  $ cp --preserve=xattr made.bin copy.bin
  $ platter -e 'platter.open("copy.bin", { write = true })' 2>&1 | grep -o 'copy.bin was not made by platter'
  copy.bin was not made by platter
  $ platter -e 'assert(platter.open("made.bin", { write = true }))'

Named on the command line, a path is the user's choice: it may be written,
a dot file included. --trust lifts the rule with the rest of the sandbox.

  $ platter evil.lua Makefile
  copied\ttrue (esc)
  $ grep -c PAYLOAD Makefile
  1
  $ cp keep Makefile
  $ platter --trust -e 'assert(platter.open("sub/own", { write = true }))'

A log (fio's NAME_bw.1.log) follows the same rule: a new one is made and
marked, one that platter did not make is refused.

  $ echo 'a users log' > user.log
  $ platter -e 'assert(platter.output_file("user.log"))' 2>&1 | grep -o 'user.log was not made by platter'
  user.log was not made by platter
  $ platter -e 'assert(platter.output_file("new.log")):write("x\n")'
  $ platter -e 'assert(platter.output_file("new.log")):write("y\n")' && cat new.log user.log
  y
  a users log

The simulated disk (and so `platter plan`) applies the dot rule too.

  $ platter --sim nvme -e 'local p = require "platter"; p.open(".profile", { write = true, create = true })' 2>&1 | sed 's/ beneath .*//'
  platter: (command line):1: open: .profile is a dot file or lies in a dot directory
  $ cat > plan.lua <<'LUA'
  > local p = require "platter"
  > p.script { name = "x", version = "1", api = "platter/1", needs = { write = true } }
  > p.open(".profile", { write = true, create = true })
  > LUA
  $ platter plan plan.lua | grep -E '^  /.*\.profile' | sed 's/ beneath .*//; s/^ *[^ ]*/PATH/'
  PATH  write, refused; .profile is a dot file or lies in a dot directory

`platter plan` only looks at the machine, and applies the rules that depend
on its files too: the machine's own file that platter did not make is
shown refused for a change (and for a read in $TMPDIR), as the real run
would refuse it.

  $ cat > plan2.lua <<'LUA'
  > local p = require "platter"
  > p.script { name = "x", version = "1", api = "platter/1", needs = { write = true } }
  > pcall(function() assert(p.open("Makefile", { write = true })):write(10) end)
  > pcall(p.remove, "sub/own")
  > pcall(p.read_text, p.getenv("TMPDIR") .. "/krb5cc_1000")
  > assert(p.open("made.bin", { write = true })):write(10)
  > LUA
  $ T=$(mktemp -d) && echo ticket > "$T/krb5cc_1000"
  $ TMPDIR=$T platter plan plan2.lua | grep -E '^  /' | sed 's/ beneath .*//; s/^ *[^ ]*\/\([^/ ]*\) */\1  /'
  Makefile  write, refused; exists; Makefile was not made by platter:
  own  refused; exists; sub/own was not made by platter:
  krb5cc_1000  read, refused; .*/krb5cc_1000 was not made by platter: (re)
  made.bin  write; wrote 10 bytes; exists
  $ TMPDIR=$T platter plan plan2.lua "$T/krb5cc_1000" | grep -E '^  /.*krb5cc' | sed 's/^ *[^ ]*\/\([^/ ]*\) */\1  /'
  krb5cc_1000  read
  $ cmp Makefile keep && cat sub/own && rm -r "$T"
  mine

Beneath $TMPDIR, which other programs and users share, a script reads only
what platter made: Kerberos keeps its tickets there (/tmp/krb5cc_UID), and
nobody who runs platter chose what else lies there. Before this rule a
script printed such a ticket. What platter made there (in this run or an
earlier one) reads as before, as does a file named on the command line, a
current directory that is $TMPDIR itself, and anything with --trust; a stat
still sees the file.

  $ T=$(mktemp -d) && echo SECRET-TICKET > "$T/krb5cc_1000" && ln -s krb5cc_1000 "$T/ticket"
  $ cat > tmp.lua <<'LUA'
  > local p = require "platter"
  > local t = p.getenv("TMPDIR")
  > for _, f in ipairs { function() return p.read_text(t .. "/krb5cc_1000") end,
  >                      function() return p.open(t .. "/krb5cc_1000") end,
  >                      function() return p.open(t .. "/ticket") end,
  >                      function() return p.readdir(t) end } do
  >   local ok, err = pcall(f)
  >   print(ok, (tostring(err):gsub("^tmp%.lua:%d+: ", ""):gsub(t:gsub("%p", "%%%0"), "T")))
  > end
  > print(p.stat(t .. "/krb5cc_1000").size)
  > local f = assert(p.open(t .. "/made.dat", { write = true, create = true, size = 4096 }))
  > assert(p.mkdir(t .. "/d"))
  > assert(p.open(t .. "/d/in.dat", { write = true, create = true, size = 4096 }))
  > print(f:pread(0, 4096), #p.readdir(t .. "/d"))
  > LUA
  $ TMPDIR=$T platter tmp.lua
  false\tread_text: T/krb5cc_1000 was not made by platter: beneath T ($TMPDIR, shared with other programs) a sandboxed script reads only what platter made (name it on the command line, or run with --trust) (esc)
  false\topen: T/krb5cc_1000 was not made by platter: beneath T ($TMPDIR, shared with other programs) a sandboxed script reads only what platter made (name it on the command line, or run with --trust) (esc)
  false\topen: T/ticket was not made by platter: beneath T ($TMPDIR, shared with other programs) a sandboxed script reads only what platter made (name it on the command line, or run with --trust) (esc)
  false\treaddir: T is $TMPDIR, shared with other programs: a sandboxed script does not list it (name it on the command line, or run with --trust) (esc)
  14
  4096\t1 (esc)
  $ TMPDIR=$T platter -e 'local t = platter.getenv("TMPDIR"); print(assert(platter.open(t .. "/made.dat")):pread(0, 10), #platter.readdir(t .. "/d"))'
  10\t1 (esc)
  $ TMPDIR=$T platter -e 'print(platter.read_text(platter.getenv("TMPDIR") .. "/krb5cc_1000"))' "$T/krb5cc_1000"
  SECRET-TICKET
  
  $ TMPDIR=$T platter -e 'print(#platter.readdir(platter.getenv("TMPDIR")))' "$T"
  4
  $ TMPDIR=$T platter --trust -e 'print(platter.read_text(os.getenv("TMPDIR") .. "/krb5cc_1000"))'
  SECRET-TICKET
  
  $ (cd "$T" && TMPDIR=$T platter -e 'print(platter.read_text("krb5cc_1000"))')
  SECRET-TICKET
  
  $ rm -r "$T"

A file made an instant ago and not marked (another platter process may be
between making and marking it) is looked at again for up to 50 ms, and then
refused like any other file that is not platter's: the wait never lets it
through. And a new name whose way leads through a symlink beneath the root is
not made at the link's target (the lookup that would make it follows no symlink).

  $ mkdir fresh && cd fresh
  $ echo mine > new.txt
  $ platter -e 'local p = require "platter"
  > local t0 = p.now()
  > local ok, err = pcall(p.open, "new.txt", { write = true })
  > print(ok or (tostring(err):gsub("^.-: open", "open")))
  > print((p.now() - t0) / 1e6 >= 40)'
  open: new.txt was not made by platter: beneath .* a sandboxed script writes and removes only files platter made \(name it on the command line, or run with --trust\) (re)
  true
  $ cat new.txt
  mine
  $ mkdir sub && ln -s sub ulink
  $ platter -e 'local f, err = require("platter").open("ulink/new", { create = true, write = true })
  > print(f == nil and err)'
  open ulink/new: No such file or directory
  $ ls sub
  $ cd .. && rm -r fresh
