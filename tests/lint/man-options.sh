#!/bin/sh
# A program's --help and its man page name the same long options, and --help
# points to the man page. With VERBs (drvfilterctl): 'PROGRAM --help' and the
# page's COMMON OPTIONS agree, and for each verb 'PROGRAM VERB --help' and the
# options its section (.SS "VERB ...") lists agree; each verb is in both.
# Without: --help and the page's OPTIONS section agree.
# Usage: man-options.sh PROGRAM MAN-PAGE [VERB...]
set -u
prog=$1
page=$2
shift 2
name=$(basename "$page" | sed 's/\.\([0-9]\)$/(\1)/')
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0

# The long options a help text lists: its lines that begin with an option.
help_options() {
	grep -E '^ +-' | grep -o -e '--[a-z][a-z-]*' | sort -u
}

# The long options of the .TP tags in the part of the page from the line
# matching $1 to the next line matching $2 (its source: rendering hyphenates).
man_options() {
	sed -n "/$1/,/$2/p" "$page" | sed -n '/^\.TP/{n;p}' | grep -o -E '\\-\\-[a-z]([a-z]|\\-)*' |
		sed 's/\\-/-/g' | sort -u
}

# compare LABEL HELP-FILE MAN-OPTIONS-FILE
compare() {
	help_options <"$2" >"$tmp/h"
	if ! diff -u --label "$1 --help" --label "$page" "$tmp/h" "$3"; then
		echo "FAIL: the options of $1 differ"
		fail=1
	fi
	grep -q "$name" "$2" || { echo "FAIL: $1 --help does not name $name" && fail=1; }
}

"$prog" --help >"$tmp/help" || { echo "FAIL: $prog --help failed" && exit 1; }
if [ $# = 0 ]; then
	man_options '^\.SH OPTIONS' '^\.SH [^O]' >"$tmp/m"
	compare "$(basename "$prog")" "$tmp/help" "$tmp/m"
else
	man_options '^\.SH COMMON OPTIONS' '^\.SH [^C]' >"$tmp/m"
	compare "$(basename "$prog")" "$tmp/help" "$tmp/m"
fi
for verb in "$@"; do
	grep -q "^  $verb" "$tmp/help" || { echo "FAIL: --help lacks the verb $verb" && fail=1; }
	if ! grep -q -E "^\.SS \"([a-z|-]*\|)?$verb[ |\"]" "$page"; then
		echo "FAIL: $page has no section for the verb $verb"
		fail=1
		continue
	fi
	"$prog" "$verb" --help >"$tmp/verb-help" || { echo "FAIL: $prog $verb --help failed" && fail=1; }
	man_options "^\\.SS \"\\([a-z|-]*|\\)\\{0,1\\}$verb[ |\"]" '^\.S[SH] [^\n]' |
		sort -u >"$tmp/m"
	compare "$(basename "$prog") $verb" "$tmp/verb-help" "$tmp/m"
done
[ "$fail" = 0 ] && echo "ok: the options of --help${1:+ and of $# verbs} agree with $page"
exit $fail
