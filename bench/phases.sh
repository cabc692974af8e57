#!/bin/sh
# What recording a phase costs with --json: 5000 phases, each one cached 4 KiB
# pread, top level ("flat") and inside one outer phase ("nested"), for each
# binary given, in interleaved rounds; prints the median microseconds per phase
# of the whole loop, and for "nested" the outer phase's own seconds as the
# record has them (the keeper's copy of a phase is sent once no phase is timing,
# so it must not show there). docs/performance.md.
#
#   bench/phases.sh ROUNDS PLATTER...    e.g. bench/phases.sh 7 old/platter build-luajit/platter
set -eu
rounds=$1
shift
bins=
for b in "$@"; do bins="$bins $(cd "$(dirname "$b")" && pwd)/$(basename "$b")"; done
set -- $bins
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT INT TERM
cat > "$work/flat.lua" <<'LUA'
local p = require "platter"
local f = assert(p.open(p.scratch("phases.dat"), { create = true, write = true, size = "64k" }))
local t0 = p.now()
for _ = 1, 5000 do p.phase("x", function() f:pread(0, 4096) end) end
p.write(string.format("%.1f\n", (p.now() - t0) / 5000 / 1e3))
LUA
cat > "$work/nested.lua" <<'LUA'
local p = require "platter"
local f = assert(p.open(p.scratch("phases.dat"), { create = true, write = true, size = "64k" }))
local t0 = p.now()
p.phase("outer", function()
  for _ = 1, 5000 do p.phase("x", function() f:pread(0, 4096) end) end
end)
p.write(string.format("%.1f\n", (p.now() - t0) / 5000 / 1e3))
LUA
outer() { python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print("%.4f" % [r for r in d["phases"] if r["name"]=="outer"][0]["seconds"])' "$1"; }
i=0
for bin in "$@"; do
  i=$((i + 1))
  : > "$work/flat.$i"; : > "$work/nested.$i"; : > "$work/outer.$i"
done
r=0
while [ $r -lt "$rounds" ]; do
  r=$((r + 1))
  i=0
  for bin in "$@"; do
    i=$((i + 1))
    (cd "$work" && "$bin" --json f.json flat.lua 2>/dev/null) >> "$work/flat.$i"
    (cd "$work" && "$bin" --json n.json nested.lua 2>/dev/null) >> "$work/nested.$i"
    outer "$work/n.json" >> "$work/outer.$i"
  done
done
med() { sort -n "$1" | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
i=0
for bin in "$@"; do
  i=$((i + 1))
  echo "$bin: flat $(med "$work/flat.$i") us a phase, nested $(med "$work/nested.$i") us a phase, outer $(med "$work/outer.$i") s"
done
