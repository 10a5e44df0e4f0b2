# shellcheck shell=sh
# shellcheck disable=SC2154 # here, scenario: set by check-scenario.sh
# A verifier that expects another policy than the one a guest ran: the
# shipped guest's evidence checked against other-policy.conf (the stock
# fallback scenario's). verify's answer depends only on the evidence and
# what it is told to expect, so this guest's boot serves; the log is sound
# and replays to the PCR, and verify still refuses it, naming the policy.
# shellcheck disable=SC1091 # the scenarios' shared checks
. "$here/measure.sh"
expect "apply extended PCR 15" state_has '"tpm": "measured"'
expect "verify refuses the guest for another policy" verify_rejects --expect-policy "$scenario/other-policy.conf" --expect-mode fallback
expect "because it ran another policy" verify_says '^FAIL: record 1 (PCR 15): the policy applied has sha256 '
expect "the log is sound: it replays to the PCR" verify_says '^ok: PCR 15 (sha256)'
