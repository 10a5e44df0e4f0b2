#!/bin/sh
# Test-only, in place of the helper (DRVFILTER_TEST_UDEV_RUNS): each run udev
# makes, with the event's SYNTH_UUID (set on a replayed one), is written down
# for the report, then the real helper runs as udev asked.
if [ "${1-}" = --udev ]; then
    echo "$ACTION $SUBSYSTEM $DEVPATH synth=${SYNTH_UUID-}" >>/run/drvfilter-udev-runs
fi
exec /usr/sbin/drvfilter-apply.real "$@"
