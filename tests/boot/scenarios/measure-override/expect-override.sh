# shellcheck shell=sh
# drvfilter=off on the kernel command line: nothing enforced, recorded, loud.
expect "the e1000 module loaded" in_modules e1000
expect "e1000 drives its device" pci_driver 8086:100e e1000
expect "the state file records the override" state_has '"override": true'
expect "the state file records no action" state_has '"actions": \[\]'
expect "status --json reports it as drift" json_has '"drift":\[{"code":"override","text":"drvfilter=off was on the kernel command line'
expect "the kernel log says so" kmsg_has 'drvfilter: action=override drvfilter=off'
