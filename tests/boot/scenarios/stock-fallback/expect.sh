# shellcheck shell=sh
# The stock-kernel fallback boot (sourced by check-scenario.sh): the guest
# of policy.conf, shared with expect-builtin.sh, expect-dropins.sh and
# expect-driver-pre.sh.
expect "the e1000 module never loaded" not_in_modules e1000
expect "nothing is bound to the e1000 device" pci_driver 8086:100e none
expect "virtio-blk is driven" pci_driver 1af4:1001 virtio-pci
expect "virtio-net is driven" pci_driver 1af4:1000 virtio-pci
expect "the virtio disk exists" console_has 'virtio_blk virtio0: \[vda\]'
expect "status --json: fallback mode" json_has '"mode":"fallback"'
expect "status --json: no violation" json_has '"violations":\[\]'
# (virtio_rng: the guest has its device, and 10-virtio.conf denies it.)
expect "status --json: the missing boot options are drift" json_has '"drift":\[{"code":"cmdline_missing","text":"the kernel command line lacks boot options computed for this system (module_blacklist: e1000, virtio_rng)'
expect "the state file records the e1000 blacklist" state_has '"module": "e1000"'
expect "the state file records no error" state_has '"errors": 0'
expect "the kernel log's blacklist lines name e1000" kmsg_has 'drvfilter: action=blacklist modules=\(.*,\)\?e1000[, ].*result=ok'
