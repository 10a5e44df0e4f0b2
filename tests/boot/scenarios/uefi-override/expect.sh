# shellcheck shell=sh
# shellcheck disable=SC2154 # here, shipped: set by check-scenario.sh and uefi-evidence.sh
# The UEFI guest of uefi-secureboot with drvfilter=off in its UKI's command
# line (a UKI of its own: under Secure Boot, systemd-stub takes no other):
# nothing is enforced, the measurement says so, and the README's recipe on
# its real evidence refuses it.
# shellcheck disable=SC1091 # the scenario's shared checks
. "$here/uefi-evidence.sh"
expect "the firmware booted the signed UKI under Secure Boot" console_has 'secureboot: Secure boot enabled'
expect "the override was on the UKI's command line" grep -q '^DRVFILTER-CMDLINE:.* drvfilter=off' "$console"
expect "the override was applied" kmsg_has 'drvfilter: action=override drvfilter=off'
expect "verify refuses the guest" verifier_rejects boot "$shipped" fallback
expect "because nothing was enforced" verifier_says 'drvfilter=off was on the kernel command line: nothing was enforced'
expect "its logs are sound: they replay to the quote" verifier_says '^ok: PCR 15 (sha256) '
