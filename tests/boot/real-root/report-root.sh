#!/bin/sh
# The real root's report (drvfilter-test-report.service): how the unit ran and
# when, against udev's coldplug, then what report.sh prints; it ends the boot.
exec >/dev/console 2>&1
unit=drvfilter-apply.service
# The markers start a line, whatever the console printed last.
echo
echo "DRVFILTER-ROOT: switched root; $unit is $(systemctl is-enabled $unit)," \
	"$(systemctl show -P ActiveState $unit), result $(systemctl show -P Result $unit)," \
	"status $(systemctl show -P ExecMainStatus $unit)"
# Monotonic microseconds: the unit's exit, coldplug's start.
echo "DRVFILTER-ORDER: $(systemctl show -P ExecMainExitTimestampMonotonic $unit)" \
	"$(systemctl show -P ExecMainStartTimestampMonotonic systemd-udev-trigger.service)"
exec sh /usr/lib/drvfilter-test/report.sh
