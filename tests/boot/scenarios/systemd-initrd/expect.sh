# shellcheck shell=sh
# The stock-kernel fallback boot again, with systemd's initrd.
expect "systemd ran the initrd" console_has 'systemd\[1\]'
# The helper runs as drvfilter-apply-initrd.service, the unit any systemd
# initrd runs before systemd-udevd (mkosi's too), not as a dracut hook.
expect "drvfilter-apply-initrd.service ran" console_has 'Finished .*Enforce the device driver policy before coldplug (initrd)'
expect "the e1000 module never loaded" not_in_modules e1000
expect "nothing is bound to the e1000 device" pci_driver 8086:100e none
expect "virtio-blk is driven" pci_driver 1af4:1001 virtio-pci
expect "status --json: no violation" json_has '"violations":\[\]'
expect "the state file records the e1000 blacklist" state_has '"module": "e1000"'
