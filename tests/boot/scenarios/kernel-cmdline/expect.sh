# shellcheck shell=sh
# Checks on the patched kernel booted with the policy's boot options: nothing
# denied ever binds, not even the built-in xhci_hcd before user space runs.
expect "the boot options are on the command line" console_has 'filter_deny_drivers=ALL:ALL'
expect "the kernel denied the built-in xhci_hcd when it registered" kmsg_has 'driver_filter: denied pci:xhci_hcd'
expect "xhci_hcd never bound QEMU's xHCI" pci_driver 1b36:000d none
expect "so there was nothing to unbind" not_state_has '"device": "0000:00:05.0"'
expect "e1000 never bound" pci_driver 8086:100e none
expect "virtio-blk is driven" pci_driver 1af4:1001 virtio-pci
expect "the kernel policy is locked" filter_is 'locked=1'
expect "status --json: no violation" json_has '"violations":\[\]'
