# shellcheck shell=sh
# shellcheck disable=SC2154,SC2034 # tmp, stage, here, console, out: set by check-scenario.sh; shipped: for expect*.sh
# What the UEFI scenario's checks share (sourced by its expect*.sh): the
# guest's evidence taken off its console (attest.sh: the attestation key,
# the firmware's event log, and for each quote, boot, audit and failed, the
# quote and drvfilter's event log as they were then), and the README's
# verifier recipe, run as it is written there on one quote.
evidence=$tmp/evidence
mkdir -p "$evidence"
for f in ak.pem firmware.log boot.msg boot.sig boot.pcrs boot.log audit.msg audit.sig audit.pcrs audit.log \
	failed.msg failed.sig failed.pcrs failed.log; do
	sed -n "/^DRVFILTER-FILE-BEGIN $f\$/,/^DRVFILTER-FILE-END $f\$/p" "$console" | sed '1d;$d' |
		base64 -d >"$evidence/$f" 2>/dev/null || rm -f "$evidence/$f"
done
shipped=$here/../../conf/drvfilter.conf
# The recipe: README.md's lines from tpm2_checkquote to release-the-secret,
# the last replaced by true.
sed -n '/^    tpm2_checkquote /,/^    release-the-secret$/p' "$here/../../README.md" |
	sed 's/^    //; s/^release-the-secret$/true/' >"$tmp/recipe.sh"
# The guest's half: README.md's lines from its "# guest:" comment to the
# verifier's next one, each as written in attest.sh, which ran them.
sed -n '/^    # guest: /,/^    # verifier: /p' "$here/../../README.md" | grep -v '^    #' |
	sed 's/^ *//' >"$tmp/guest-recipe"
guest_recipe_ran() {
	[ -s "$tmp/guest-recipe" ] || return 1
	while IFS= read -r l; do
		grep -qF -- "$l" "$here/dracut/95drvfiltertest/attest.sh" || { echo "  not in attest.sh: $l"; return 1; }
	done <"$tmp/guest-recipe"
}
# verifier QUOTE POLICY MODE: the recipe on that quote, in a directory of
# its own with the files named as the README names them; its output kept.
# The nonce is the one the guest was given ($nonce_file: another).
verifier() {
	d=$tmp/verifier-$1
	rm -rf "$d"
	mkdir -p "$d"
	cp "$evidence/ak.pem" "$d/ak.pem"
	cp "$evidence/firmware.log" "$d/binary_bios_measurements"
	for x in msg sig pcrs; do cp "$evidence/$1.$x" "$d/quote.$x"; done
	cp "$evidence/$1.log" "$d/tpm2-measure.log"
	cp "$2" "$d/drvfilter.conf"
	(cd "$d" && PATH=$stage/usr/sbin:$PATH nonce=$(cat "${nonce_file:-$out/nonce}") mode=$3 sh -e "$tmp/recipe.sh") \
		>"$tmp/verifier.out" 2>&1
	status=$?
	sed 's/^/  VERIFIER: /' "$tmp/verifier.out"
	return $status
}
verifier_rejects() { ! verifier "$@"; }
not() { ! "$@"; }
verifier_says() { grep -q -- "$1" "$tmp/verifier.out"; }
