# shellcheck shell=sh
# The GCP/AWS shape on Debian's stock kernel: the root disk is NVMe
# (root=/dev/nvme0n1, QEMU's NVMe controller on a null disk) and the network
# virtio-net, under the shipped gcp profile with the boot options `drvfilterctl
# cmdline` computes for it. The initramfs finds its root on NVMe, the network
# is driven, what the profile leaves out never runs, and status says
# Violations: none.
expect "the boot options are on the command line" console_has '^DRVFILTER-CMDLINE: .*initcall_blacklist=[a-z0-9_,]*i8042_init.* module_blacklist=[a-z0-9_,]*'
expect "the root is the NVMe disk" console_has '^DRVFILTER-CMDLINE: .*root=/dev/nvme0n1'
expect "nvme drives the NVMe controller" pci_driver 1b36:0010 nvme
expect "the root disk, the NVMe namespace, is there" console_has '^DRVFILTER-BLOCK:.* nvme0n1 '
expect "the other disk, virtio-blk, is not" not_console_has '^DRVFILTER-BLOCK:.* vda '
expect "virtio-net is driven" pci_driver 1af4:1000 virtio-pci
expect "virtio_net drives its device" json_has '"bus":"virtio","name":"virtio_net",[^}]*"devices":\["virtio[0-9]"\]'
expect "the profile's virtio_blk never bound the other disk" not_in_modules virtio_blk
expect "e1000 never loaded" not_in_modules e1000
expect "i8042 never registered" not_registered platform:i8042
expect "status --json: no violation" json_has '"violations":\[\]'
expect "status says Violations: none" status_text_has '^Violations: *none'
