# shellcheck shell=sh
# shellcheck disable=SC2154 # here, scenario, shipped: set by check-scenario.sh and measure.sh
# A policy that cannot be used (writable by anyone in the image): the boot
# fails closed, the TPM (bound before) stays, the measurement says so, and
# verify refuses the guest. On a stock kernel failing closed denies the
# disk's module too: the guest reports when the initqueue gives up
# (rd.retry=10), and its evidence is what a verifier would get.
# shellcheck disable=SC1091 # the scenarios' shared checks
. "$here/measure.sh"
expect "the boot failed closed" kmsg_has 'drvfilter: action=fail-closed'
expect "the TPM stayed bound: its driver reads PCR 15 as tpm2_pcrread does" pcr15_as_sysfs
expect "it was measured" evlog_has 'policy=none mode=fallback fail-closed=yes'
expect "verify refuses the guest" verify_rejects --expect-policy "$shipped" --expect-mode fallback
expect "because it failed closed" verify_says 'the boot failed closed: its policy could not be used'
