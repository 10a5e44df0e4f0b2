# shellcheck shell=sh
# systemd's initrd with dracut's qemu module (virtio_rng in the image) and a
# virtio-rng device: systemd's PID 1 loads virtio_rng as soon as it starts,
# and systemd-modules-load.service would load it for rd.modules-load= (the
# helper runs before it, but the image's own blacklist is there from the
# start): the blacklist keeps it out of both.
expect "systemd ran the initrd" console_has 'systemd\[1\]'
expect "the image's own blacklist names virtio_rng" console_has '^DRVFILTER-EARLY-BLACKLIST:.* virtio_rng '
expect "the virtio_rng module never loaded" not_in_modules virtio_rng
expect "so nothing had to be unbound from it" not_kmsg_has 'action=unbind bus=virtio driver=virtio_rng'
expect "the virtio-rng device is not driven" json_has '"device":"virtio[0-9]*","modalias":"virtio:d00000004v00001AF4"'
expect "virtio-blk is driven" pci_driver 1af4:1001 virtio-pci
expect "the helper's blacklist names virtio_rng too" state_has '"module": "virtio_rng"'
expect "status --json: no violation" json_has '"violations":\[\]'
