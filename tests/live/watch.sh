#!/bin/sh
# drvfilterctl watch on the running system: a synthetic "add" uevent for a
# registered driver must come out as one line with the decision that explain
# gives. Needs root (to write the uevent file) and a netlink socket; skipped
# (77) otherwise.
set -u
CTL=$1
POLICY=$2
[ "$(id -u)" = 0 ] || exit 77
drv=
for d in /sys/bus/*/drivers/*; do
	[ -w "$d/uevent" ] && drv=$d && break
done
[ -n "$drv" ] || exit 77
name=${drv##*/}
bus=${drv%/drivers/*}
bus=${bus##*/}
out=$(mktemp) || exit 1
trap 'rm -f "$out"' EXIT
timeout 20 "$CTL" --policy "$POLICY" watch --events 1 >"$out" 2>/dev/null &
pid=$!
# Until the monitor listens, events are lost: repeat until it has seen one.
i=0
while kill -0 $pid 2>/dev/null && [ $i -lt 40 ]; do
	echo add >"$drv/uevent" || exit 77
	sleep 0.25
	i=$((i + 1))
done
wait $pid
status=$?
[ $status = 0 ] || { echo "watch exited with $status" >&2; exit 1; }
expected=$("$CTL" --policy "$POLICY" explain "$bus:$name" | sed -n 's/^[^ ]* \(allowed\|denied\) .*/\1/p')
line=$(cat "$out")
echo "watch: $line"
case $line in
"driver $bus $name: $expected by "*) exit 0 ;;
*)
	echo "expected a '$expected' line for $bus:$name" >&2
	exit 1
	;;
esac
