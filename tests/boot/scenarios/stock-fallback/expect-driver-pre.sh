# shellcheck shell=sh
# The classic initrd with rd.driver.pre=virtio_rng: dracut's cmdline hook
# runs modprobe for it before the pre-udev hook; the install line of the
# image's own blacklist refuses it.
expect "the image's own blacklist names virtio_rng" console_has '^DRVFILTER-EARLY-BLACKLIST:.* virtio_rng '
expect "the virtio_rng module never loaded" not_in_modules virtio_rng
expect "so nothing had to be unbound from it" not_kmsg_has 'action=unbind bus=virtio driver=virtio_rng'
expect "the virtio-rng device is not driven" json_has '"device":"virtio[0-9]*","modalias":"virtio:d00000004v00001AF4"'
expect "virtio-blk is driven" pci_driver 1af4:1001 virtio-pci
expect "status --json: no violation" json_has '"violations":\[\]'
