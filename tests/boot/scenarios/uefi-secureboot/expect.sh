# shellcheck shell=sh
# shellcheck disable=SC2154 # out, tmp, shipped, evidence: set by check-scenario.sh and uefi-evidence.sh
# A guest booted as a cloud CVM boots: OVMF under Secure Boot (Debian's
# snakeoil keys), a signed unified kernel image that dracut --uefi built
# with systemd-stub, drvfilter's image and the computed boot options in its
# .cmdline, swtpm as its TPM. The shipped policy runs and is measured.
# shellcheck disable=SC1091 # the scenario's shared checks
. "$here/uefi-evidence.sh"
expect "the scenario boots the shipped policy" cmp -s "$scenario/policy.conf" "$shipped"
expect "the firmware booted the signed UKI under Secure Boot" console_has 'secureboot: Secure boot enabled'
expect "and so the kernel is locked down" grep -qx 'DRVFILTER-LOCKDOWN: none \[integrity\] confidentiality' "$console"
# The UKI's .cmdline is the command line: the boot options are on it.
uki_options() {
	opts=$(jq -r '.cmdline' "$out/cmdline.json")
	[ -n "$opts" ] && grep '^DRVFILTER-CMDLINE:' "$console" | grep -qF -- "$opts"
}
expect "the UKI's .cmdline carries the computed boot options" uki_options
expect "which keep the denied drivers' init calls from running" none_registered_of_options
expect "the TPM's driver is allowed and drives it" json_has '"name":"tpm_tis","module":"tpm_tis","builtin":true,"decision":"allowed"'
expect "apply measured into PCR 15, the default" kmsg_has 'drvfilter: action=measure pcr=15 digest=sha256:'
expect "with no failed action" state_has '"errors": 0'
measured_15() { section DRVFILTER-STATUS | grep -q '^Measured:   PCR 15'; }
expect "status names the register" measured_15
expect "the firmware's event log was handed over" test -s "$evidence/firmware.log"
expect "the boot's quote was made over the nonce" grep -qx 'DRVFILTER-QUOTE: boot status=0' "$console"
