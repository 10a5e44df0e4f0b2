#!/bin/sh
# Print what drvfilter may have written in a fixture tree, in a stable order:
# the kernel filter's files, every driver's allowed/unbind, the modprobe.d
# blacklist, the state file and the kernel log.
set -u
root=$1
cd "$root" || exit 1
find sys/kernel/driver_filter sys/bus sys/devices -type f \
	\( -name allowed -o -name unbind -o -name bind -o -name allow -o -name deny -o -name locked \
	-o -name driver_override \) \
	2>/dev/null | LC_ALL=C sort | while IFS= read -r f; do
	# Untouched unbind, bind and driver_override files: leave them out.
	case ${f##*/} in
	unbind | bind) [ -s "$f" ] || continue ;;
	driver_override) [ "$(cat "$f")" != "(null)" ] || continue ;;
	esac
	printf '%s: %s\n' "$f" "$(cat "$f")"
done
for f in run/modprobe.d/drvfilter.conf run/drvfilter/state.json dev/kmsg etc/drvfilter.conf; do
	[ -e "$f" ] || continue
	echo "--- $f"
	case $f in
	etc/*)
		# The mode, and whether the owner is still the one who ran the test.
		if [ "$(stat -c %u "$f")" = "$(id -u)" ]; then
			stat -c '%A owned by the runner' "$f"
		else
			stat -c '%A owned by uid %u' "$f"
		fi
		;;
	*) cat "$f" ;;
	esac
done
# The measurement: systemd's event log (its record separators shown as ^^, with
# its mode: the sticky bit says a record is incomplete) and the TDX RTMR.
log=run/log/systemd/tpm2-measure.log
if [ -e "$log" ]; then
	echo "--- $log ($(stat -c %A "$log"))"
	cat -v "$log"
fi
rtmr=sys/devices/virtual/misc/tdx_guest/measurements/rtmr2:sha384
if [ -f "$rtmr" ]; then
	echo "--- $rtmr"
	od -An -tx1 -v "$rtmr" | tr -d ' \n'
	echo
fi
