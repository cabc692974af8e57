#!/bin/sh
# Instructions per step of the W1' paths, counted by callgrind (docs/performance.md):
# the difference between 2*N and N steps of 1-byte cached reads, so start-up cancels.
# Unlike time on a shared machine, the count hardly depends on other work; it still
# moves by up to +-40 per Lua 5.4 step, whose string hashes are seeded per process.
#
#   bench/callgrind.sh PLATTER [N]      e.g. bench/callgrind.sh build-lua5.4/platter
#
# Prints one line per path: loop (f:pread in a Lua loop), gen (p.run{gen=...}),
# run (p.run with a pattern). With CALLGRIND_OUT=DIR the profiles of the 2*N
# runs are kept there, for `callgrind_annotate --inclusive=yes DIR/MODE.out`.
set -eu
bin=$1
[ -z "${CALLGRIND_OUT:-}" ] || mkdir -p "$CALLGRIND_OUT"
n=${2:-100000}
here=$(cd "$(dirname "$0")" && pwd)
command -v valgrind >/dev/null || { echo "bench/callgrind.sh: valgrind is not installed" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT INT TERM
head -c 1048576 /dev/urandom > "$work/data.bin"
count() {
  valgrind --tool=callgrind --callgrind-out-file="${CALLGRIND_OUT:-$work}/$1.out" "$bin" --trust \
    "$here/bench.lua" steps "$work/data.bin" "$1" "$2" 2>&1 | sed -n 's/.*refs: *//p' | tr -d ,
}
for mode in loop gen run; do
  a=$(count "$mode" "$n")
  b=$(count "$mode" $((2 * n)))
  echo "$mode $(( (b - a) / n )) instructions per step"
done
