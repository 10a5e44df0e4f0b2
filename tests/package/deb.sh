#!/bin/sh
# The Debian package dpkg-buildpackage built (build-deb.sh, into OUT-DIR): its
# control fields (dependencies, conffiles, the initramfs trigger) and files
# checked, then installed with dpkg into a scratch root (its own dpkg
# database; the host's libraries serve the binaries; the maintainer scripts
# run outside it, with DPKG_ROOT, as debhelper's are written for), where the
# installed drvfilterctl checks the installed policy. A reinstall over an
# edited /etc/drvfilter.conf keeps the admin's file (a conffile).
# Usage: deb.sh OUT-DIR
set -u
out=$(cd "$1" && pwd)
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0
no() { echo "FAIL: $*" && fail=1; }

deb=$(ls "$out"/drvfilter_*.deb) || exit 1
field() { dpkg-deb -f "$deb" "$1"; }
for dep in libiniparser1 libkmod2 liblzma5 libudev1 udev; do
	field Depends | grep -q "$dep" || no "Depends lacks $dep"
done
field Recommends | grep -qx 'dracut | initramfs-tools' || no "Recommends is not 'dracut | initramfs-tools'"
control() { dpkg-deb --ctrl-tarfile "$deb" | tar -xO "./$1"; }
control conffiles | grep -qx /etc/drvfilter.conf || no "/etc/drvfilter.conf is not a conffile"
# Every initramfs carries the helper and the policy: installing, upgrading and
# removing the package has dracut or initramfs-tools rebuild them.
control triggers | grep -qx 'activate-noawait update-initramfs' ||
	no "the package does not activate the update-initramfs trigger"
dpkg-deb -c "$deb" | awk '{print $NF}' | grep -v '/$' | sed 's|^\.||' | LC_ALL=C sort >"$tmp/files"
for f in /etc/drvfilter.conf /usr/sbin/drvfilter-apply /usr/sbin/drvfilterctl \
	/usr/lib/dracut/modules.d/90drvfilter/module-setup.sh /usr/lib/dracut/dracut.conf.d/50-drvfilter.conf \
	/usr/share/man/man5/drvfilter.conf.5.gz /usr/share/man/man8/drvfilterctl.8.gz \
	/usr/share/man/man8/drvfilter-apply.8.gz \
	/usr/share/bash-completion/completions/drvfilterctl /usr/share/doc/drvfilter/copyright \
	/usr/share/doc/drvfilter/changelog.gz; do
	grep -qx "$f" "$tmp/files" || no "the package lacks $f"
done
grep -q 'rules.d/90-drvfilter.rules$' "$tmp/files" || no "the package lacks the udev rule"
grep -qx /usr/lib/dracut/modules.d/99drvfilter-blacklist/module-setup.sh "$tmp/files" ||
	no "the package lacks the 99drvfilter-blacklist dracut module"
for f in hooks/zz-drvfilter scripts/init-top/drvfilter scripts/init-bottom/drvfilter; do
	grep -qx "/usr/share/initramfs-tools/$f" "$tmp/files" || no "the package lacks initramfs-tools' $f"
done
grep -q 'systemd/system/drvfilter-apply-initrd.service$' "$tmp/files" ||
	no "the package lacks the initrd's unit"
grep -qx /usr/lib/dracut/modules.d/90drvfilter/drvfilter-pivot-hook.sh "$tmp/files" ||
	no "the package lacks the pre-pivot hook"
grep -q 'systemd/system/drvfilter-apply.service$' "$tmp/files" || no "the package lacks the unit"
# Enabled by the package itself: the link into sysinit.target.wants is in it.
dpkg-deb -c "$deb" |
	grep -q 'systemd/system/sysinit.target.wants/drvfilter-apply.service -> \.\./drvfilter-apply.service$' ||
	no "the package does not link the unit into sysinit.target.wants"
# Installing must not run the unit: that would enforce the policy on the running system.
if control postinst | grep -q 'deb-systemd-invoke.*start'; then
	no "the postinst starts drvfilter-apply.service"
fi

root=$tmp/root
mkdir -p "$root/var/lib/dpkg/info" "$root/var/lib/dpkg/updates"
: >"$root/var/lib/dpkg/status"
install() {
	dpkg --root="$root" --force-depends --force-script-chrootless "$@" -i "$deb" >"$tmp/log" 2>&1
}
install || { cat "$tmp/log" && no "dpkg -i failed"; }
dpkg-query --admindir="$root/var/lib/dpkg" -W -f '${Status} ${Conffiles}\n' drvfilter >"$tmp/query"
grep -q '^install ok installed' "$tmp/query" || no "dpkg does not list the package as installed"
grep -q '/etc/drvfilter.conf [0-9a-f]\{32\}' "$tmp/query" || no "dpkg does not track the conffile"
[ -L "$root/lib/systemd/system/sysinit.target.wants/drvfilter-apply.service" ] ||
	no "the unit is not pulled in by sysinit.target once installed"
# No initramfs builder in the scratch root to serve the trigger: the admin is told.
grep -q 'drvfilter: no initramfs carries drvfilter yet, and no initramfs builder is installed' "$tmp/log" ||
	no "the postinst does not say that no builder puts drvfilter into an initramfs"
"$root/usr/sbin/drvfilterctl" check "$root/etc/drvfilter.conf" || no "drvfilterctl check failed in the scratch root"

echo "# the admin's" >>"$root/etc/drvfilter.conf"
install --force-confold || { cat "$tmp/log" && no "the reinstall failed"; }
tail -n 1 "$root/etc/drvfilter.conf" | grep -q "the admin's" || no "the reinstall replaced the admin's policy"

dpkg --root="$root" --force-depends --force-script-chrootless -r drvfilter >"$tmp/log" 2>&1 ||
	{ cat "$tmp/log" && no "dpkg -r failed"; }
grep -q "still carries drvfilter's helper and policy until it is rebuilt" "$tmp/log" ||
	no "the postrm does not say the initramfs must be rebuilt (no builder to serve the trigger)"
[ ! -e "$root/usr/sbin/drvfilter-apply" ] || no "the helper is still there after dpkg -r"
[ "$fail" = 0 ] && echo "ok: $(basename "$deb"), $(wc -l <"$tmp/files") files, installed, checked and removed"
exit $fail
