What a sandboxed script prints reaches the terminal as text, never as a
control sequence: otherwise a shared script could set the clipboard (OSC 52:
a command waiting to be pasted), change the title, move the cursor over
output it printed before, or send queries whose answers arrive as typed
input. On a terminal, control characters other than tab, newline and
carriage return are shown as cat -v shows them; a pipe or a file gets every
byte as it is. (script(1) gives the command a pseudo-terminal.)

  $ show() { python3 -c 'import sys; print(ascii(sys.stdin.buffer.read()))'; }
  $ cat > esc.lua <<'LUA'
  > print("clip\27]52;c;ZWNobyBwd25lZA==\7 cursor\27[2J del\127 c1\194\155 utf8 \195\169 tab\tend")
  > LUA
  $ script -qec "platter esc.lua" /dev/null < /dev/null | show
  b'clip^[]52;c;ZWNobyBwd25lZA==^G cursor^[[2J del^? c1M-^[ utf8 \xc3\xa9 tab\tend\r\n'

Through a pipe, the same bytes as the script wrote (a record or a table
redirected to a file stays byte for byte):

  $ platter esc.lua | show
  b'clip\x1b]52;c;ZWNobyBwd25lZA==\x07 cursor\x1b[2J del\x7f c1\xc2\x9b utf8 \xc3\xa9 tab\tend\n'

An error message quotes what the script gave, shown the same way; p.printf
and p.ewrite (stderr) too.

  $ script -qec "platter -e 'error(\"bad \27]0;title\7\")'" /dev/null < /dev/null | tr -d '\r'
  platter: (command line):1: bad ^[]0;title^G
  $ script -qec "platter -e 'platter.ewrite(\"e\27[31m\n\"); platter.printf(\"p\27[0m\n\")'" /dev/null < /dev/null | tr -d '\r' | sort
  e^[[31m
  p^[[0m

A carriage return passes (dd's status=progress and fio's ETA line draw
with it).

  $ script -qec "platter -e 'platter.write(\"a\rb\n\")'" /dev/null < /dev/null | show
  b'a\rb\r\n'

--trust lifts the guard with the rest of the sandbox.

  $ script -qec "platter --trust -e 'print(\"t\27]0;x\7\")'" /dev/null < /dev/null | show
  b't\x1b]0;x\x07\r\n'

A record may come from anyone: `platter compare` shows a phase name holding
a control sequence the same way.

  $ platter --json r.json -e 'local p = require "platter"; local f = assert(p.open("d.bin", { write = true, create = true, size = 65536 })); p.phase("ph\27]0;T\7", function() f:pread(0, 4096) end)' > /dev/null 2>&1
  $ script -qec "platter compare r.json r.json" /dev/null < /dev/null | grep -a '^ph^' | cut -c1-10
  ph^[]0;T^G

The progress line (drawn on a terminal only) shows a phase's name with each
control character as '?': it would command the terminal, and break the
line's width.

  $ cat > prog.lua <<'LUA'
  > local p = require "platter"
  > local f = assert(p.open(p.scratch("prog.dat"), { create = true, write = true, size = "1m" }))
  > p.phase("ph\27]52;c;eA==\7\194\155x", function()
  >   local t = p.now() + 0.3e9
  >   while p.now() < t do f:pread(0, 4096) end
  > end)
  > LUA
  $ PLATTER_PROGRESS_MS=1 script -qec "platter prog.lua" /dev/null < /dev/null | tr '\r' '\n' | grep -a '^ph' | sed 's/:.*//' | uniq | show
  b'ph?]52;c;eA==???x\n'

A result file sent to the terminal (--csv /dev/stdout) carries the phase
names as the script gave them, so it is shown the same way; sent to a pipe
or a file it stays byte for byte, and --trust lifts the guard. JSON escapes
C0 controls itself (\u001b), so only a C1 control shows there.

  $ cat > rec.lua <<'LUA'
  > platter.phase("ph\27]0;T\7\194\155x", function() end)
  > LUA
  $ script -qec "platter --csv /dev/stdout rec.lua" /dev/null < /dev/null | grep -ao '"ph[^"]*x"'
  "ph^[]0;T^GM-^[x"
  $ script -qec "platter --json /dev/stdout rec.lua" /dev/null < /dev/null | grep -ao '"ph[^"]*x"' | head -1
  "ph\u001b]0;T\u0007M-^[x"
  $ platter --csv /dev/stdout rec.lua | grep -ao '"ph[^"]*x"' | show
  b'"ph\x1b]0;T\x07\xc2\x9bx"\n'
  $ script -qec "platter --trust --csv /dev/stdout rec.lua" /dev/null < /dev/null | grep -ao '"ph[^"]*x"' | show
  b'"ph\x1b]0;T\x07\xc2\x9bx"\n'
