#!/bin/sh
# bench/boot's end of the boot in the real root (drvfilter-bench-end.service,
# after multi-user.target): once the real root's coldplug has settled too,
# marks the end in the kernel log, with the modules loaded; marks when
# multi-user.target was reached, and the CPU time drvfilter-apply.service
# took there (systemd's accounting: the unit runs beside systemd's other
# early units, so its wall time counts theirs too); prints the slowest units
# (start, time to active) for the console; and reports.
udevadm settle --timeout=60 || true
n=0
while read -r _; do n=$((n + 1)); done </proc/modules
echo "drvfilter-bench: end modules=$n" >/dev/kmsg
mu=$(systemctl show -P ActiveEnterTimestampMonotonic multi-user.target)
echo "drvfilter-bench: multi-user usec=$mu" >/dev/kmsg
unit=drvfilter-apply.service
if [ "$(systemctl show -P LoadState $unit)" = loaded ]; then
	echo "drvfilter-bench: root-apply cpu_nsec=$(systemctl show -P CPUUsageNSec $unit)" \
		"start_usec=$(systemctl show -P ExecMainStartTimestampMonotonic $unit)" \
		"exit_usec=$(systemctl show -P ExecMainExitTimestampMonotonic $unit)" >/dev/kmsg
fi
# (systemd-analyze blame waits for the boot's end, which this unit is part of.)
{
	echo "BENCH-UNITS-BEGIN"
	systemctl show -p Id -p InactiveExitTimestampMonotonic -p ActiveEnterTimestampMonotonic \
		-p InactiveEnterTimestampMonotonic '*.service' '*.mount' '*.socket' 2>&1 |
		awk -F= 'function done_() {
				e = ae > 0 ? ae : ie
				if (ix > 0 && e > ix) printf "%8.3f s %8.3f s  %s\n", ix / 1e6, (e - ix) / 1e6, id
				id = ""; ix = ae = ie = 0
			}
			/^$/ { done_(); next }
			$1 == "Id" { id = $2 }
			$1 == "InactiveExitTimestampMonotonic" { ix = $2 }
			$1 == "ActiveEnterTimestampMonotonic" { ae = $2 }
			$1 == "InactiveEnterTimestampMonotonic" { ie = $2 }
			END { done_() }' | sort -k3,3nr | head -n 15
	echo "BENCH-UNITS-END"
} >/dev/console 2>&1
exec sh /usr/lib/drvfilter-bench/bench-report.sh
