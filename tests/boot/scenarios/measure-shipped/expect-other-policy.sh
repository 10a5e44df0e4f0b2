# shellcheck shell=sh
# shellcheck disable=SC2154 # here, scenario, shipped: set by run-scenario.sh and measure.sh
# A guest booted with another policy than the shipped one: verify says so.
# shellcheck disable=SC1091 # the scenarios' shared checks
. "$here/measure.sh"
expect "apply extended PCR 8" state_has '"tpm": "measured"'
expect "verify refuses the guest for the shipped policy" verify_rejects --expect-policy "$shipped" --expect-mode fallback
expect "because it ran another policy" verify_says '^FAIL: record 1 (PCR 8): the policy applied has sha256 '
expect "the log is sound: it replays to the PCR" verify_says '^ok: PCR 8 (sha256)'
expect "verify accepts it for the policy it booted" verify --expect-policy "$scenario/policy.conf" --expect-mode fallback
