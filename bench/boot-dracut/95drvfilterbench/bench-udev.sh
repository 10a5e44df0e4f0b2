#!/bin/sh
# bench/boot's mark right before udevd starts (the last pre-udev hook: after
# drvfilter's, where the image has it), in the kernel log.
echo "drvfilter-bench: udev" >/dev/kmsg
