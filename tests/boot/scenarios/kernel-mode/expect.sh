# shellcheck shell=sh
# Checks on the patched kernel's boot: the lists are in the kernel before
# coldplug, so e1000, a module coldplug loads afterwards, never binds.
expect "enforced in kernel mode" state_has '"mode": "kernel"'
expect "the allow list is in the kernel" filter_is 'allow=pci:virtio-pci;virtio:virtio_blk,virtio_net;pnp:serial,i8042 kbd,i8042 aux;platform:serial8250'
expect "the deny list is in the kernel" filter_is 'deny=ALL:ALL'
expect "the kernel policy is locked" filter_is 'locked=1'
expect "coldplug loaded the e1000 module" in_modules e1000
expect "e1000 never bound" pci_driver 8086:100e none
expect "the kernel denied e1000 when it registered" kmsg_has 'driver_filter: denied pci:e1000'
expect "status --json: e1000's allowed bit is 0" json_has '"name":"e1000","module":"e1000","builtin":false,"decision":"denied","rule":"\[filter\] default = deny","kernel_allowed":false,"devices":\[\]'
expect "the built-in xhci_hcd was detached" pci_driver 1b36:000d none
expect "virtio-blk is driven" pci_driver 1af4:1001 virtio-pci
expect "status --json: locked, no violation" json_has '"locked":true'
expect "status --json: no violation" json_has '"violations":\[\]'
