# shellcheck shell=sh
# Audit mode on the stock kernel (sourced by check-scenario.sh): the policy
# denies e1000, yet nothing is enforced: no blacklist, e1000 loads and
# drives its device; the kernel log says what enforcement would have done,
# and status lists e1000 as what would have been denied.
expect "the e1000 module loaded" in_modules e1000
expect "e1000 drives its device" pci_driver 8086:100e e1000
expect "virtio-blk is driven" pci_driver 1af4:1001 virtio-pci
expect "the kernel log: e1000 would be blacklisted" kmsg_has 'drvfilter: action=would-blacklist modules=\(.*,\)\?e1000[, ].*result=audit'
expect "no blacklist was written" not_kmsg_has 'action=blacklist '
expect "nothing was unbound" not_kmsg_has 'action=unbind '
expect "status --json: audit" json_has '"audit":true'
expect "status --json: guarantee none" json_has '"guarantee":"none: audit mode'
expect "status --json: e1000 is what would be denied" json_has '"violations":\[[^]]*"driver":"e1000"'
expect "status exits 3" console_has '^DRVFILTER-STATUS-END status=3'
