platter compare puts result files side by side. The fixtures are two
hand-made records of the same sweep on two kernels with different
readahead (3 and 4 repetitions) and a third, single run on another disk
with another platter. Everything that differs besides the results comes
first; then each phase's figures, as mean ± the 95% half-width where a file
has repetitions, with the ratio to the first file and Welch's t-test.

  $ cp "$TESTDIR"/fixtures/res_a.json "$TESTDIR"/fixtures/res_b.json "$TESTDIR"/fixtures/res_c.json .
  $ platter compare res_a.json res_b.json
  A: res_a.json  (sweep, 2026-01-02T03:04:05Z, 3 repetitions)
  B: res_b.json  (sweep, 2026-01-02T03:04:05Z, 4 repetitions)
  
  Differences besides the results:
    kernel                                 A 6.1.0-18-amd64   B 6.1.0-21-amd64
    file /dev/sdb (direct) read_ahead_kb   A 128              B 4096
  
  phase / figure               A                B    B/A  Welch 95%
  Random 4096 raw
    IOPS              151 ± 3.36       162 ± 2.41  1.071  significant (p<0.001)
    MB/s          0.618 ± 0.0138  0.662 ± 0.00988  1.071  significant (p<0.001)
    p50 µs            181 ± 2.48       182 ± 2.05  1.003  n.s. (p=0.589)
    p99 µs            905 ± 12.4       908 ± 10.3  1.003  n.s. (p=0.589)
    CPU %           3.10 ± 0.248     3.15 ± 0.205  1.016  n.s. (p=0.589)
  Linear 65536 raw
    IOPS             1892 ± 27.6      1889 ± 14.6  0.998  n.s. (p=0.727)
    MB/s              124 ± 1.81      124 ± 0.954  0.998  n.s. (p=0.727)
    p50 µs            402 ± 4.97       403 ± 4.11  1.002  n.s. (p=0.589)
    p99 µs               700 ± 0          700 ± 0  1.000  n.s. (p=1.000)
    CPU %               5.00 ± 0         5.00 ± 0  1.000  n.s. (p=1.000)
  fsync (run)
    IOPS              251 ± 2.48                -      -
    MB/s                   0 ± 0                -      -
    p50 µs              3900 ± 0                -      -
    p99 µs              8000 ± 0                -      -
    CPU %               1.00 ± 0                -      -
  
  Values are means ± the half-width of the 95% confidence interval where a file has repetitions.
  Welch 95%: "significant" when Welch's t-test finds the means different at the 5% level,
  "n.s." when it does not (both files need 2 or more repetitions).

Three files: every column is compared with the first. The single run has
no interval and no test; the disk model and platter's version differ too.

  $ platter compare --phase Random res_a.json res_b.json res_c.json
  A: res_a.json  (sweep, 2026-01-02T03:04:05Z, 3 repetitions)
  B: res_b.json  (sweep, 2026-01-02T03:04:05Z, 4 repetitions)
  C: res_c.json  (sweep, 2026-01-02T03:04:05Z)
  
  Differences besides the results:
    platter version                        A 0.1.0              B 0.1.0              C 0.2.0
    kernel                                 A 6.1.0-18-amd64     B 6.1.0-21-amd64     C 6.1.0-18-amd64
    file /dev/sdb (direct) model           A ST1000DM003-1CH1   B ST1000DM003-1CH1   C WDC WD10EZEX-08WN4A0
    file /dev/sdb (direct) read_ahead_kb   A 128                B 4096               C 128
  
  phase / figure               A                B    B/A  Welch 95%                  C    C/A  Welch 95%
  Random 4096 raw
    IOPS              151 ± 3.36       162 ± 2.41  1.071  significant (p<0.001)   98.0  0.649
    MB/s          0.618 ± 0.0138  0.662 ± 0.00988  1.071  significant (p<0.001)  0.401  0.649
    p50 µs            181 ± 2.48       182 ± 2.05  1.003  n.s. (p=0.589)           180  0.994
    p99 µs            905 ± 12.4       908 ± 10.3  1.003  n.s. (p=0.589)           900  0.994
    CPU %           3.10 ± 0.248     3.15 ± 0.205  1.016  n.s. (p=0.589)          3.00  0.968
  
  Values are means ± the half-width of the 95% confidence interval where a file has repetitions.
  Welch 95%: "significant" when Welch's t-test finds the means different at the 5% level,
  "n.s." when it does not (both files need 2 or more repetitions).

