#!/bin/sh
# A program's --help and its man page name the same long options (and, for
# drvfilterctl, the same verbs), and --help points to the man page.
# Usage: man-options.sh PROGRAM MAN-PAGE [VERB...]
set -u
prog=$1
page=$2
shift 2
name=$(basename "$page" | sed 's/\.\([0-9]\)$/(\1)/')
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0
"$prog" --help >"$tmp/help" || { echo "FAIL: $prog --help failed" && exit 1; }
cp "$tmp/help" "$tmp/all-help"
# Each verb has its own help: the options of all of them.
for verb in "$@"; do
	"$prog" "$verb" --help >>"$tmp/all-help" || { echo "FAIL: $prog $verb --help failed" && fail=1; }
done
grep -o -e '--[a-z][a-z-]*' "$tmp/all-help" | sort -u >"$tmp/help-opts"
# The man page's OPTIONS section, from its source (rendering would hyphenate).
sed -n '/^\.SH OPTIONS/,/^\.SH [^O]/p' "$page" | grep -o -E '\\-\\-[a-z]([a-z]|\\-)*' |
	sed 's/\\-/-/g' | sort -u >"$tmp/man-opts"
if ! diff -u --label "$prog --help" --label "$page OPTIONS" "$tmp/help-opts" "$tmp/man-opts"; then
	echo "FAIL: the options differ"
	fail=1
fi
grep -q "$name" "$tmp/help" || { echo "FAIL: --help does not name $name" && fail=1; }
for verb in "$@"; do
	grep -q "^  $verb" "$tmp/help" || { echo "FAIL: --help lacks the verb $verb" && fail=1; }
	MANWIDTH=200 man -l "$page" 2>/dev/null | col -b | grep -q "^       $verb" ||
		{ echo "FAIL: $page lacks the verb $verb" && fail=1; }
done
[ "$fail" = 0 ] && echo "ok: $(wc -l <"$tmp/help-opts") options${1:+, $# verbs} agree"
exit $fail
