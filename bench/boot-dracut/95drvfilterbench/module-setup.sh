#!/bin/bash
# bench/boot's dracut module: a pre-udev hook that marks udevd's start, a
# pre-mount hook that marks coldplug's end and, when the boot does not go on
# into a real root, the end of the boot, prints the guest's markers on the
# console and ends the boot. The same in every configuration of the
# benchmark, with drvfilter in the image or not (it does not depend on it).

check() {
    return 255 # only when asked for
}

depends() {
    return 0
}

install() {
    inst_multiple dmesg grep sync sleep
    # shellcheck disable=SC2154 # moddir is set by dracut
    inst_simple "$moddir/bench-end.sh" /usr/lib/drvfilter-bench/bench-end.sh
    inst_simple "$moddir/bench-report.sh" /usr/lib/drvfilter-bench/bench-report.sh
    inst_hook pre-udev 99 "$moddir/bench-udev.sh"
    inst_hook pre-mount 99 "$moddir/bench-end.sh"
    inst_hook initqueue/timeout 99 "$moddir/bench-timeout.sh"
}
