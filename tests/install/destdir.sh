#!/bin/sh
# cmake --install into a DESTDIR: every file where the platform expects it
# (udev's, dracut's, systemd's and bash-completion's directories from their
# pkg-config files, initramfs-tools', sbin, man5/man8, /etc) and nothing else,
# the unit linked into sysinit.target.wants; the udev rule, the dracut
# modules, the initramfs-tools hook and scripts, the kernel-install plugin
# and the unit name the helper where it was installed, also under
# another --prefix; an /etc/drvfilter.conf that is there already is kept; the
# installed drvfilterctl accepts the installed policy.
# Usage: destdir.sh BUILD-DIR
set -u
build=$1
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0
no() { echo "FAIL: $*" && fail=1; }
var() { pkg-config --variable="$2" "$1" 2>/dev/null || true; }

udev=$(var udev udevdir)
udev=${udev:-/lib/udev}
dracut=$(var dracut dracutmodulesdir)
dracut=${dracut:-/usr/lib/dracut/modules.d}
dracutconf=$(var dracut dracutconfdir)
dracutconf=${dracutconf:-/usr/lib/dracut/dracut.conf.d}
units=$(var systemd systemdsystemunitdir)
units=${units:-/lib/systemd/system}
completions=$(var bash-completion completionsdir)
completions=${completions:-/usr/share/bash-completion/completions}
itools=/usr/share/initramfs-tools
kinstall=/usr/lib/kernel/install.d

DESTDIR=$tmp/usr-tree cmake --install "$build" --prefix /usr >"$tmp/log" 2>&1 || { cat "$tmp/log" && exit 1; }
(cd "$tmp/usr-tree" && find . ! -type d \( -type l -printf '%p -> %l\n' -o -printf '%p\n' \) |
	sed 's|^\.||' | LC_ALL=C sort) >"$tmp/got"
LC_ALL=C sort >"$tmp/want" <<EOT
/etc/drvfilter.conf
/usr/sbin/drvfilter-apply
/usr/sbin/drvfilterctl
/usr/share/drvfilter/drvfilter.conf
/usr/share/drvfilter/prometheus/drvfilter.rules.yml
/usr/share/drvfilter/profiles/aws.conf
/usr/share/drvfilter/profiles/azure.conf
/usr/share/drvfilter/profiles/gcp.conf
/usr/share/drvfilter/profiles/virtio.conf
/usr/share/drvfilter/mkosi/mkosi.conf.d/50-drvfilter/mkosi.conf
/usr/share/drvfilter/mkosi/mkosi.conf.d/50-drvfilter/mkosi.postinst
/usr/share/man/man5/drvfilter.conf.5
/usr/share/man/man8/drvfilter-apply.8
/usr/share/man/man8/drvfilterctl.8
$completions/drvfilter-apply
$completions/drvfilterctl
$dracut/90drvfilter/drvfilter-apply-hook.sh
$dracut/90drvfilter/drvfilter-pivot-hook.sh
$dracut/90drvfilter/module-setup.sh
$dracut/99drvfilter-blacklist/module-setup.sh
$dracutconf/50-drvfilter.conf
$udev/rules.d/90-drvfilter.rules
$units/drvfilter-apply.service
$units/sysinit.target.wants/drvfilter-apply.service -> ../drvfilter-apply.service
$units/drvfilter-apply-initrd.service
$units/sysinit.target.wants/drvfilter-apply-initrd.service -> ../drvfilter-apply-initrd.service
$itools/hooks/zz-drvfilter
$itools/scripts/init-bottom/drvfilter
$itools/scripts/init-top/drvfilter
$kinstall/15-drvfilter.install
EOT
diff -u "$tmp/want" "$tmp/got" || no "the installed files differ from the expected layout"
root=$tmp/usr-tree
for f in usr/sbin/drvfilter-apply usr/sbin/drvfilterctl "${dracut#/}/90drvfilter/module-setup.sh" \
	"${dracut#/}/99drvfilter-blacklist/module-setup.sh" "${itools#/}/hooks/zz-drvfilter" \
	"${itools#/}/scripts/init-top/drvfilter" "${itools#/}/scripts/init-bottom/drvfilter" \
	"${kinstall#/}/15-drvfilter.install" usr/share/drvfilter/mkosi/mkosi.conf.d/50-drvfilter/mkosi.postinst; do
	[ -x "$root/$f" ] || no "$f is not executable"
