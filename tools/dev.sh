#!/bin/sh
# Set up, build and run platter on a fresh Debian 12 machine (as root, or with sudo).
#   tools/dev.sh run [WORKLOAD ARGS...]  install what is missing, build, run (default: sweep)
#   tools/dev.sh test                    install, build both Lua flavours, run every test (the
#                                        comparisons with the real tools, label "real", in LuaJIT)
#   tools/dev.sh build                   install and build only
# PLATTER_LUA=luajit|lua5.4 picks one flavour (default: luajit for run, both for test).
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
cmd=${1:-run}
[ $# -gt 0 ] && shift

PACKAGES="cmake make gcc pkg-config libluajit-5.1-dev liblua5.4-dev liburing-dev libaio-dev libisal-dev
libcmocka-dev python3-cram util-linux e2fsprogs fio lua-cjson-dev libssl-dev
gnuplot-nox libseccomp-dev python3-pyte ioping clang-format lua-check locales bonnie++ strace hdparm fio-examples
openmpi-bin libopenmpi-dev"

install_deps() {
    missing=""
    for p in $PACKAGES; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
            missing="$missing $p"
    done
    [ -z "$missing" ] && return 0
    echo "dev.sh: installing$missing" >&2
    sudo=""
    [ "$(id -u)" -ne 0 ] && sudo=sudo
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq $missing >/dev/null
}

build() {   # build FLAVOUR -> $top/build-FLAVOUR
    dir="$top/build-$1"
    cmake -S "$top" -B "$dir" -DPLATTER_LUA="$1" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
    cmake --build "$dir" -j"$(nproc)" >/dev/null
}

install_deps
case "$cmd" in
run)
    flavour=${PLATTER_LUA:-luajit}
    build "$flavour"
    [ $# -eq 0 ] && set -- sweep
    exec "$top/build-$flavour/platter" "$@"
    ;;
build)
    for f in ${PLATTER_LUA:-luajit lua5.4}; do build "$f"; done
    ;;
test)
    status=0
    for f in ${PLATTER_LUA:-luajit lua5.4}; do
        echo "== $f: build" >&2
        build "$f"
        echo "== $f: test" >&2
        # the comparisons with the real tools (ctest label "real") run in the LuaJIT build:
        # their subject is the same in both flavours (tests/CMakeLists.txt)
        skip=""
        [ "$f" = lua5.4 ] && skip="-LE real"
        (cd "$top/build-$f" && ctest --output-on-failure -j2 $skip) || status=1
    done
    exit $status
    ;;
*)
    echo "usage: tools/dev.sh run|test|build [args...]" >&2
    exit 2
    ;;
esac
