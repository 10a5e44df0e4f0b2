# shellcheck shell=sh
# Switch root into a real root with systemd, udev and the kernel's whole
# module tree, and devices whose denied modules the initramfs lacks: an
# emulated NIC (pcnet32, which udev's coldplug in the real root loads by
# alias) and virtio-rng (virtio_rng, which systemd's PID 1 loads itself as it
# starts there). Before switch_root the initramfs computes the blacklist
# again from the real root's tree; drvfilter-apply.service applies the policy
# again from the real root, before coldplug, and status says which module set
# its blacklist comes from.
order_ok() {
	# shellcheck disable=SC2154 # console: check-scenario.sh's
	order=$(sed -n 's/^DRVFILTER-ORDER: //p' "$console")
	done_at=${order%% *} trigger_at=${order##* }
	[ "${done_at:-0}" -gt 0 ] && [ "${trigger_at:-0}" -gt "$done_at" ]
}
root_modules() {
	n=$(section DRVFILTER-STATE | sed -n 's/^ *"modules": \([0-9]*\)$/\1/p')
	[ "${n:-0}" -gt 2000 ]
}
expect "before switch_root, the blacklist came from the real root's tree" initrd_state_has '"modules_dir": "/sysroot/lib/modules/'
expect "and named pcnet32, which the initramfs lacks" initrd_state_has '"module": "pcnet32"'
expect "the unit is linked in (static) and ran without error" console_has '^DRVFILTER-ROOT: switched root; drvfilter-apply.service is static, active, result success, status 0'
expect "it was done before coldplug started in the real root" order_ok
expect "pcnet32 never loaded" not_in_modules pcnet32
expect "nothing was unbound from it" not_kmsg_has 'driver=pcnet32'
expect "the NIC is not driven" pci_driver 1022:2000 none
expect "virtio_rng never loaded" not_in_modules virtio_rng
expect "nothing was unbound from it either" not_kmsg_has 'driver=virtio_rng'
expect "virtio-blk, the root disk, is driven" pci_driver 1af4:1001 virtio-pci
expect "the state: applied in the real root" state_has '"initramfs": false'
expect "with the initramfs's policy on record" state_has '"initramfs_sha256": "[0-9a-f]\{64\}"'
expect "its blacklist came from the real root's tree" state_has '"modules_dir": "/lib/modules/[^"]*"'
expect "all of it" root_modules
expect "and names pcnet32" state_has '"module": "pcnet32"'
expect "status says so" status_text_has '^Blacklist:  computed in the real root from [0-9]* modules of /lib/modules/'
expect "status: the real root applied it after dracut's initramfs" status_text_has '^By: *the real root, after the initramfs (dracut) applied it$'
expect "status --json says so" json_has '"blacklist":{"modules_dir":"/lib/modules/'
# The only drift: this stock-kernel boot has no boot options (the real root's
# policy is the initramfs's, its blacklist is current, nothing failed).
expect "status --json: the only drift, the missing boot options" json_has '"drift":\[{"code":"cmdline_missing","text":"the kernel command line lacks boot options computed for this system (module_blacklist: e1000, pcnet32, virtio_rng)'
expect "status --json: no violation" json_has '"violations":\[\]'
