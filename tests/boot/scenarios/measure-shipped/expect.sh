# shellcheck shell=sh
# shellcheck disable=SC2154 # here, scenario, shipped: set by check-scenario.sh and measure.sh
# The shipped policy on Debian's stock kernel with swtpm as the guest's TPM:
# apply extends PCR 15, the guest reads it back, and verify on the host
# replays the log to that value and accepts the policy.
# shellcheck disable=SC1091 # the scenarios' shared checks
. "$here/measure.sh"
expect "the scenario boots the shipped policy" cmp -s "$scenario/policy.conf" "$shipped"
expect "the TPM's driver is allowed and drives it" json_has '"name":"tpm_tis","module":"tpm_tis","builtin":true,"decision":"allowed","rule":"\[allow\] pnp = tpm_tis"'
expect "apply extended PCR 15" state_has '"tpm": "measured"'
expect "with no failed action" state_has '"errors": 0'
expect "the log holds the event" evlog_has '"pcr":15,.*"string":"drvfilter-apply/1 policy='
expect "tpm2_pcrread read PCR 15 in the guest" console_has '^DRVFILTER-PCRREAD-END status=0'
expect "the kernel's TPM driver reads the same value" pcr15_as_sysfs
expect "verify accepts the shipped policy in fallback mode" verify --expect-policy "$shipped" --expect-mode fallback
expect "the replay equals the PCR read" verify_says '^ok: PCR 15 (sha256)'
expect "status says PCR 15 was measured" status_has '^Measured:   PCR 15'
expect "verify refuses it as kernel mode, locked" verify_rejects --expect-policy "$shipped" --expect-mode kernel --expect-locked
expect "and says why" verify_says 'the mode was fallback, expected kernel'
