#!/bin/sh
# Once drvfilter is installed, dracut never builds an initramfs without it:
# a policy that is missing, a directory, a dangling link or unreadable, an
# invalid drop-in, a helper that is missing, a part dracut cannot copy into
# the image, or the image's own blacklist module left out stops the run with
# a message naming the problem, and no image is written; the policy's
# drop-ins go into the image with it; a list of modules that does not name
# drvfilter (-m) still gets it (the package's dracut.conf.d file); a usable
# policy gives an image with drvfilter in it. The missing policy and the
# usable one run with dracut's default set of modules; the other refusals,
# which drvfilter's install() decides whatever came before it, with -m base
# (a few seconds each instead of ten).
#   dracut-unusable-policy.sh BUILD-DIR
set -u
command -v dracut >/dev/null || { echo "dracut is missing: scripts/install-deps boot" >&2; exit 77; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
stage=$tmp/stage
DESTDIR=$stage cmake --install "$1" --prefix /usr >/dev/null || exit 1
confdir=$(pkg-config --variable=dracutconfdir dracut 2>/dev/null || true)
confdir=${confdir:-/usr/lib/dracut/dracut.conf.d}
# dracut from the system with the staged module and the staged dracut.conf.d
# file beside its own (dracut reads $dracutbasedir/dracut.conf.d).
sh "$(dirname "$0")/scratch-dracut.sh" "$stage" "$tmp/dracut" || exit 1
mkdir -p "$tmp/emptyconfd"
[ -e "$tmp/dracut/dracut.conf.d/50-drvfilter.conf" ] || { echo "FAIL: the build has no $confdir/50-drvfilter.conf"; exit 1; }
fail=0
no() { echo "FAIL: $*" && fail=1; }

# run NAME PREFIX POLICY [DRACUT-ARG...]: dracut as an image builder runs it.
run() {
	run_name=$1 run_prefix=$2 run_policy=$3
	shift 3
	rm -f "$tmp/$run_name.img"
	drvfilter_prefix=$run_prefix drvfilter_policy=$run_policy drvfilter_other_machine=yes dracutbasedir=$tmp/dracut \
		dracut --force --no-kernel --no-compress --conf /dev/null --confdir "$tmp/emptyconfd" \
		"$@" "$tmp/$run_name.img" >"$tmp/$run_name.log" 2>&1
}

# refused NAME WHAT PREFIX POLICY [DRACUT-ARG...]: the run fails, says WHAT, writes nothing.
refused() {
	name=$1 what=$2
	shift 2
	if run "$name" "$@"; then
		no "$name: dracut succeeded"
	elif ! grep -q "drvfilter: .*$what.*; not building the initramfs" "$tmp/$name.log"; then
		no "$name: no message saying '$what'"
	elif [ -e "$tmp/$name.img" ]; then
		no "$name: an image was written"
	else
		echo "PASS: $name: refused, saying '$what'"
		return
	fi
	tail -n 15 "$tmp/$name.log"
}

# carries NAME: the image holds the helper, the policy, the rule and the run
# before coldplug: the pre-udev hook in the classic initrd, the unit, enabled,
# in the systemd one (dracut's default where systemd is installed).
carries() {
	lsinitrd "$tmp/$1.img" >"$tmp/$1.list" 2>&1
	early=hooks/pre-udev/10-drvfilter-apply-hook.sh
	! grep -q ' usr/lib/systemd/systemd$' "$tmp/$1.list" ||
		early='sysinit.target.wants/drvfilter-apply-initrd.service -> ../drvfilter-apply-initrd.service'
	for f in usr/sbin/drvfilter-apply etc/drvfilter.conf rules.d/90-drvfilter.rules "$early"; do
		grep -q "$f\$" "$tmp/$1.list" || { no "$1: the image lacks $f" && return; }
	done
	echo "PASS: $1: the image carries drvfilter"
}

policy=$tmp/policy.conf
cp "$stage/usr/share/drvfilter/drvfilter.conf" "$policy" || exit 1
chmod 0644 "$policy"
mkdir "$tmp/policy.d"
ln -s "$tmp/gone.conf" "$tmp/dangling.conf"
mkdir -p "$tmp/nohelper"
cp -a "$stage/." "$tmp/nohelper/"
rm "$tmp/nohelper/usr/sbin/drvfilter-apply"

refused missing "the policy $tmp/absent.conf is missing" "$stage" "$tmp/absent.conf"
refused directory "the policy $tmp/policy.d is not a regular file" "$stage" "$tmp/policy.d" -m base
refused dangling "the policy $tmp/dangling.conf is a dangling symbolic link" "$stage" "$tmp/dangling.conf" -m base
# Root reads any file; this one fails with EIO.
refused unreadable "/proc/self/mem is not a valid policy" "$stage" /proc/self/mem -m base
grep -q "cannot read: Input/output error" "$tmp/unreadable.log" || no "unreadable: check's reason is missing"
refused no-helper "drvfilter-apply is missing" "$tmp/nohelper" "$policy" -m base
# A policy check accepts but dracut-install cannot copy (a relative path):
# dracut only logs FAILED and would write an image without the policy.
(cd "$tmp" && refused not-installed "cannot put policy.conf into the image" "$stage" policy.conf -m base)
# Without 99drvfilter-blacklist, what loads modules before the hook is not
# filtered: drvfilter requires it rather than depending on it, since dracut
# drops a module whose dependency is omitted with only a line in its log.
refused no-early-blacklist "drvfilter-blacklist module is missing or omitted" "$stage" "$policy" \
	-m base --omit drvfilter-blacklist

if run usable "$stage" "$policy"; then
	carries usable
else
	no "usable: dracut failed with a usable policy" && tail -n 15 "$tmp/usable.log"
fi
# The set the boot loads is the policy and its drop-ins: the image carries
# them all, and an invalid drop-in is an invalid policy.
mkdir -p "$tmp/set/drvfilter.conf.d"
cp "$policy" "$tmp/set/drvfilter.conf"
printf '[deny]\npci = e1000\n' >"$tmp/set/drvfilter.conf.d/10-nic.conf"
if run dropins "$stage" "$tmp/set/drvfilter.conf" -m base; then
	carries dropins
	grep -q 'etc/drvfilter.conf.d/10-nic.conf$' "$tmp/dropins.list" ||
		no "dropins: the image lacks etc/drvfilter.conf.d/10-nic.conf"
else
	no "dropins: dracut failed with a usable set" && tail -n 15 "$tmp/dropins.log"
fi
printf '[deny]\npci = e1000\npci = e1000e\n' >"$tmp/set/drvfilter.conf.d/20-twice.conf"
refused bad-dropin "$tmp/set/drvfilter.conf is not a valid policy" "$stage" "$tmp/set/drvfilter.conf" -m base
if [ ! -e "$stage$confdir/50-drvfilter.conf" ]; then
	no "no $confdir/50-drvfilter.conf is installed"
elif run module-list "$stage" "$policy" --modules base; then
	carries module-list
else
	no "module-list: dracut -m base failed" && tail -n 15 "$tmp/module-list.log"
fi
exit $fail
