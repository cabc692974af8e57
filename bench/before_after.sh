#!/bin/bash
# Interleaved before/after of the Lua-level paths: two builds of platter on one
# machine, alternating (the order flips each round), bench/bench.lua's run,
# loop and gen modes (4 KiB random reads of a cached FILE, SECS each), printing
# the median of the paired after/before IOPS ratios per path.
#   bench/before_after.sh OLD_PLATTER NEW_PLATTER FILE [ROUNDS [SECS]]
# (docs/performance.md, "Before and after, interleaved", used it with the builds
# of fc4ffea and 47f0883, one per Lua flavour, 5 rounds of 2 s.)
set -eu
old=$1 new=$2 file=$3 rounds=${4:-5} secs=${5:-2}
here=$(cd "$(dirname "$0")" && pwd)
out=$(mktemp)
trap 'rm -f "$out"' EXIT
cat "$file" >/dev/null  # into the page cache
for round in $(seq "$rounds"); do
    for mode in run loop gen; do
        order="new old"
        [ $((round % 2)) = 0 ] && order="old new"
        for w in $order; do
            b=$old
            [ "$w" = new ] && b=$new
            args="$file $secs"
            [ "$mode" = run ] && args="$file $secs 1 0"
            # shellcheck disable=SC2086
            v=$("$b" --quiet "$here/bench.lua" $mode $args 2>/dev/null | tr ' ' '\n' | sed -n 's/^iops=//p')
            echo "$mode $w $v" >>"$out"
        done
    done
done
python3 - "$out" <<'PY'
import collections, statistics, sys
d = collections.defaultdict(list)
for line in open(sys.argv[1]):
    mode, w, v = line.split()
    d[(mode, w)].append(float(v))
for mode in ("run", "loop", "gen"):
    o, n = d[(mode, "old")], d[(mode, "new")]
    r = [b / a for a, b in zip(o, n)]
    print("%-5s before %9.0f after %9.0f IOPS   paired after/before %.3f" %
          (mode, statistics.median(o), statistics.median(n), statistics.median(r)))
PY
