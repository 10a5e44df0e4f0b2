#!/bin/sh
# No untrusted text reaches a shell or a command line: udev's rules run the
# helper as a program (RUN{program}, no shell) with a fixed argument list, no
# %-substitution and no $-substitution, so device and driver names travel only
# in the event's environment; the dracut hook expands no variable, command
# or event text. (The templates: the install configures only the path.)
# Usage: untrusted-text.sh RULES.in HOOK.in
set -u
rules=$1 hook=$2
fail=0
n=0
while IFS= read -r line; do
	case $line in '#'* | '') continue ;; esac
	n=$((n + 1))
	run=${line#*RUN}
	case $run in
	"$line") ;; # no RUN key on this line
	'{program}+="@DRVFILTER_SBINDIR@/drvfilter-apply --udev"') ;;
	*)
		echo "$rules: a RUN that is not exactly RUN{program}+=\"@DRVFILTER_SBINDIR@/drvfilter-apply --udev\": $line"
		fail=1
		;;
	esac
	case $line in
	*%* | *'$'*)
		echo "$rules: a substitution: $line"
		fail=1
		;;
	esac
done <"$rules"
[ "$n" -gt 0 ] || { echo "$rules: no rules" && fail=1; }
if grep -n -e '\$' -e '`' -e '\<eval\>' -e '\<source\>' "$hook" | grep -v '^[0-9]*:#'; then
	echo "$hook: expands text (\$, backquote, eval or source)"
	fail=1
fi
[ "$fail" = 0 ] && echo "ok: $n rules, hook $(basename "$hook")"
exit $fail
