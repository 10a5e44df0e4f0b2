#!/bin/sh
# drvfilter-apply against a tree that changes under it, and against itself.
#  1. While a background loop registers and unregisters drivers (directories
#     with an allowed file, some with a bound device) and binds and unbinds
#     devices, apply runs again and again: it never crashes (a sanitizer
#     report or a signal fails), exits 0 or 1, and always leaves a state
#     file that parses. Once the tree stops changing, one more apply leaves
#     every driver's allowed bit as the policy says (status: no mismatch).
#  2. Eight applies started at once on one tree are serialised by the lock in
#     /run/drvfilter: in the kernel log every run's lines follow one another,
#     never interleaved (each run's first action, then its 'done', in turn).
# Usage: churn.sh APPLY CTL [ROUNDS]
set -u
APPLY=$1
CTL=$2
rounds=${3:-40}
here=$(cd "$(dirname "$0")" && pwd)
fixtures=$here/../fixtures
tmp=$(mktemp -d) || exit 1
trap 'kill "$churner" 2>/dev/null; rm -rf "$tmp"' EXIT
command -v jq >/dev/null || { echo "churn: jq is missing" >&2 && exit 1; }
root=$tmp/root
sh "$fixtures/mksysroot" "$root" "$fixtures/guest.spec" "$fixtures/kernel.spec" || exit 1
# The shipped policy without the lock, so that every run writes.
sed 's/^lock *=.*/lock = false/' "$here/../../conf/drvfilter.conf" >"$root/etc/drvfilter.conf"
grep -q '^lock = false' "$root/etc/drvfilter.conf" || printf '[filter]\nlock = false\n' >>"$root/etc/drvfilter.conf"
chmod 0644 "$root/etc/drvfilter.conf"
fail=0

# The churner stops when told, between two changes: killed, a mkdir of its
# could still land after the cleanup below (a driver with no allowed file,
# which status counts as a mismatch).
churn() {
	i=0
	while [ ! -e "$tmp/stop" ]; do
		i=$((i + 1))
		for bus in pci virtio usb; do
			d=$root/sys/bus/$bus/drivers/churn_$((i % 7))
			if [ -d "$d" ]; then
				rm -rf "$d"
			else
				mkdir -p "$d" && echo 1 >"$d/allowed" && : >"$d/unbind" && : >"$d/bind"
				[ $((i % 2)) = 0 ] && ln -s "../../../../devices/pci/0000:00:05.0" "$d/0000:00:05.0"
			fi
		done
		e=$root/sys/bus/pci/drivers/e1000
		if [ -L "$e/0000:00:03.0" ]; then
			rm -f "$e/0000:00:03.0"
		else
			ln -s ../../../../devices/pci/0000:00:03.0 "$e/0000:00:03.0"
		fi
	done
}
churn &
churner=$!
bad=0
for i in $(seq "$rounds"); do
	"$APPLY" --sysroot "$root" >/dev/null 2>"$tmp/err"
	rc=$?
	if [ "$rc" -gt 1 ] || grep -q -e 'Sanitizer' -e 'runtime error' "$tmp/err"; then
		echo "round $i: exit status $rc"
		cat "$tmp/err"
		bad=$((bad + 1))
	fi
	jq -e .counts "$root/run/drvfilter/state.json" >/dev/null ||
		{ echo "round $i: the state file does not parse" && bad=$((bad + 1)); }
done
: >"$tmp/stop"
wait "$churner" 2>/dev/null
echo "1. $rounds applies while the tree changed: $bad failures"
[ "$bad" = 0 ] || fail=1
rm -rf "$root"/sys/bus/*/drivers/churn_*
"$APPLY" --sysroot "$root" >/dev/null 2>&1
mism=$("$CTL" --sysroot "$root" status --json | jq .counts.mismatches)
echo "   after the last apply: $mism allowed bits disagree with the policy"
[ "$mism" = 0 ] || fail=1

: >"$root/dev/kmsg"
pids=
for i in 1 2 3 4 5 6 7 8; do
	"$APPLY" --sysroot "$root" >/dev/null 2>&1 &
	pids="$pids $!"
done
# shellcheck disable=SC2086 # one word per pid
wait $pids
# Each run starts with the allow list and ends with 'done': they must alternate.
seq=$(sed -n -e 's/.*action=kernel-list list=allow.*/S/p' -e 's/.*action=done.*/D/p' \
	"$root/dev/kmsg" | tr -d '\n')
echo "2. 8 concurrent applies, runs in the kernel log: $seq"
[ "$seq" = SDSDSDSDSDSDSDSD ] || fail=1
jq -e .counts "$root/run/drvfilter/state.json" >/dev/null || fail=1
exit $fail
