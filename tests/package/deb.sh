#!/bin/sh
# The Debian package: built with cpack from BUILD-DIR, its control fields
# (dependencies, conffiles) checked, then installed with dpkg into a scratch
# root (its own dpkg database; the host's libraries serve the binaries),
# where the installed drvfilterctl checks the installed policy. A reinstall
# over an edited /etc/drvfilter.conf keeps the admin's file (a conffile).
# Usage: deb.sh BUILD-DIR
set -u
build=$(cd "$1" && pwd)
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0
no() { echo "FAIL: $*" && fail=1; }

(cd "$build" && cpack -G DEB -B "$tmp/out") >"$tmp/log" 2>&1 || { cat "$tmp/log" && exit 1; }
deb=$(ls "$tmp"/out/*.deb)
field() { dpkg-deb -f "$deb" "$1"; }
for dep in libiniparser1 libkmod2 liblzma5 libudev1 udev; do
	field Depends | grep -q "$dep" || no "Depends lacks $dep"
done
dpkg-deb --ctrl-tarfile "$deb" | tar -xO ./conffiles | grep -qx /etc/drvfilter.conf ||
	no "/etc/drvfilter.conf is not a conffile"
dpkg-deb -c "$deb" | awk '{print $NF}' | grep -v '/$' | sed 's|^\.||' | LC_ALL=C sort >"$tmp/files"
for f in /etc/drvfilter.conf /usr/sbin/drvfilter-apply /usr/sbin/drvfilterctl \
	/usr/lib/dracut/modules.d/90drvfilter/module-setup.sh /usr/lib/dracut/dracut.conf.d/50-drvfilter.conf \
	/usr/share/man/man8/drvfilterctl.8 \
	/usr/share/bash-completion/completions/drvfilterctl; do
	grep -qx "$f" "$tmp/files" || no "the package lacks $f"
done
grep -q 'rules.d/90-drvfilter.rules$' "$tmp/files" || no "the package lacks the udev rule"
grep -qx /usr/lib/dracut/modules.d/99drvfilter-blacklist/module-setup.sh "$tmp/files" ||
	no "the package lacks the 99drvfilter-blacklist dracut module"
grep -qx /usr/lib/dracut/modules.d/90drvfilter/drvfilter-pivot-hook.sh "$tmp/files" ||
	no "the package lacks the pre-pivot hook"
grep -q 'systemd/system/drvfilter-apply.service$' "$tmp/files" || no "the package lacks the unit"
# Enabled by the package itself: the link into sysinit.target.wants is in it.
dpkg-deb -c "$deb" |
	grep -q 'systemd/system/sysinit.target.wants/drvfilter-apply.service -> \.\./drvfilter-apply.service$' ||
	no "the package does not link the unit into sysinit.target.wants"

root=$tmp/root
mkdir -p "$root/var/lib/dpkg/info" "$root/var/lib/dpkg/updates"
: >"$root/var/lib/dpkg/status"
dpkg --root="$root" --force-depends -i "$deb" >"$tmp/log" 2>&1 || { cat "$tmp/log" && no "dpkg -i failed"; }
dpkg-query --admindir="$root/var/lib/dpkg" -W -f '${Status} ${Conffiles}\n' drvfilter >"$tmp/query"
grep -q '^install ok installed' "$tmp/query" || no "dpkg does not list the package as installed"
grep -q '/etc/drvfilter.conf [0-9a-f]\{32\}' "$tmp/query" || no "dpkg does not track the conffile"
"$root/usr/sbin/drvfilterctl" check "$root/etc/drvfilter.conf" || no "drvfilterctl check failed in the scratch root"

echo "# the admin's" >>"$root/etc/drvfilter.conf"
dpkg --root="$root" --force-depends --force-confold -i "$deb" >"$tmp/log" 2>&1 || no "the reinstall failed"
tail -n 1 "$root/etc/drvfilter.conf" | grep -q "the admin's" || no "the reinstall replaced the admin's policy"
[ "$fail" = 0 ] && echo "ok: $(basename "$deb"), $(wc -l <"$tmp/files") files, installed and checked"
exit $fail
