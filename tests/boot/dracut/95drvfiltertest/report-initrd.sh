#!/bin/sh
# Before switch_root (pre-pivot, a scenario booting into a real root): what
# the initramfs enforced last, between markers, and the boot goes on.
{
    echo "DRVFILTER-INITRD-STATE-BEGIN"
    cat /run/drvfilter/state.json
    echo "DRVFILTER-INITRD-STATE-END"
    echo "DRVFILTER-INITRD-MODULES: $(sed 's/ .*//' /proc/modules | tr '\n' ' ')"
    echo "DRVFILTER-INITRD-BLACKLIST: $(grep -c '^blacklist ' /run/modprobe.d/drvfilter.conf)"
} >/dev/console 2>&1
