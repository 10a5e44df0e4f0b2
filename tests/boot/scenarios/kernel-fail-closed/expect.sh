# shellcheck shell=sh
# Checks on a boot whose policy cannot be trusted: fail closed, loudly.
expect "the helper refused the policy" kmsg_has 'drvfilter: action=error /etc/drvfilter.conf: is writable by group or others'
expect "and said it fails closed" kmsg_has 'drvfilter: action=fail-closed'
expect "the state file records it" state_has '"fail_closed": true'
expect "every driver is denied in the kernel" filter_is 'deny=ALL:ALL'
expect "with nothing allowed" filter_is 'allow='
expect "and locked" filter_is 'locked=1'
expect "the disk bound before user space stays" pci_driver 1af4:1001 virtio-pci
expect "e1000, loaded by coldplug, never bound" pci_driver 8086:100e none
expect "status reports the policy as drift" json_has '"drift":\[{"code":"policy_invalid","text":"the policy on disk is not valid'
