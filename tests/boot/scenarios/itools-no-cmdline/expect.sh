# shellcheck shell=sh
# stock-no-cmdline's guest (no boot options: userspace's best effort) with
# its image built by initramfs-tools: every check of stock-no-cmdline holds.
# shellcheck disable=SC2154 # $scenario is check-scenario.sh's
. "$scenario/../stock-no-cmdline/expect.sh"
expect "the image's own blacklist names e1000" console_has '^DRVFILTER-EARLY-BLACKLIST:.* e1000 '
expect "the e1000 module never loaded" not_in_modules e1000
expect "nothing is bound to the e1000 device" pci_driver 8086:100e none
expect "the xHCI controller's module never loaded" not_in_modules xhci_pci
