#!/bin/sh
# pre-udev hook: enforce the policy before udevd starts. drvfilter-apply logs
# every action to the kernel log and fails closed on its own; a failure here
# is said on the console too, and the boot goes on under what was enforced.
if ! /usr/sbin/drvfilter-apply; then
    warn "drvfilter: enforcement reported errors; see 'dmesg | grep drvfilter'"
fi
