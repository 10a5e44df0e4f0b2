#!/bin/sh
# Lintian on what build-deb.sh built into OUT-DIR: the .changes names the
# source package (.dsc) and the binary ones, all checked. Any error or
# warning fails; debian/*lintian-overrides says, per tag, why one is not one.
# Usage: lintian.sh OUT-DIR
set -u
out=$(cd "$1" && pwd)
changes=$(ls "$out"/drvfilter_*_*.changes) || exit 1
# As root lintian says it would rather not be: a line on stderr, not a tag.
lintian --info --display-level '>=info' "$changes" >"$out/lintian.txt" 2>"$out/lintian.err"
status=$?
cat "$out/lintian.txt"
if [ "$status" -gt 1 ] && ! grep -q . "$out/lintian.txt"; then
	cat "$out/lintian.err"
	echo "FAIL: lintian did not run (status $status)"
	exit 1
fi
if grep -q '^[EW]: ' "$out/lintian.txt"; then
	echo "FAIL: lintian reports errors or warnings on $(basename "$changes")"
	exit 1
fi
echo "ok: lintian, no errors or warnings on $(basename "$changes")"
