# shellcheck shell=sh
# What a UEFI guest hands its verifier (sourced by report.sh): the kernel's
# lockdown, the firmware's event log, and TPM quotes of PCRs 0-23 over the
# verifier's fresh nonce, which the host puts on a disk of its own (serial
# drvfilter-nonce), each with the event log as it was then. The attestation
# key is made here under the TPM's endorsement key; swtpm has no EK
# certificate, so the host trusts the key the guest prints (a real verifier
# checks it against the EK's certificate). After the boot's quote (boot),
# two applies at run time give evidence a verifier must refuse: one of the
# policy in audit mode (audit), one of a policy that cannot be used, which
# fails closed (failed). Each file goes out in base64 between
# DRVFILTER-FILE-BEGIN/END lines.
# The kernel's own console lines would cut into them: quiet first.
dmesg -n 1
[ -e /sys/kernel/security/lockdown ] || mount -t securityfs securityfs /sys/kernel/security
echo "DRVFILTER-LOCKDOWN: $(cat /sys/kernel/security/lockdown)"
nonce=
for b in /sys/block/vd*; do
    [ "$(cat "$b/serial" 2>/dev/null)" = drvfilter-nonce ] && nonce=$(head -c 32 "/dev/${b##*/}")
done
echo "DRVFILTER-NONCE: $nonce"
a=/run/drvfiltertest-attest
mkdir -p "$a"
export TPM2TOOLS_TCTI=device:/dev/tpmrm0
# The guest's half of README.md's recipe, its lines as written there (the
# host checks they are); each quote's files then renamed NAME.*.
cd "$a" || exit 1
tpm2_createek -G ecc -c ek.ctx && tpm2_createak -C ek.ctx -c ak.ctx -G ecc -g sha256 -s ecdsa -u ak.pem -f pem
echo "DRVFILTER-AK: status=$?"
# quote NAME: a quote and the two logs it goes with, as NAME.*
quote() {
    tpm2_quote -c ak.ctx -l sha256:0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23 \
        -q "$nonce" -m quote.msg -s quote.sig -o quote.pcrs -g sha256
    echo "DRVFILTER-QUOTE: $1 status=$?"
    cp /sys/kernel/security/tpm0/binary_bios_measurements /run/log/systemd/tpm2-measure.log .
    for x in msg sig pcrs; do mv "quote.$x" "$1.$x"; done
    mv tpm2-measure.log "$1.log"
    mv binary_bios_measurements firmware.log
}
quote boot
sed 's/^mode .*/mode = audit/' /etc/drvfilter.conf >/run/drvfiltertest-audit.conf
/usr/sbin/drvfilter-apply --policy /run/drvfiltertest-audit.conf
echo "DRVFILTER-APPLY-AUDIT: status=$?"
quote audit
printf '[filter]\ndefault = nothing\n' >/run/drvfiltertest-broken.conf
/usr/sbin/drvfilter-apply --policy /run/drvfiltertest-broken.conf
echo "DRVFILTER-APPLY-BROKEN: status=$?"
quote failed
for f in ak.pem firmware.log boot.msg boot.sig boot.pcrs boot.log audit.msg audit.sig audit.pcrs audit.log \
    failed.msg failed.sig failed.pcrs failed.log; do
    [ -e "$f" ] || continue
    echo "DRVFILTER-FILE-BEGIN $f"
    base64 <"$f"
    echo "DRVFILTER-FILE-END $f"
done
cd / || exit 1
