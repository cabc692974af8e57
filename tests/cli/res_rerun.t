platter rerun runs the script recorded in a result file again: its text
(not today's copy), its arguments and its seed, in the sandbox. The same
seed gives the same offsets.

  $ cat > offsets.lua <<'LUA'
  > local p = require "platter"
  > local path, n = ...
  > local f = assert(p.open(path, { create = true, write = true, size = "1m", direct = true }))
  > local offs = {}
  > for i = 1, tonumber(n) do offs[i] = p.random(0, f:size() - 4096, 4096) end
  > print(table.concat(offs, " "))
  > p.phase("reads", function() for _, o in ipairs(offs) do f:pread(o, 4096) end end)
  > local r = p.run{ file = f, pattern = "random", bs = 4096, count = 50, name = "random" }
  > print(r.ops)
  > LUA
  $ platter --seed 7 --json old.json offsets.lua data.dat 5 > old.out
  $ rm offsets.lua
  $ platter rerun old.json --json new.json > new.out
  rerun: inside the current directory or $TMPDIR, granted anyway and need not be named again: data.dat, 5
  rerun: offsets.lua (seed 7, arguments: data.dat 5)
  $ cat new.out
  [0-9]+ [0-9]+ [0-9]+ [0-9]+ [0-9]+ (re)
  50
  $ cmp old.out new.out && echo same offsets
  same offsets

The new record names the same script and says what it reran, so compare
finds nothing else changed.

  $ platter compare old.json new.json | sed -n '4,/^$/p'
  No differences in platter, script, options, machine or files.
  
  $ platter --trust -e '
  > local doc = require("cjson").decode(assert(io.open("new.json")):read("*a"))
  > print(doc.script.name, doc.seed, doc.rerun_of.file, doc.args[1], doc.args[2])'
  offsets.lua\t7\told.json\tdata.dat\t5 (esc)

Only a file is read back and amended: a record sent to /dev/stdout has gone
by (rerun once renamed its amended copy over the /dev/stdout link itself):

  $ platter rerun old.json --json /dev/stdout > stdout.out 2>/dev/null
  $ test -h /dev/stdout && echo /dev/stdout is still a link
  /dev/stdout is still a link
  $ ls /dev/stdout.tmp 2>/dev/null
  [2]
  $ grep -c '"schema_version"' stdout.out
  1

The record keeps the directory it was made in and, beside the arguments as
given, the same arguments with their paths made absolute. From another
directory rerun uses those, so the run reads the same data.dat instead of
making a new one here. That file is now outside the current directory, so
it has to be agreed to like any other (here by naming its directory).

  $ mkdir elsewhere && cd elsewhere
  $ platter rerun ../old.json .. > new.out
  rerun: the record was made in /.*: its relative paths are given as absolute ones: data.dat -> /.*/data.dat (re)
  rerun: the recorded arguments grant the run these paths:
  rerun:   /.*/data.dat: a file, read-write (re)
  rerun: inside the current directory or $TMPDIR, granted anyway and need not be named again: 5
  rerun: offsets.lua \(seed 7, arguments: /.*/data.dat 5\) (re)
  $ cmp ../old.out new.out && echo same offsets
  same offsets
  $ ls
  new.out
  $ cd .. && rm -r elsewhere
  $ platter --trust -e '
  > local doc = require("cjson").decode(assert(io.open("old.json")):read("*a"))
  > print(string.format("%d", doc.schema_version), doc.args[1], doc.args_abs[1] == doc.cwd .. "/data.dat",
  >   doc.files[1].path, doc.files[1].abs_path == doc.cwd .. "/data.dat")'
  3	data.dat	true	data.dat	true (esc)

--dry-run shows the grants and the command; another seed can be given.

  $ platter rerun -n --seed 8 old.json | sed "s|'[^']*/platter'|PLATTER|"
  rerun: inside the current directory or $TMPDIR, granted anyway and need not be named again: data.dat, 5
  PLATTER '--seed' '8' 'TMPDIR/offsets.lua' 'data.dat' '5'

The rerun is sandboxed: a recorded script that reaches outside fails.

  $ platter --trust --json t.json -e 'io.write("trusted\n")'
  trusted
  $ platter rerun t.json
  rerun: the recorded run was trusted (--trust); this one runs in the sandbox (give --trust to rerun after reading the script)
  rerun: -e (seed 1)
  platter: .*code.lua:1: 'io' is not available in the sandbox \(run with --trust to allow it\) (re)
  [1]
  $ platter rerun --trust -q t.json
  trusted

A record is a stranger's. Every path among its arguments is granted to the
sandboxed run, as on any command line (the argument, the value of key=value,
the value glued to a short option), so rerun lists them first and runs only
when each one outside the current directory and $TMPDIR (or there, one that naming
would free from the sandbox's rules: below) is named again, or
with --grant-recorded. Here a forged record asks for the whole filesystem.

  $ cat > peek.lua <<'LUA'
  > local p = require "platter"
  > print(p.stat("/etc").kind)
  > LUA
  $ platter --json real.json peek.lua
  platter: peek.lua:2: stat: /etc is outside the current directory, $TMPDIR and the paths named on the command line (run with --trust to lift the sandbox)
  [1]
  $ cat > forge.lua <<'LUA'
  > -- forge.lua IN OUT FIELD=JSON...: a copy of record IN with fields replaced
  > local cjson = require "cjson"
  > local a = { ... }
  > local doc = cjson.decode(assert(io.open(a[1])):read("*a"))
  > for i = 3, #a do
  >   local k, v = a[i]:match("^([^=]+)=(.*)$")
  >   local t, last = doc, nil
  >   for part in k:gmatch("[^.]+") do
  >     if last then t = t[last] end
  >     last = part
  >   end
  >   t[last] = cjson.decode(v)
  >   if v == "null" then t[last] = nil end
  > end
  > assert(io.open(a[2], "w")):write(cjson.encode(doc))
  > LUA
  $ platter --trust forge.lua real.json forged.json 'args=["/"]'
  $ platter rerun forged.json
  rerun: the recorded arguments grant the run these paths:
  rerun:   /: a directory: its whole tree, read, and read-write for the files platter makes in it  [not named again]
  platter: rerun: forged.json: the recorded arguments would grant /, more than the current directory and $TMPDIR give unnamed; to agree, name it again after RESULT.json (platter rerun forged.json /) or give --grant-recorded
  Try 'platter rerun --help'.
  [2]
  $ platter rerun -q forged.json
  platter: rerun: forged.json: the recorded arguments would grant /, more than the current directory and $TMPDIR give unnamed; to agree, name it again after RESULT.json (platter rerun forged.json /) or give --grant-recorded
  Try 'platter rerun --help'.
  [2]

Naming another path does not count; naming / again, or --grant-recorded, does.

  $ platter rerun forged.json /usr
  rerun: the recorded arguments grant the run these paths:
  rerun:   /: a directory: its whole tree, read, and read-write for the files platter makes in it  [not named again]
  platter: rerun: forged.json: the recorded arguments would grant /, more than the current directory and $TMPDIR give unnamed; to agree, name it again after RESULT.json (platter rerun forged.json /) or give --grant-recorded
  Try 'platter rerun --help'.
  [2]
  $ platter rerun forged.json /
  rerun: the recorded arguments grant the run these paths:
  rerun:   /: a directory: its whole tree, read, and read-write for the files platter makes in it
  rerun: peek.lua (seed 1, arguments: /)
  dir
  $ platter rerun --grant-recorded -q forged.json
  dir

The three word forms, as the sandbox reads them: a path given as key=value,
glued to a short option, a file, a path that does not exist yet, and a path
whose parent is missing (which grants nothing). A named directory covers
what is inside it. --dry-run shows the same and says what a real run needs.

  $ platter --trust forge.lua real.json forms.json \
  >   'args=["if=/etc/hostname", "-d/usr/share", "/usr/no-such-file", "/no/such/dir/x", "5"]'
  $ platter rerun -n forms.json | sed "s|'[^']*/platter'|PLATTER|"
  rerun: the recorded arguments grant the run these paths:
  rerun:   /etc/hostname (from if=/etc/hostname): a file, read-write  [not named again]
  rerun:   /usr/share (from -d/usr/share): a directory: its whole tree, read, and read-write for the files platter makes in it  [not named again]
  rerun:   /usr/no-such-file: does not exist yet: may be created, then read-write  [not named again]
  rerun: inside the current directory or $TMPDIR, granted anyway and need not be named again: 5
  rerun: a real run would stop here: forms.json: the recorded arguments would grant /etc/hostname, /usr/share, /usr/no-such-file, more than the current directory and $TMPDIR give unnamed; to agree, name each again after RESULT.json (platter rerun forms.json /etc/hostname /usr/share /usr/no-such-file) or give --grant-recorded
  PLATTER '--seed' '1' 'TMPDIR/peek.lua' 'if=/etc/hostname' '-d/usr/share' '/usr/no-such-file' '/no/such/dir/x' '5'
  $ platter rerun -q forms.json /usr /etc/hostname
  platter: .*/peek.lua:2: stat: /etc is outside the current directory, \$TMPDIR and the paths named on the command line \(run with --trust to lift the sandbox\) (re)
  [1]

It ran, granted only what the record names: /etc itself is not among them.

Paths are judged where they really lead, as the sandbox judges them: a
symlink in the current directory that points outside is not "inside".

  $ ln -s /usr ulink
  $ platter --trust forge.lua real.json link.json 'args=["ulink/share"]'
  $ platter rerun link.json
  rerun: the recorded arguments grant the run these paths:
  rerun:   /usr/share (from ulink/share): a directory: its whole tree, read, and read-write for the files platter makes in it  [not named again]
  platter: rerun: link.json: the recorded arguments would grant /usr/share, more than the current directory and $TMPDIR give unnamed; to agree, name it again after RESULT.json (platter rerun link.json /usr/share) or give --grant-recorded
  Try 'platter rerun --help'.
  [2]

A path named on the command line is exempt from the sandbox's rules
beneath the current directory and $TMPDIR: a script may then write a dot
file or a file platter did not make, or read another program's file in
$TMPDIR. So a recorded argument there that naming would free from those
rules is asked for like one outside. Before, a record run from your home
directory could name ~/.bashrc and have its script write it.

  $ cat > plant.lua <<'LUA'
  > local p = require "platter"
  > for _, path in ipairs { ... } do
  >   local f = assert(p.open(path, { write = true, create = true }))
  >   f:write(16)
  > end
  > LUA
  $ platter --json plant.json plant.lua planted.dat
  $ echo 'all:; @echo the users own' > Makefile && echo ticket > "$TMPDIR/krb5cc_1000"
  $ platter --trust forge.lua plant.json bashrc.json \
  >   "args=[\".bashrc\", \"Makefile\", \"planted.dat\", \"new.dat\", \"$TMPDIR/krb5cc_1000\"]"
  $ platter rerun bashrc.json > out 2>&1; echo "exit $?"; sed "s|$PWD|CWD|g; s|$TMPDIR|TMPDIR|g" out
  exit 2
  rerun: the recorded arguments grant the run these paths:
  rerun:   CWD/.bashrc (from .bashrc): does not exist yet: may be created, then read-write (a dot file or in a dot directory: held back unless named)  [not named again]
  rerun:   CWD/Makefile (from Makefile): a file, read-write (not made by platter: held back unless named)  [not named again]
  rerun:   TMPDIR/krb5cc_1000: a file, read-write (not made by platter: held back unless named)  [not named again]
  rerun: inside the current directory or $TMPDIR, granted anyway and need not be named again: planted.dat, new.dat
  platter: rerun: bashrc.json: the recorded arguments would grant CWD/.bashrc, CWD/Makefile, TMPDIR/krb5cc_1000, more than the current directory and $TMPDIR give unnamed; to agree, name each again after RESULT.json (platter rerun bashrc.json CWD/.bashrc CWD/Makefile TMPDIR/krb5cc_1000) or give --grant-recorded
  Try 'platter rerun --help'.
  $ test -e .bashrc || echo no .bashrc; cat Makefile
  no .bashrc
  all:; @echo the users own
  $ rm "$TMPDIR/krb5cc_1000"

planted.dat was made by platter (the recorded run named it, and a file
platter makes carries its mark), so it is granted as before.

A record without script.sha256, or whose text does not match it, is refused
before anything runs.

  $ platter --trust forge.lua real.json nosha.json 'script.sha256=null'
  $ platter rerun nosha.json /
  platter: rerun: nosha.json: the record has no script.sha256, so its script text cannot be checked: refused
  [1]
  $ platter --trust forge.lua real.json edited.json 'script.text="print(1)"'
  $ platter rerun --grant-recorded edited.json
  platter: rerun: edited.json: the script text does not match its script.sha256 (edited by hand?): refused
  [1]
  $ platter --trust forge.lua real.json badargs.json 'args=["a", 5]'
  $ platter rerun badargs.json
  platter: rerun: badargs.json: args[2] is not a string: refused
  [1]
  $ platter --trust forge.lua real.json badcl.json 'args=null' 'command_line=["platter", {}]'
  $ platter rerun badcl.json
  platter: rerun: badcl.json: command_line[2] is not a string: refused
  [1]
  $ platter --trust forge.lua real.json badseed.json 'seed={"x":1}'
  $ platter rerun badseed.json
  platter: rerun: badseed.json: seed is a table, not a string: refused
  [1]

Bad input.

  $ platter rerun nosuch.json
  platter: rerun: nosuch.json: No such file or directory
  Try 'platter rerun --help'.
  [2]
