# shellcheck shell=sh
# A policy split over drop-ins, carried into the image by the dracut module
# (sourced by check-scenario.sh). The deny of e1000 is only in a drop-in: it
# holds in the guest, the helper blacklisted e1000, and status names the
# files it loaded. (Without the drop-ins in the image, the image's own
# blacklist, computed from the whole set when dracut ran, still keeps e1000
# out: the checks on the state and status are the ones that tell.)
expect "the e1000 module never loaded" not_in_modules e1000
expect "nothing is bound to the e1000 device" pci_driver 8086:100e none
expect "virtio-blk is driven" pci_driver 1af4:1001 virtio-pci
expect "the virtio disk exists" console_has 'virtio_blk virtio0: \[vda\]'
expect "status --json: the four files of the policy" json_has '"files":\["/etc/drvfilter.conf","/etc/drvfilter.conf.d/10-virtio.conf","/etc/drvfilter.conf.d/20-nic.conf","/etc/drvfilter.conf.d/30-legacy.conf"\]'
expect "status --json: the e1000 device's module is denied" json_has '"candidates":\[{"module":"e1000","decision":"denied"}\]'
expect "status --json: no violation" json_has '"violations":\[\]'
expect "the state file records the e1000 blacklist" state_has '"module": "e1000"'
expect "the state file records no error" state_has '"errors": 0'
