#!/bin/bash
# dracut module: drvfilter, the device driver firewall. Puts the helper, the
# policy and the udev rules into the initramfs, and runs the helper before
# udevd starts, so that the policy holds before coldplug. A policy that fails
# `drvfilterctl check` fails the dracut run.
#
# drvfilter_prefix (environment): where drvfilter is installed, for tests that
# build an initramfs from a staging tree (default: the system itself).
# drvfilter_policy (environment): the policy to put in (default /etc/drvfilter.conf).

_drvfilter_policy() {
    echo "${drvfilter_policy:-${dracutsysrootdir-}/etc/drvfilter.conf}"
}

check() {
    [[ -x ${drvfilter_prefix-}/usr/sbin/drvfilter-apply ]] || return 1
    [[ -f $(_drvfilter_policy) ]] || return 1
    return 0
}

depends() {
    echo udev-rules
    return 0
}

install() {
    local policy
    policy=$(_drvfilter_policy)
    # The gate: an invalid policy must not reach a boot, where it would fail closed.
    if ! "${drvfilter_prefix-}"/usr/sbin/drvfilterctl --policy "$policy" check >&2; then
        dfatal "drvfilter: $policy is not a valid policy; not building the initramfs"
        exit 1
    fi
    inst_binary "${drvfilter_prefix-}/usr/sbin/drvfilter-apply" /usr/sbin/drvfilter-apply
    inst_simple "$policy" /etc/drvfilter.conf
    local rules
    for rules in "${drvfilter_prefix-}"{/usr,}/lib/udev/rules.d/90-drvfilter.rules; do
        [[ -f $rules ]] && break
    done
    inst_simple "$rules" /usr/lib/udev/rules.d/90-drvfilter.rules
    # shellcheck disable=SC2154 # moddir is set by dracut
    # pre-udev: before udevd starts and before `udevadm trigger`, in the classic
    # initrd directly and in the systemd one through dracut-pre-udev.service.
    inst_hook pre-udev 10 "$moddir/drvfilter-apply-hook.sh"
}