A file compared with itself differs in nothing.

  $ platter compare res_a.json res_a.json | sed -n 3,4p
  
  No differences in platter, script, options, machine or files.

Bad input is a usage error naming the file.

  $ platter compare res_a.json
  platter: compare: missing B.json
  Try 'platter compare --help'.
  [2]
  $ platter compare res_a.json nosuch.json
  platter: compare: nosuch.json: No such file or directory
  Try 'platter compare --help'.
  [2]
  $ echo '{' > bad.json; platter compare res_a.json bad.json
  platter: compare: bad.json is not valid JSON: Expected object key string but found T_END at character 3
  Try 'platter compare --help'.
  [2]
  $ echo '{"x": 1}' > other.json; platter compare res_a.json other.json
  platter: compare: other.json is not a platter result file (no schema_version)
  Try 'platter compare --help'.
  [2]
  $ echo '{"schema_version": 99}' > future.json; platter compare res_a.json future.json
  platter: compare: future.json has schema_version 99; this platter reads up to 3
  Try 'platter compare --help'.
  [2]

A record whose fields have the wrong types (edited by hand, or made by
another program) is refused by name, as plot and rerun refuse it, never
with an error from inside platter:

  $ echo '{"schema_version": 3, "phases": "x"}' > typed.json; platter compare res_a.json typed.json
  platter: compare: typed.json is not a well-formed platter result file: phases must be a list, not string
  Try 'platter compare --help'.
  [2]
  $ echo '{"schema_version": 3, "summary": [{"name": "a", "hist": [[1, 2]]}]}' > typed.json
  $ platter plot typed.json -o t.svg
  platter: plot: typed.json is not a well-formed platter result file: summary[1].hist[1] must be [lo, hi, count]
  Try 'platter plot --help'.
  [2]
  $ echo '{"schema_version": 3, "files": [{"size": "big"}]}' > typed.json; platter rerun typed.json
  platter: rerun: typed.json is not a well-formed platter result file: files[1].size must be a number, not string
  Try 'platter rerun --help'.
  [2]
  $ echo '{"schema_version": 3, "repetitions": {"done": true}}' > typed.json; platter compare typed.json typed.json
  platter: compare: typed.json is not a well-formed platter result file: repetitions.done must be a number, not boolean
  Try 'platter compare --help'.
  [2]
  $ rm typed.json

Real runs (each writes a file it just made, so the cache warning, which is
not looked at here, goes to /dev/null). Files are matched by what the run
used them as (a file or a device, buffered or direct) and by path, not
by the order in which each run opened them: the same two files opened the
other way round are no difference.

  $ cat > two.lua <<'LUA'
  > local p = require "platter"
  > local names = { "a.dat", "b.dat" }
  > if p.stat("flip") then names = { "b.dat", "a.dat" } end
  > for _, n in ipairs(names) do
  >   local f = assert(p.open(n, { create = true, write = true, size = n == "a.dat" and "4k" or "8k" }))
  >   p.phase("write " .. n, function() f:pwrite(0, 4096) end)
  >   f:close()
  > end
  > LUA
  $ platter --json one.json two.lua 2>/dev/null
  $ touch flip; platter --json other.json two.lua 2>/dev/null; rm flip
  $ platter --trust -e '
  > local cjson = require "cjson"
  > for _, n in ipairs({ "one.json", "other.json" }) do
  >   local doc = cjson.decode(assert(io.open(n)):read("*a"))
  >   print(n, doc.files[1].path, doc.files[2].path)
  > end'
  one.json	a.dat	b.dat (esc)
  other.json	b.dat	a.dat (esc)
  $ platter compare one.json other.json | sed -n 4p
  No differences in platter, script, options, machine or files.

