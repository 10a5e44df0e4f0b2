# shellcheck shell=sh
# shellcheck disable=SC2154,SC2034 # tmp, stage, here, console: set by check-scenario.sh; shipped: for expect.sh
# What the measurement scenarios share (sourced by their expect.sh): the
# guest's evidence taken off its console (the event log, and PCR 15 as
# tpm2_pcrread read it in the guest), and drvfilterctl verify run on it on
# the host, as a verifier would.
evidence=$tmp/evidence
mkdir -p "$evidence"
# One record a console line: each put back behind its record separator.
sed -n 's/^DRVFILTER-EVLOG: //p' "$console" | while IFS= read -r record; do
	printf '\036%s\n' "$record"
done >"$evidence/tpm2-measure.log"
section DRVFILTER-PCRREAD | sed '1d;$d' >"$evidence/pcrs"
shipped=$here/../../conf/drvfilter.conf
echo "EVENT-LOG:"
tr '\036' '\n' <"$evidence/tpm2-measure.log" | sed '/^$/d; s/^/  /'
echo "PCRS (tpm2_pcrread in the guest):"
sed 's/^/  /' "$evidence/pcrs"
# verify ARGS...: its output shown and kept, its status returned.
verify() {
	"$stage/usr/sbin/drvfilterctl" verify --event-log "$evidence/tpm2-measure.log" \
		--pcrs "$evidence/pcrs" "$@" >"$evidence/verify.out" 2>&1
	status=$?
	sed 's/^/  VERIFY: /' "$evidence/verify.out"
	return $status
}
verify_rejects() { ! verify "$@"; }
verify_says() { grep -q -- "$1" "$evidence/verify.out"; }
# The kernel's own TPM driver reads PCR 15 as tpm2-tools did.
pcr15_as_sysfs() {
	sysfs=$(sed -n 's/^DRVFILTER-SYSFS-PCR15: //p' "$console")
	[ -n "$sysfs" ] && grep -qi "^ *15 *: 0x$sysfs\$" "$evidence/pcrs"
}
evlog_has() { grep -q "^DRVFILTER-EVLOG: .*$1" "$console"; }
status_has() { section DRVFILTER-STATUS | grep -q "$1"; }
