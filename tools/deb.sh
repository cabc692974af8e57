#!/bin/sh
# Build the Debian package (debian/) and try it, on Debian 12:
#   tools/deb.sh [OUT_DIR]    OUT_DIR/platter_VERSION_ARCH.deb (default build-deb/)
# The tracked files (with their uncommitted changes, without build trees) are
# copied to a scratch directory, so the build sees what a tarball would: no
# .git, and --version says "build: package VERSION". There dpkg-buildpackage
# -us -uc -b builds the package and runs ctest; as root it runs as nobody, so
# the tests that need root skip as they would for any packager. lintian must
# report no error. Then the package is unpacked with dpkg -x into an empty
# directory and the unpacked binary runs --version, list and a --sim workload.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$top/build-deb}

need="debhelper lintian dpkg-dev"
missing=""
for p in $need; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
        missing="$missing $p"
done
if [ -n "$missing" ]; then
    echo "deb.sh: installing$missing" >&2
    sudo=""
    [ "$(id -u)" -ne 0 ] && sudo=sudo
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq $missing >/dev/null
fi
# the rest of Build-Depends (tools/dev.sh installs most of them)
unmet=$(cd "$top" && dpkg-checkbuilddeps 2>&1 | sed -n 's/.*Unmet build dependencies: //p' |
    sed -e 's/([^)]*)//g' -e 's/<[^>]*>//g' -e 's/debhelper-compat/debhelper/')
if [ -n "$unmet" ]; then
    echo "deb.sh: installing the build dependencies" $unmet >&2
    sudo=""
    [ "$(id -u)" -ne 0 ] && sudo=sudo
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq $unmet >/dev/null
fi
(cd "$top" && dpkg-checkbuilddeps)

version=$(cd "$top" && dpkg-parsechangelog -S Version)
upstream=${version%-*}
project=$(sed -n 's/^project(platter VERSION \([0-9.]*\).*/\1/p' "$top/CMakeLists.txt")
[ "$upstream" = "$project" ] || {
    echo "deb.sh: debian/changelog's $version is not CMakeLists.txt's version $project" >&2
    exit 1
}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/platter-deb.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
src="$tmp/platter-$upstream"
mkdir "$src"
(cd "$top" && git ls-files -z | tar --null -T - -cf -) | tar -xf - -C "$src"

failed() { # keep the log and cram's .err files in OUT_DIR
    mkdir -p "$out"
    cp "$tmp/build.log" "$src"/tests/cli/*.err "$out/" 2>/dev/null || true
    tail -60 "$tmp/build.log"
    echo "deb.sh: the build failed; its log and any .err files are in $out" >&2
}

echo "== deb: dpkg-buildpackage -us -uc -b (ctest included)" >&2
# build and test on every core (debhelper uses one unless told; a packager's
# own DEB_BUILD_OPTIONS wins)
export DEB_BUILD_OPTIONS="${DEB_BUILD_OPTIONS:-parallel=$(nproc)}"
if [ "$(id -u)" -eq 0 ]; then
    chown -R nobody:nogroup "$tmp"
    (cd "$src" && HOME="$tmp" setpriv --reuid=nobody --regid=nogroup --clear-groups \
        dpkg-buildpackage -us -uc -b) >"$tmp/build.log" 2>&1 ||
        { failed; exit 1; }
else
    (cd "$src" && dpkg-buildpackage -us -uc -b) >"$tmp/build.log" 2>&1 ||
        { failed; exit 1; }
fi
grep -E '^[0-9]+% tests passed|tests failed out of|Not Run|Skipped' "$tmp/build.log" | sed 's/^/deb: /' >&2
echo "deb: $(grep -cE '^[0-9]+: skip ' "$tmp/build.log") Lua-level tests skipped (root, tools)" >&2

echo "== deb: lintian" >&2
changes=$(ls "$tmp"/platter_"$version"_*.changes)
lintian --fail-on error "$changes" >&2

mkdir -p "$out"
deb=$(ls "$tmp"/platter_"$version"_*.deb)
cp "$deb" "$out/"
deb="$out/$(basename "$deb")"

echo "== deb: dpkg -x into an empty directory, run the unpacked binary" >&2
root="$tmp/root"
dpkg -x "$deb" "$root"
cd "$tmp"
bin="$root/usr/bin/platter"
PLATTER_LUA_DIR= "$bin" --version
"$bin" --version | grep -qx "build: package $version" ||
    { echo "deb.sh: --version does not name package $version" >&2; exit 1; }
PLATTER_LUA_DIR= "$bin" list
PLATTER_LUA_DIR= "$bin" --sim ata-5400-1999 hdparm -t /dev/hda
for f in usr/share/man/man1/platter.1.gz usr/share/man/man3/platter-lua.3.gz \
    usr/share/bash-completion/completions/platter usr/share/doc/platter/copyright; do
    [ -e "$root/$f" ] || { echo "deb.sh: the package lacks /$f" >&2; exit 1; }
done
echo "deb: $deb" >&2
