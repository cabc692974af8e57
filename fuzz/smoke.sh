#!/bin/sh
# Builds the libFuzzer targets (clang, ASan + UBSan, coverage) and runs each for
# SECONDS (default 20: fuzz_units, fuzz_args, fuzz_api, one minute in all),
# starting from the seed corpus in fuzz/corpus/. Fails on any crash, sanitizer
# report, leak or hang (an input over 10 s); the offending input is kept in
# BUILD/artifacts/ and its path printed. See docs/fuzzing.md.
#
#   fuzz/smoke.sh [SECONDS]      env: PLATTER_LUA=luajit|lua5.4 (luajit), FUZZ_BUILD=DIR
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
secs=${1:-20}
flavour=${PLATTER_LUA:-luajit}
build=${FUZZ_BUILD:-$top/build-fuzz-$flavour}

command -v clang >/dev/null || { echo "fuzz/smoke.sh: clang is not installed (apt-get install clang libclang-rt-14-dev)" >&2; exit 2; }
echo "== fuzz: build ($flavour, $build)" >&2
# warnings are not errors here: this build exists to find crashes, with another compiler
CC=clang cmake -S "$top" -B "$build" -DPLATTER_LUA="$flavour" -DPLATTER_FUZZ=ON \
    -DBUILD_TESTING=OFF -DPLATTER_WERROR=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$build" -j"$(nproc)" --target fuzz_units fuzz_args fuzz_api >/dev/null

work=$(mktemp -d)
# fuzz_api's scratch files, on tmpfs when there is one; removed here even after a crash
scratch=$(mktemp -d -p /dev/shm platter-fuzz.XXXXXX 2>/dev/null || mktemp -d)
export PLATTER_FUZZ_TMP="$scratch"
trap 'rm -rf "$work" "$scratch"' EXIT
mkdir -p "$build/artifacts"
status=0
for t in units args api; do
    mkdir "$work/$t"
    dict=""
    [ -f "$top/fuzz/$t.dict" ] && dict="-dict=$top/fuzz/$t.dict"
    extra=""
    [ "$t" = api ] && extra="-max_len=256 -len_control=0"
    echo "== fuzz: fuzz_$t for $secs s" >&2
    # new inputs go to the first (scratch) directory; the seeds are only read
    if (cd "$work" && "$build/fuzz_$t" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
            -print_final_stats=1 -artifact_prefix="$build/artifacts/fuzz_$t-" $dict $extra \
            "$work/$t" "$top/fuzz/corpus/$t") >"$work/$t.log" 2>&1; then
        runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/$t.log")
        cov=$(grep -o 'cov: [0-9]*' "$work/$t.log" | tail -1)
        echo "ok    fuzz_$t: ${runs:-?} inputs, $cov, no crash" >&2
    else
        echo "FAIL  fuzz_$t:" >&2
        grep -v -E '^#[0-9]+ +(NEW|REDUCE|pulse|RELOAD)' "$work/$t.log" | tail -60 >&2
        ls "$build/artifacts"/fuzz_"$t"-* 2>/dev/null | sed 's/^/input kept: /' >&2
        status=1
    fi
done
exit $status
