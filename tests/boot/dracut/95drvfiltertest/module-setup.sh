#!/bin/bash
# Test-only dracut module: drvfilterctl and a pre-mount hook that reports
# from inside the guest (the console is the channel), then reboots; QEMU runs
# with -no-reboot, so the guest ends there. With DRVFILTER_TEST_REAL_ROOT the
# boot goes on into a real root instead: a pre-pivot hook reports the
# initramfs's last state, and the real root reports the rest.

check() {
    return 255 # only when asked for
}

depends() {
    echo drvfilter
    return 0
}

install() {
    inst_binary "${drvfilter_prefix-}/usr/sbin/drvfilterctl" /usr/sbin/drvfilterctl
    inst_multiple cat dmesg grep readlink sed tr cpio find insmod sync
    # The TPM read back with tpm2-tools, in a guest with a TPM (GUEST_SWTPM:
    # the measurement scenarios) only: the tools and the libraries behind
    # them were 15 MiB of every other image, unpacked at each boot.
    if [[ ${GUEST_SWTPM-} ]]; then
        inst_multiple tpm2_pcrread
        inst_libdir_file "libtss2-tcti-device.so*"
    fi
    # A UEFI guest (GUEST_UEFI) also hands a verifier its evidence: the
    # firmware's event log and a quote over the verifier's nonce (attest.sh).
    if [[ ${GUEST_UEFI-} ]]; then
        inst_multiple tpm2_createek tpm2_createak tpm2_quote base64 head mount
        # shellcheck disable=SC2154 # moddir is set by dracut
        inst_simple "$moddir/attest.sh" /usr/lib/drvfiltertest/attest.sh
    fi
    # A scenario may spoil the policy inside the image: writable by anyone,
    # which drvfilter-apply refuses, so the boot must fail closed.
    if [[ ${DRVFILTER_TEST_BREAK_POLICY-} ]]; then
        # shellcheck disable=SC2154 # initdir is set by dracut
        chmod 0666 "$initdir/etc/drvfilter.conf"
    fi
    # DRVFILTER_TEST_STRACE=1 (by hand, not in CI): the helper's run at boot
    # under strace -c -w, where the time goes, printed with the report, and
    # the report times its start alone (--version) and a dry run.
    if [[ ${DRVFILTER_TEST_STRACE-} ]]; then
        inst_multiple strace date
        sed -i 's|^\(if ! \)\(/[^ ]*/drvfilter-apply\)|\1strace -f -c -w -o /run/drvfilter-strace.txt \2|' \
            "$initdir/usr/lib/dracut/hooks/pre-udev/10-drvfilter-apply-hook.sh"
    fi
    # DRVFILTER_TEST_UDEV_RUNS: each run of the helper by udev written down
    # (udev-runs.sh in its place), for the report.
    if [[ ${DRVFILTER_TEST_UDEV_RUNS-} ]]; then
        mv "$initdir/usr/sbin/drvfilter-apply" "$initdir/usr/sbin/drvfilter-apply.real"
        # shellcheck disable=SC2154 # moddir is set by dracut
        inst_simple "$moddir/udev-runs.sh" /usr/sbin/drvfilter-apply
        chmod 0755 "$initdir/usr/sbin/drvfilter-apply"
    fi
    # A scenario may carry a module file for insmod to try (a denied module, by path).
    if [[ ${DRVFILTER_TEST_INSMOD-} ]]; then
        inst_simple "$DRVFILTER_TEST_INSMOD" /usr/lib/drvfiltertest/denied.ko
    fi
    # shellcheck disable=SC2154 # moddir is set by dracut
    if [[ ${DRVFILTER_TEST_REAL_ROOT-} ]]; then
        # The boot goes on into the real root, which reports and ends it.
        inst_hook pre-pivot 99 "$moddir/report-initrd.sh"
    else
        inst_hook pre-mount 99 "$moddir/report.sh"
        # A boot that never finds its root (failed closed on a stock kernel, its
        # disk's module denied) reports when the initqueue gives up waiting.
        inst_hook initqueue/timeout 99 "$moddir/report.sh"
    fi
}
