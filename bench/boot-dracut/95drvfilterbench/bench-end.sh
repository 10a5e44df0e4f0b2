#!/bin/sh
# bench/boot's end of the initramfs (pre-mount hook: dracut's last stop before
# it mounts the root and switches to it): marks coldplug's end (after udevadm
# settle) in the kernel log, with the kernel's timestamps. With
# drvfilter_bench.root=real the boot goes on into the real root, whose
# drvfilter-bench-end.service marks the end; else the boot ends here: the
# end's mark, then the report.
[ -e /run/drvfilter-bench-done ] && return 0
: >/run/drvfilter-bench-done
udevadm settle --timeout=60 || true
echo "drvfilter-bench: settled" >/dev/kmsg
IFS= read -r cmdline </proc/cmdline
case " $cmdline " in
*" drvfilter_bench.root=real "*) return 0 ;;
esac
n=0
while read -r _; do n=$((n + 1)); done </proc/modules
echo "drvfilter-bench: end modules=$n" >/dev/kmsg
# shellcheck disable=SC1091 # in the image, from module-setup.sh
. /usr/lib/drvfilter-bench/bench-report.sh
