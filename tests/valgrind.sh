#!/bin/sh
# Valgrind memcheck over the Lua-level tests (tests/lua/test_*.lua), on a Lua 5.4
# build of platter. A test file passes when its tests pass and memcheck reports
# no error: invalid reads or writes, uses of uninitialised values, bad frees,
# definite leaks.
#
#   tests/valgrind.sh BUILD_DIR [NAME...]   e.g. tests/valgrind.sh build-lua5.4 test_run
#
# By default memcheck watches the process that runs the tests, which is where
# the Lua API is exercised (p.open, p.run, files, stats, phases, results, the
# sandbox's path checks...). VALGRIND_CHILDREN=1 also puts every platter that
# a test starts under memcheck (command line, signals, sandboxed scripts,
# selftest children): about three times as long, since each of some 150
# processes pays valgrind's start-up. VALGRIND_ORIGINS=1 adds
# --track-origins=yes (slower; says where an uninitialised value came from).
#
# Why Lua 5.4 and not LuaJIT: Debian's LuaJIT is built without
# LUAJIT_USE_VALGRIND, so its allocator and its string hashing (word reads past
# the end of strings) make memcheck report errors inside LuaJIT; silencing
# them takes suppressions broad enough to hide ours. PUC Lua is plain C on
# malloc, so memcheck sees every byte with no suppression file at all. The C
# code under test (src/core, src/bind) is the same in both flavours except the
# FFI entry points, which the LuaJIT sanitizer build (ASan + UBSan, with the
# Lua heap on malloc) and the fuzz_api target cover instead.
#
# Some assertions cannot hold under valgrind; they are listed in KNOWN below.
# Their failure is tolerated (memcheck must still be clean); any other is not.
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
build=${1:?usage: tests/valgrind.sh BUILD_DIR [NAME...]}
build=$(cd "$build" && pwd)
shift
bin=$build/platter
command -v valgrind >/dev/null || { echo "valgrind.sh: valgrind is not installed" >&2; exit 2; }
[ -x "$bin" ] || { echo "valgrind.sh: no $bin" >&2; exit 2; }
case "$("$bin" --version)" in
*"Lua 5.4"*) ;;
*) echo "valgrind.sh: $bin is not a Lua 5.4 build (see the comment at the top)" >&2; exit 2 ;;
esac

if [ $# -eq 0 ]; then
    for t in "$here"/lua/test_*.lua; do
        name=$(basename "$t" .lua)
        # these only start other programs (platter, fio, mpirun) and time them against the
        # kernel's throttle or check what the ranks did: nothing for memcheck to see unless
        # the children are watched
        case "$name" in test_truth|test_fio|test_mpi_run|test_mpi_collective)
            [ "${VALGRIND_CHILDREN:-0}" = 1 ] || continue ;;
        esac
        set -- "$@" "$name"
    done
fi

# "file|test|why": assertions that valgrind itself makes false
KNOWN='test_run|run: the same seed gives the same offsets (page-cache signature)|valgrind reads the first page of every file a program maps (looking for debug info), so that page is cached
test_file|drop_cache empties the page cache of the file; resident counts pages|the same
test_file|EACCES: a file without permission|(children) platter runs as another user, who cannot reach the memcheck wrapper
test_truth|selftest: refuses clearly without root, and on bad options|the same
test_errors|SIGINT during a pread loop: exit 130, '"'"'interrupted'"'"', scratch removed|(children) too slow under memcheck for the timing the test expects
test_errors|SIGINT during p.sleep: exit 130 at once|the same
test_errors|SIGINT during a pure Lua loop|the same
test_parallel|parallel: tick runs in the caller while workers run, and reads their live counts|ticks every 100 ms of real time: under memcheck the wait loop of the caller ran one tick in the 0.6 s (a CI run on 53413ba; two before it passed)'

logs=$(mktemp -d)
[ -d "$logs" ] || exit 2
trap 'rm -rf "$logs"' EXIT
origins=""
[ "${VALGRIND_ORIGINS:-0}" = 1 ] && origins="--track-origins=yes"
# a wrapper that runs the binary under memcheck, one log per process
mkdir "$logs/bin"
{
    echo '#!/bin/sh'
    echo "exec valgrind --tool=memcheck --error-exitcode=99 --leak-check=full \\"
    echo "  --show-leak-kinds=definite --errors-for-leak-kinds=definite --num-callers=30 \\"
    echo "  $origins --child-silent-after-fork=yes --log-file='$logs/vg.%p.log' '$bin' \"\$@\""
} > "$logs/bin/platter"
chmod +x "$logs/bin/platter"
children=$bin
[ "${VALGRIND_CHILDREN:-0}" = 1 ] && children=$logs/bin/platter

status=0
total=0
failed=""
for name in "$@"; do
    src=$here/lua/$name.lua
    [ -f "$src" ] || { echo "valgrind.sh: no $src" >&2; status=1; continue; }
    rm -f "$logs"/vg.*.log
    start=$(date +%s)
    out=$(cd "$build" && PLATTER_LUA_DIR=$top PLATTER_TEST_SRC=$here PLATTER_BIN=$children \
        "$logs/bin/platter" --trust "$here/lua/run.lua" "$src" 2>&1)
    rc=$?
    took=$(( $(date +%s) - start ))
    total=$((total + took))
    bad=$(grep -l "ERROR SUMMARY: [1-9]" "$logs"/vg.*.log 2>/dev/null)
    summary=$(printf '%s\n' "$out" | grep -E '^[0-9]+ passed' | tail -1)
    # failed assertions that are not on the KNOWN list
    unknown=$(printf '%s\n' "$out" | sed -n 's/^FAIL  //p' | while IFS= read -r t; do
        printf '%s\n' "$KNOWN" | grep -qF "$name|$t|" || printf '%s\n' "$t"; done)
    known=$(printf '%s\n' "$out" | grep -c '^FAIL  ')
    if [ -n "$bad" ] || [ -n "$unknown" ] || [ -z "$summary" ] ||
        { [ "$rc" -ne 0 ] && [ "$rc" -ne 77 ] && [ "$known" -eq 0 ]; }; then
        echo "FAIL  $name (${took} s): ${summary:-no summary}, status $rc"
        printf '%s\n' "$out" | grep -A8 '^FAIL' | head -60
        for f in $bad; do echo "--- $f"; grep -v "^==[0-9]*== *$" "$f" | head -80; done
        failed="$failed $name"
        status=1
    else
        note=""
        [ "$known" -gt 0 ] && note=" ($known known to fail under valgrind)"
        echo "ok    $name (${took} s): $summary$note, memcheck clean" \
            "($(ls "$logs"/vg.*.log | wc -l) processes)"
    fi
done
if [ -n "$failed" ]; then
    echo "valgrind: $# test files in ${total} s; failed:$failed"
else
    echo "valgrind: $# test files in ${total} s; memcheck clean"
fi
exit $status
