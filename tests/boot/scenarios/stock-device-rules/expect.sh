# shellcheck shell=sh
# Device rules in fallback mode, on Debian's stock kernel (sourced by
# check-scenario.sh). The qemu file makes QEMU's virtio devices modern
# (the root disk 1af4:1042, the network 1af4:1041) and adds a legacy network
# device (1af4:1000) that the policy's device rules refuse virtio-pci.
#
# What this mode can promise: the legacy device ends unbound and pinned away
# ("none" in its driver_override), so nothing binds it again, and status says
# so. What it cannot: the kernel knows no policy, so when coldplug loads
# virtio_pci it binds the legacy device too, and its probe runs (and
# virtio_net's may), until the udev bind handler unbinds it, a moment later.
# Only kernel mode keeps virtio-pci from ever running against it.
expect "fallback mode" json_has '"mode":"fallback"'
expect "the modern virtio-blk root disk is driven" pci_driver 1af4:1042 virtio-pci
expect "the virtio disk exists" console_has 'virtio_blk virtio0: \[vda\]'
expect "the modern virtio-net is driven" pci_driver 1af4:1041 virtio-pci
expect "virtio_net drives it" json_has '"name":"virtio_net","module":"virtio_net","builtin":false,"decision":"allowed","rule":"\[filter\] default = allow","kernel_allowed":null,"devices":\["virtio1"\]'
expect "the legacy virtio-net ends unbound" pci_driver 1af4:1000 none
expect "it had bound: the udev handler unbound it" kmsg_has 'drvfilter: action=unbind bus=pci driver=virtio-pci device=0000:00:06.0 result=ok'
expect "and pinned it away" kmsg_has 'drvfilter: action=pin bus=pci driver=virtio-pci device=0000:00:06.0 value=none result=ok'
expect "status: the legacy device refused by its rule" status_text_has '^  pci 0000:00:06.0 unbound (1af4:1000:1af4:0001) virtio-pci: refused: no device rule of the driver matches (\[allow\] pci = virtio-pci@1af4:1041, ...)$'
expect "status --json: the same" json_has '{"bus":"pci","device":"0000:00:06.0","ids":\["1af4:1000:1af4:0001"\],"driver":"virtio-pci","bound":false,"decision":"refused","rule":"\[allow\] pci = virtio-pci@1af4:1041"}'
expect "status: the modern ones allowed by theirs" status_text_has '^  pci 0000:00:03.0 (1af4:1041:1af4:1100) virtio-pci: allowed by \[allow\] pci = virtio-pci@1af4:1041$'
expect "status --json: no violation" json_has '"violations":\[\]'
expect "the state file records no error" state_has '"errors": 0'
