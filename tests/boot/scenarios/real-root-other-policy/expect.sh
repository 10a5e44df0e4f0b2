# shellcheck shell=sh
# The real root's policy is not the one the initramfs enforced (it was edited
# and the initramfs not rebuilt). Fallback mode has no lock: from the real
# root on, its policy is applied (the NIC's pcnet32 loads and drives it), and
# status reports the drift until the initramfs is rebuilt.
expect "before switch_root, the initramfs's blacklist named pcnet32" initrd_state_has '"module": "pcnet32"'
expect "the unit ran without error" console_has '^DRVFILTER-ROOT: switched root; drvfilter-apply.service is static, active, result success, status 0'
expect "the real root's blacklist does not name pcnet32" not_state_has '"module": "pcnet32"'
expect "so coldplug loaded it" in_modules pcnet32
expect "and it drives the NIC" pci_driver 1022:2000 pcnet32
expect "virtio_rng, denied by both, never loaded" not_in_modules virtio_rng
expect "the state keeps the initramfs's policy on record" state_has '"initramfs_sha256": "[0-9a-f]\{64\}"'
expect "status --json: drift, rebuild the initramfs" json_has '"drift":\[{"code":"initramfs_policy","text":"the initramfs enforced another policy (sha256 [0-9a-f]*) than the one on disk: rebuild the initramfs'