done
[ "$(stat -c %a "$root/etc/drvfilter.conf")" = 644 ] || no "/etc/drvfilter.conf is not 0644"
grep -q 'RUN{program}+="/usr/sbin/drvfilter-apply --udev"' "$root$udev/rules.d/90-drvfilter.rules" ||
	no "the udev rule does not run /usr/sbin/drvfilter-apply"
grep -q '/usr/sbin/drvfilter-apply' "$root$dracut/90drvfilter/drvfilter-apply-hook.sh" ||
	no "the dracut hook does not run /usr/sbin/drvfilter-apply"
grep -q "$udev/rules.d/90-drvfilter.rules" "$root$dracut/90drvfilter/module-setup.sh" ||
	no "the dracut module does not take the rule from $udev/rules.d"
grep -q "$udev/rules.d/90-drvfilter.rules" "$root$itools/hooks/zz-drvfilter" ||
	no "the initramfs-tools hook does not take the rule from $udev/rules.d"
for s in init-top init-bottom; do
	grep -q '/usr/sbin/drvfilter-apply' "$root$itools/scripts/$s/drvfilter" ||
		no "the initramfs-tools $s script does not run /usr/sbin/drvfilter-apply"
done
# shellcheck disable=SC2016 # the plugin's own text, $prefix unexpanded
grep -q '^ctl="$prefix/usr/sbin/drvfilterctl"$' "$root$kinstall/15-drvfilter.install" ||
	no "the kernel-install plugin does not run /usr/sbin/drvfilterctl"
grep -q '^ExecStart=/usr/sbin/drvfilter-apply --real-root$' "$root$units/drvfilter-apply.service" ||
	no "the unit does not run /usr/sbin/drvfilter-apply --real-root"
grep -q '^ExecStart=/usr/sbin/drvfilter-apply$' "$root$units/drvfilter-apply-initrd.service" ||
	no "the initrd's unit does not run /usr/sbin/drvfilter-apply"
grep -q "\$prefix$units/\$unit" "$root$dracut/90drvfilter/module-setup.sh" ||
	no "the dracut module does not take the initrd's unit from $units"
grep -q '@[A-Z_]*@' "$root$dracut/90drvfilter/module-setup.sh" "$root$udev/rules.d/90-drvfilter.rules" \
	"$root$dracut/90drvfilter/drvfilter-pivot-hook.sh" "$root$dracut/99drvfilter-blacklist/module-setup.sh" \
	"$root$units/drvfilter-apply.service" "$root$units/drvfilter-apply-initrd.service" "$root$itools/hooks/zz-drvfilter" \
	"$root$itools/scripts/init-top/drvfilter" "$root$itools/scripts/init-bottom/drvfilter" \
	"$root$kinstall/15-drvfilter.install" &&
	no "a placeholder was left unconfigured"
"$root/usr/sbin/drvfilterctl" check "$root/etc/drvfilter.conf" >/dev/null ||
	no "the installed drvfilterctl refuses the installed policy"

# An admin's policy survives a reinstall.
echo "# the admin's" >>"$root/etc/drvfilter.conf"
DESTDIR=$root cmake --install "$build" --prefix /usr >"$tmp/log" 2>&1 || no "the second install failed"
grep -q "Keeping: $root/etc/drvfilter.conf" "$tmp/log" || no "the second install did not say it kept the policy"
tail -n 1 "$root/etc/drvfilter.conf" | grep -q "the admin's" || no "the second install replaced /etc/drvfilter.conf"

# Another prefix: the rule follows the binary.
DESTDIR=$tmp/local-tree cmake --install "$build" --prefix /usr/local >"$tmp/log" 2>&1 || no "install to /usr/local failed"
[ -x "$tmp/local-tree/usr/local/sbin/drvfilter-apply" ] || no "no /usr/local/sbin/drvfilter-apply"
grep -q 'RUN{program}+="/usr/local/sbin/drvfilter-apply --udev"' \
	"$tmp/local-tree$udev/rules.d/90-drvfilter.rules" || no "the rule does not follow --prefix"
grep -q '^ExecStart=/usr/local/sbin/drvfilter-apply --real-root$' \
	"$tmp/local-tree$units/drvfilter-apply.service" || no "the unit does not follow --prefix"
[ "$fail" = 0 ] && echo "ok: $(wc -l <"$tmp/got") files, layout as expected"
exit $fail
