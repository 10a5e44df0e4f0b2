#!/bin/sh
# Report what drvfilter did, between markers the host's harness reads, then end the boot.
# In a systemd initrd the hook's output goes to the journal: the console is the channel.
# Once: as an initqueue/timeout hook it is sourced again on every turn of the queue.
[ -e /run/drvfilter-reported ] && return 0
: >/run/drvfilter-reported
exec >/dev/console 2>&1
# Report once coldplug is over: systemd's pre-mount does not wait for it.
udevadm settle --timeout=60 || true
IFS= read -r cmdline </proc/cmdline
echo "DRVFILTER-CMDLINE: $cmdline"
# A recording boot (drvfiltertest.record): drvfilterctl record, written as a
# cpio archive to the disk whose serial is drvfilter-record.
case " $cmdline " in
*" drvfiltertest.record "*)
    disk=
    for b in /sys/block/vd*; do
        [ "$(cat "$b/serial" 2>/dev/null)" = drvfilter-record ] && disk=/dev/${b##*/}
    done
    /usr/sbin/drvfilterctl record /run/drvfilter-record
    echo "DRVFILTER-RECORD: status=$? disk=${disk:-none}"
    [ -n "$disk" ] && (cd /run && find drvfilter-record | cpio -o -H newc >"$disk") && sync
    ;;
esac
echo "DRVFILTER-STATUS-BEGIN"
/usr/sbin/drvfilterctl status
echo "DRVFILTER-STATUS-END status=$?"
echo "DRVFILTER-JSON-BEGIN"
/usr/sbin/drvfilterctl status --json=short
echo "DRVFILTER-JSON-END"
echo "DRVFILTER-STATE-BEGIN"
cat /run/drvfilter/state.json
echo "DRVFILTER-STATE-END"
echo "DRVFILTER-MODULES: $(sed 's/ .*//' /proc/modules | tr '\n' ' ')"
# The block devices there are (the root disk among them, when it came up).
blocks=
for b in /sys/class/block/*; do
    [ -e "$b" ] && blocks="$blocks ${b##*/}"
done
echo "DRVFILTER-BLOCK:$blocks "
# The image's own blacklist (99drvfilter-blacklist), while it is there.
echo "DRVFILTER-EARLY-BLACKLIST: $(sed -n 's/^blacklist //p' /etc/modprobe.d/drvfilter-initramfs.conf 2>/dev/null | tr '\n' ' ')"
# (Builtins where a program would do: each fork and exec costs the guest tens
# of milliseconds under TCG.)
for d in /sys/bus/pci/devices/*; do
    drv=none
    [ -L "$d/driver" ] && drv=$(cd -P "$d/driver" && echo "${PWD##*/}")
    read -r vendor <"$d/vendor"
    read -r device <"$d/device"
    echo "DRVFILTER-PCI: ${d##*/} $vendor:$device $drv"
done
for f in allow deny locked; do
    [ -e "/sys/kernel/driver_filter/$f" ] && echo "DRVFILTER-FILTER: $f=$(cat "/sys/kernel/driver_filter/$f")"
done
# The measurement: the event log, one record a line (without its record
# separator), and PCR 15 (drvfilter's by default) as tpm2-tools and the kernel's TPM driver read it.
if [ -e /run/log/systemd/tpm2-measure.log ]; then
    tr '\036' '\n' </run/log/systemd/tpm2-measure.log | sed -n 's/^{/DRVFILTER-EVLOG: {/p'
fi
if [ -e /dev/tpmrm0 ]; then
    echo "DRVFILTER-PCRREAD-BEGIN"
    tpm2_pcrread -T device:/dev/tpmrm0 sha256:15
    echo "DRVFILTER-PCRREAD-END status=$?"
    echo "DRVFILTER-SYSFS-PCR15: $(cat /sys/class/tpm/tpm0/pcr-sha256/15)"
fi
# shellcheck disable=SC1091 # a UEFI guest's evidence (module-setup.sh)
[ ! -e /usr/lib/drvfiltertest/attest.sh ] || . /usr/lib/drvfiltertest/attest.sh
for d in /sys/bus/*/drivers/*; do
    [ -d "$d" ] || continue
    b=${d%/drivers/*}
    echo "DRVFILTER-DRIVER: ${b##*/}:${d##*/}"
done
# Last, as it may load a module: insmod of the scenario's module file, by path.
if [ -e /usr/lib/drvfiltertest/denied.ko ]; then
    out=$(insmod /usr/lib/drvfiltertest/denied.ko 2>&1)
    echo "DRVFILTER-INSMOD: status=$? $out"
fi
if [ -e /run/drvfilter-strace.txt ]; then
    sed 's/^/DRVFILTER-STRACE: /' /run/drvfilter-strace.txt
    for args in --version --dry-run --dry-run --dry-run; do
        t0=$(date +%s%N)
        /usr/sbin/drvfilter-apply "$args" >/dev/null 2>&1
        t1=$(date +%s%N)
        echo "DRVFILTER-STRACE: drvfilter-apply $args took $(((t1 - t0) / 1000)) us"
    done
fi
if [ -e /run/drvfilter-udev-runs ]; then
    sed 's/^/DRVFILTER-UDEV-RUN: /' /run/drvfilter-udev-runs
fi
echo "DRVFILTER-KMSG-BEGIN"
dmesg | grep -e 'drvfilter:' -e 'driver_filter:'
echo "DRVFILTER-KMSG-END"
echo "DRVFILTER-DONE"
# End the boot now: the image has no reboot(8), and -no-reboot makes QEMU
# exit. A second for the serial port to drain the lines above.
sync
sleep 1
echo b >/proc/sysrq-trigger
