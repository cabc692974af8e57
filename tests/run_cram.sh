#!/bin/sh
# Runs one cram file against a built platter: puts the binary first on PATH
# and points PLATTER_LUA_DIR at the source tree. Usage: run_cram.sh CRAM BIN T
set -e
cram=$1 bin=$2 t=$3
here=$(cd "$(dirname "$0")" && pwd)
bindir=$(mktemp -d)
trap 'rm -rf "$bindir"' EXIT
ln -s "$bin" "$bindir/platter"
PATH="$bindir:$PATH" PLATTER_LUA_DIR="$(dirname "$here")" TESTDIR_SRC="$here" \
  "$cram" --shell=/bin/bash -q "$t"
