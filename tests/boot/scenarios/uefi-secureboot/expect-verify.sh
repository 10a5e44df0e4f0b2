# shellcheck shell=sh
# shellcheck disable=SC2154 # here, scenario, tmp, evidence, shipped: set by check-scenario.sh and uefi-evidence.sh
# The verifier's half on the UEFI guest's real evidence, by the README's
# recipe: tpm2_checkquote checks each quote's signature and the fresh nonce,
# tpm2_eventlog replays the firmware's log, drvfilterctl verify replays
# drvfilter's log onto it and checks both against the quote. The boot's
# quote is accepted for the shipped policy and names the UKI's PCR 11; the
# same evidence is refused for another policy, with a forged record, or a
# stale nonce; the quotes after a run-time apply in audit mode and after an
# apply that failed closed are refused, each with its reason.
# shellcheck disable=SC1091 # the scenario's shared checks
. "$here/uefi-evidence.sh"
expect "the README has the recipe" test -s "$tmp/recipe.sh"
expect "the guest ran the README's half of it" guest_recipe_ran
expect "verify accepts the boot for the shipped policy" verifier boot "$shipped" fallback
expect "drvfilter's PCR 15 replays to the quoted value" verifier_says '^ok: PCR 15 (sha256) '
expect "the firmware log replays to PCR 7 (Secure Boot's)" verifier_says '^ok: PCR 7 (sha256) .*: the firmware log replays'
no_note() { ! verifier_says '^note: '; }
expect "and to every other PCR it measured" no_note
expect "the values are the quote's" verifier_says '^ok: the quote covers the PCR values given, over the nonce$'
expect "the UKI's PCR 11 is named for pinning" verifier_says '^image: PCR 11 (sha256) [0-9a-f]\{64\}: the unified kernel image'
expect "and the values a tpm_policy pins" verifier_says '^tpm_policy: {"11":\["[0-9a-f]\{64\}"\],"15":\["[0-9a-f]\{64\}"\]}$'
# What else measured the boot, in the checked quote: IMA's boot aggregate.
ima_extended() { grep -Eiq '^ *10 *: 0x0*[1-9a-f]' "$tmp/verifier-boot/quoted.yaml"; }
expect "IMA extended PCR 10 (the quote says so)" ima_extended
expect "verify refuses the boot for another policy" verifier_rejects boot "$here/scenarios/measure-shipped/other-policy.conf" fallback
expect "because it ran another policy" verifier_says '^FAIL: record 1 (PCR 15): the policy applied has sha256 '
# A forged record: the event's text made to say kernel mode, its digests kept.
forge() {
	sed 's/mode=fallback/mode=kernel/' "$evidence/boot.log" >"$evidence/forged.log"
	! cmp -s "$evidence/boot.log" "$evidence/forged.log" || return 1
	for x in msg sig pcrs; do cp "$evidence/boot.$x" "$evidence/forged.$x"; done
}
expect "a forged record can be made" forge
expect "verify refuses the forged record" verifier_rejects forged "$shipped" kernel
expect "because its digest is not its text's" verifier_says 'its digest is not the SHA-256 of its text'
# A quote over another nonce than the verifier's: a replay of old evidence.
echo 00112233445566778899aabbccddeeff >"$tmp/stale-nonce"
stale() { nonce_file=$tmp/stale-nonce verifier boot "$shipped" fallback; }
expect "tpm2_checkquote refuses a quote over another nonce" not stale
verify_never_ran() { ! verifier_says '^expected: '; }
expect "so verify never ran" verify_never_ran
expect "the run-time apply in audit mode was measured" grep -qx 'DRVFILTER-QUOTE: audit status=0' "$console"
expect "verify refuses the quote after it" verifier_rejects audit "$shipped" fallback
expect "because audit mode enforces nothing" verifier_says 'the mode was audit, expected fallback (audit mode enforces nothing)'
expect "the run-time apply of an unusable policy failed closed" grep -qx 'DRVFILTER-APPLY-BROKEN: status=1' "$console"
expect "verify refuses the quote after it" verifier_rejects failed "$shipped" fallback
expect "because the apply failed closed" verifier_says 'failed closed: its policy could not be used'
