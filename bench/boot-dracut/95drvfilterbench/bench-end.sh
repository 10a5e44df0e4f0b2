#!/bin/sh
# bench/boot's end of the boot (pre-mount hook: dracut's last stop before it
# mounts the root and switches to it). Marks in the kernel log, with the
# kernel's timestamps: coldplug's end (after udevadm settle) and the end;
# prints the markers the host reads, then ends the boot (QEMU -no-reboot).
[ -e /run/drvfilter-bench-done ] && return 0
: >/run/drvfilter-bench-done
udevadm settle --timeout=60 || true
echo "drvfilter-bench: settled" >/dev/kmsg
n=0
while read -r _; do n=$((n + 1)); done </proc/modules
echo "drvfilter-bench: end modules=$n" >/dev/kmsg
exec >/dev/console 2>&1
echo "BENCH-MARKERS-BEGIN"
dmesg | grep -e 'Run /init as init process' -e 'drvfilter: action=done' -e 'drvfilter-bench: '
echo "BENCH-MARKERS-END"
IFS= read -r cmdline </proc/cmdline
case " $cmdline " in
*" initcall_debug "*)
    echo "BENCH-INITCALLS-BEGIN"
    dmesg | grep -e 'initcall .* returned .* after .* usecs'
    echo "BENCH-INITCALLS-END"
    ;;
esac
echo "BENCH-DONE"
sync
sleep 1
echo b >/proc/sysrq-trigger
