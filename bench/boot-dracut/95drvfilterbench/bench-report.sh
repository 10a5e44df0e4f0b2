#!/bin/sh
# bench/boot's report, at the end of the boot (the initramfs's pre-mount hook,
# or the real root's drvfilter-bench-end.service): prints the kernel log's
# markers (and, in an initcall_debug boot, its init calls) between the lines
# the host reads, then ends the boot (QEMU -no-reboot).
exec >/dev/console 2>&1
echo
echo "BENCH-MARKERS-BEGIN"
dmesg | grep -e 'Run /init as init process' -e 'drvfilter: action=done' -e 'drvfilter-bench: ' \
    -e 'systemd\[1\]: systemd [0-9].* running in system mode'
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
