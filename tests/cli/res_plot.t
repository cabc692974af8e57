platter plot draws result files with gnuplot. Without gnuplot on PATH it
says which Debian package to install.

  $ cp "$TESTDIR"/fixtures/res_a.json "$TESTDIR"/fixtures/res_b.json .
  $ bin=$(command -v platter)
  $ PATH=/nonexistent "$bin" plot res_a.json -o x.png
  platter: plot: gnuplot not found: install the Debian package gnuplot-nox (apt-get install gnuplot-nox), or put gnuplot on PATH
  [1]
  $ ls
  res_a.json
  res_b.json

The rest needs gnuplot.

  $ command -v gnuplot >/dev/null || exit 80

The fixtures are sweep phases ("Random 4096 raw"), so the kind is chosen
from the names: req/s and MB/s against block size, one line per test and
mode (and file).

  $ platter plot res_a.json res_b.json -o sweep.png
  plot: wrote sweep.png (sweep, 8 lines)
  $ head -c 8 sweep.png | od -c | head -1
  0000000 211   P   N   G  \r  \n 032  \n
  $ test $(stat -c %s sweep.png) -gt 10000 && echo big enough
  big enough

Latency percentiles on a "nines" axis, as SVG, several files overlaid.

  $ platter plot --kind latency --phase Random res_a.json res_b.json -o lat.svg
  plot: wrote lat.svg (latency, 2 lines)
  $ grep -c '<svg' lat.svg
  1
  $ grep -o '>99.9<' lat.svg | head -1
  >99.9<

A result file may come from anyone, and its names become gnuplot strings:
one holding a line break would end the string there, and gnuplot would run
the next line as a command (system() runs a shell). Control characters
become spaces, so the name stays one string and nothing runs.

  $ python3 - <<'PY'
  > import json
  > d = json.load(open("res_a.json"))
  > for ph in d["phases"]:
  >     ph["name"] = ph["name"] + '\nsystem("touch pwned")\nprint "'
  > json.dump(d, open("evil.json", "w"))
  > PY
  $ platter plot --kind latency --phase Random evil.json -o evil.svg
  plot: wrote evil.svg (latency, 1 lines)
  $ ls pwned 2>/dev/null; grep -c 'system(&quot;touch pwned&quot;)\|system("touch pwned")' evil.svg
  1
  $ rm evil.json evil.svg

A zones curve takes "... at OFFSET" or "...: OFFSET" names.

  $ platter --json z.json -e '
  > local p = require "platter"
  > for i, off in ipairs({ "0", "1g", "2g" }) do
  >   p.phase("zone " .. i .. " at " .. off, function() end)
  > end'
  $ platter plot z.json -o zones.svg
  plot: wrote zones.svg (zones, 1 lines)
  $ grep -c 'offset (GB)' zones.svg
  1

Two devices of different sizes overlay with --x fraction: x is the offset
as a fraction of the device the phase read (the record's file size; the
largest offset in a record without one, as z.json).

  $ platter --json z8.json zones -s 8m -b 1m -n 3 >/dev/null 2>&1
  $ platter --json z16.json zones -s 16m -b 1m -n 3 >/dev/null 2>&1
  $ platter plot --x fraction z8.json z16.json z.json -o frac.svg
  plot: wrote frac.svg (zones, 3 lines)
  $ grep -c 'fraction of the device' frac.svg
  1
  $ platter plot --x size z8.json -o frac.svg
  platter: plot: bad value 'size' for --x: expected one of offset, fraction
  Try 'platter plot --help'.
  [2]
  $ rm z8.json z16.json frac.svg

Errors.

  $ platter plot res_a.json
  platter: plot: option '-o' is required (OUT.png or OUT.svg)
  Try 'platter plot --help'.
  [2]
  $ platter plot res_a.json -o out.gif
  platter: plot: cannot tell the image type of 'out.gif': name it .png or .svg
  Try 'platter plot --help'.
  [2]
  $ platter plot --kind zones res_a.json -o z.png
  platter: plot: no phases named like "zone 3 at 1234567890" or "NAME: OFFSET" to plot
  [1]
  $ ls
  lat.svg
  res_a.json
  res_b.json
  sweep.png
  z.json
  zones.svg