Scratch names that hold the pid (Bonnie.<pid>, platter-sweep.<pid>.dat) are
compared with the pid taken out; a file whose path really differs is
shown under its role.

  $ platter --json b1.json bonnie -s 1 >/dev/null 2>&1
  $ platter --json b2.json bonnie -s 1 >/dev/null 2>&1
  $ platter --trust -e '
  > local cjson = require "cjson"
  > local a = cjson.decode(assert(io.open("b1.json")):read("*a"))
  > local b = cjson.decode(assert(io.open("b2.json")):read("*a"))
  > print(a.files[1].path ~= b.files[1].path, a.pid ~= b.pid)'
  true	true (esc)
  $ platter compare b1.json b2.json | sed -n 4p
  No differences in platter, script, options, machine or files.
  $ mkdir sub; platter --json b3.json bonnie -s 1 -d sub >/dev/null 2>&1
  $ platter compare b1.json b3.json | grep -E "^  (file|script)"
    script arguments           A -s 1             B -s 1 -d /.*/sub (re)
    file ./Bonnie.<pid> path   A ./Bonnie.<pid>   B sub/Bonnie.<pid>
  $ rmdir sub

Zones on devices of different sizes: the phases are named by offset
("zone 1 at 3145728"), which differ, so they are aligned by zone index
and titled with the fraction of the device each point starts at.

  $ platter --json z1.json zones -s 8m -b 1m -n 3 >/dev/null 2>&1
  $ platter --json z2.json zones -s 16m -b 1m -n 3 >/dev/null 2>&1
  $ platter compare z1.json z2.json | grep -E "^(zone|  file|  script)"
    script arguments                             A -s 8m -b 1m -n 3   B -s 16m -b 1m -n 3
    file platter-zones.<pid>.dat (direct) size   A 8388608 (8 MiB)    B 16777216 (16 MiB)
  zone 0 at 0.0% of the device (run)
  zone 1 at A 37.5%, B 43.8% of the device (run)
  zone 2 at A 87.5%, B 93.8% of the device (run)

Records of schema_version 1 (no pid) are read too: digits between dots
count as a pid.

  $ platter --trust -e '
  > local cjson = require "cjson"
  > for _, n in ipairs({ "b1.json", "b2.json" }) do
  >   local doc = cjson.decode(assert(io.open(n)):read("*a"))
  >   doc.schema_version, doc.pid, doc.args_abs, doc.cwd = 1, nil, nil, nil
  >   doc.platter.build = nil
  >   local f = assert(io.open("old-" .. n, "w")); f:write(cjson.encode(doc)); f:close()
  > end'
  $ platter compare old-b1.json old-b2.json | sed -n 4p
  No differences in platter, script, options, machine or files.

The clock overhead is measured at start-up, so a loaded machine moves it:
within 3x, or both under 60 ns, it is the same clock; beyond, a
difference.

  $ platter --trust -e '
  > local cjson = require "cjson"
  > local doc = cjson.decode(assert(io.open(arg[1])):read("*a"))
  > for _, v in ipairs({ 20, 45, 300 }) do
  >   doc.environment.clock.overhead_ns = v
  >   local f = assert(io.open("clk" .. v .. ".json", "w")); f:write(cjson.encode(doc)); f:close()
  > end' res_a.json
  $ platter compare clk20.json clk45.json | grep -c 'clock overhead'
  0
  [1]
  $ platter compare clk45.json clk300.json | grep 'clock overhead' | sed 's/  */ /g'
   clock overhead A 45.0 ns B 300.0 ns
  $ rm clk*.json
