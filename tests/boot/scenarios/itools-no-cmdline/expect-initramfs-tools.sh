# shellcheck shell=sh
# What an initramfs-tools image must show, with or without boot options
# (sourced by the scenarios' expect.sh): drvfilter-apply ran in init-top
# before udev's script (the image's ORDER file) and before coldplug (its
# state says the initramfs), no denied module loaded, and status agrees.
# shellcheck disable=SC2154 # $out is check-scenario.sh's
order_before() { awk -v a="/scripts/init-top/$1" -v b="/scripts/init-top/$2" \
	'$1 == a { sa = NR } $1 == b { sb = NR } END { exit !(sa && sb && sa < sb) }' "$out/init-top-order"; }
expect "init-top runs drvfilter before udev" order_before drvfilter udev
expect "the helper ran in the initramfs" state_has '"initramfs": true'
expect "udevd was not running yet" not_console_has 'udevd started before drvfilter-apply'
expect "virtio-blk is driven" pci_driver 1af4:1001 virtio-pci
expect "status: initramfs-tools applied it" status_text_has '^By: *the initramfs (initramfs-tools)$'
