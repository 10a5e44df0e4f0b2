# shellcheck shell=sh
# Device rules in kernel mode, on the patched kernel booted with the policy's
# boot options (sourced by check-scenario.sh). The qemu file makes QEMU's
# virtio devices modern (the root disk 1af4:1042, the network 1af4:1041) and
# adds a legacy network device (1af4:1000) that the policy's device rules
# refuse virtio-pci: the kernel keeps virtio-pci from it from its first
# probe on, on every way to attach it, so there is nothing to unbind.
not_kmsg_has() { ! kmsg_has "$1"; }
expect "enforced in kernel mode" state_has '"mode": "kernel"'
expect "the device rules are on the command line" console_has '"filter_allow_drivers=pci:virtio-pci@1af4:1041,virtio-pci@1af4:1042;'
expect "the allow list in the kernel has them" filter_is 'allow=pci:virtio-pci@1af4:1041,virtio-pci@1af4:1042;virtio:virtio_blk,virtio_net;platform:serial8250'
expect "the kernel policy is locked" filter_is 'locked=1'
expect "the modern virtio-blk root disk is driven" pci_driver 1af4:1042 virtio-pci
expect "the virtio disk exists" console_has 'virtio_blk virtio0: \[vda\]'
expect "the modern virtio-net is driven" pci_driver 1af4:1041 virtio-pci
expect "virtio_net drives it" json_has '"name":"virtio_net","module":"virtio_net","builtin":true,"decision":"allowed","rule":"\[allow\] virtio = virtio_net","kernel_allowed":true,"devices":\["virtio1"\]'
expect "the legacy virtio-net never bound" pci_driver 1af4:1000 none
expect "the kernel kept virtio-pci from it" kmsg_has 'driver_filter: kept pci:virtio-pci from 0000:00:06.0: no device rule matches 1af4:1000:1af4:0001'
expect "so user space had nothing to unbind or pin" not_kmsg_has 'drvfilter: action=.* device=0000:00:06.0'
expect "status: the legacy device refused by its rule" status_text_has '^  pci 0000:00:06.0 unbound (1af4:1000:1af4:0001) virtio-pci: refused: no device rule of the driver matches (\[allow\] pci = virtio-pci@1af4:1041, ...)$'
expect "status --json: the same" json_has '{"bus":"pci","device":"0000:00:06.0","ids":\["1af4:1000:1af4:0001"\],"driver":"virtio-pci","bound":false,"decision":"refused","rule":"\[allow\] pci = virtio-pci@1af4:1041"}'
expect "status: virtio-pci's allowed bit is 1" json_has '"name":"virtio-pci","module":"virtio_pci","builtin":true,"decision":"allowed","rule":"\[allow\] pci = virtio-pci@1af4:1041","kernel_allowed":true'
expect "status --json: no violation" json_has '"violations":\[\]'
expect "status --json: no drift" json_has '"drift":\[\]'
