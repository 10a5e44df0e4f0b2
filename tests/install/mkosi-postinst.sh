#!/bin/sh
# The installed mkosi drop-in's post-installation script, run as mkosi 26
# runs it (BUILDROOT, ARTIFACTDIR, mkosi-chroot on PATH), on an image tree
# with drvfilter installed: it leaves a cpio in io.mkosi.initrd/ that holds
# the image's policy and drop-ins, byte for byte, root's and 0644, each
# directory before its files, so that appended to mkosi's default initrd it
# replaces the package's shipped policy there; a missing, linked or invalid
# policy, an invalid drop-in, a drop-in that is not a regular file, or a
# linked drop-in directory (this script runs outside the image, where an
# absolute link points into the build host) fails the build and leaves no
# cpio. mkosi itself is not run: Debian 12 has mkosi 14, which
# has no default initrd of its own; a shim stands in for its mkosi-chroot
# (it runs the staged drvfilterctl on the image tree).
#   mkosi-postinst.sh BUILD-DIR
set -u
command -v cpio >/dev/null || { echo "cpio is missing" >&2; exit 77; }
# The policy must belong to root, as check (run as the image's) requires.
[ "$(id -u)" = 0 ] || exit 77
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0
no() { echo "FAIL: $*" && fail=1; }

image=$tmp/image
DESTDIR=$image cmake --install "$1" --prefix /usr >/dev/null || exit 1
dropin=$image/usr/share/drvfilter/mkosi/mkosi.conf.d/50-drvfilter
[ -x "$dropin/mkosi.postinst" ] || { echo "FAIL: no executable $dropin/mkosi.postinst"; exit 1; }

# mkosi-chroot CMD ARG...: CMD from the image, its absolute arguments in the image.
mkdir "$tmp/bin"
cat >"$tmp/bin/mkosi-chroot" <<'EOT'
#!/bin/sh
cmd=$1
shift
for a in "$@"; do
	case $a in /*) a=$BUILDROOT$a ;; esac
	set -- "$@" "$a"
	shift
done
exec "$BUILDROOT/usr/sbin/$cmd" "$@"
EOT
chmod +x "$tmp/bin/mkosi-chroot"

printf '[deny]\npci = e1000\n' >"$tmp/10-nic.conf"
mkdir -p "$image/etc/drvfilter.conf.d"
cp "$tmp/10-nic.conf" "$image/etc/drvfilter.conf.d/"
chmod 0600 "$image/etc/drvfilter.conf"
art=$tmp/artifacts

# postinst: the script as mkosi runs it; its output in $tmp/log.
postinst() {
	rm -rf "$art" && mkdir "$art"
	PATH=$tmp/bin:$PATH BUILDROOT=$image ARTIFACTDIR=$art "$dropin/mkosi.postinst" >"$tmp/log" 2>&1
}
cpio_out=$art/io.mkosi.initrd/50-drvfilter-policy.cpio

if postinst; then
	mkdir "$tmp/x"
	(cd "$tmp/x" && cpio --quiet -idm <"$cpio_out") || no "the cpio does not unpack"
	cmp -s "$tmp/x/etc/drvfilter.conf" "$image/etc/drvfilter.conf" || no "the cpio's policy is not the image's"
	cmp -s "$tmp/x/etc/drvfilter.conf.d/10-nic.conf" "$tmp/10-nic.conf" || no "the cpio lacks the drop-in"
	cpio --quiet -itv <"$cpio_out" | awk '{ print $1, $3, $4, $NF }' >"$tmp/list"
	cat >"$tmp/want" <<'EOT'
drwxr-xr-x root root etc
-rw-r--r-- root root etc/drvfilter.conf
drwxr-xr-x root root etc/drvfilter.conf.d
-rw-r--r-- root root etc/drvfilter.conf.d/10-nic.conf
EOT
	diff -u "$tmp/want" "$tmp/list" || no "the cpio's entries, modes, owners or order are not as the initrd needs"
	echo "ok: the cpio carries the image's policy and drop-in, root's, 0644, directories first"
else
	no "the script failed on a valid policy"
	cat "$tmp/log"
fi

# refused NAME WHAT: the script fails, saying WHAT, and leaves no cpio.
refused() {
	if postinst; then
		no "$1: the script succeeded"
	elif ! grep -q "drvfilter: .*$2.*; not building the image" "$tmp/log"; then
		no "$1: no message saying '$2'"
		cat "$tmp/log"
	elif [ -e "$cpio_out" ]; then
		no "$1: a cpio was left"
	else
		echo "ok: $1: refused, saying '$2'"
	fi
}
printf '[allow]\npci = virtio-pci\npci = e1000\n' >"$image/etc/drvfilter.conf.d/20-twice.conf"
refused invalid-dropin "is not a valid policy"
rm "$image/etc/drvfilter.conf.d/20-twice.conf"
ln -s "$tmp/10-nic.conf" "$image/etc/drvfilter.conf.d/30-link.conf"
refused linked-dropin "30-link.conf is not a regular file"
rm "$image/etc/drvfilter.conf.d/30-link.conf"
mv "$image/etc/drvfilter.conf.d" "$tmp/dropins"
ln -s "$tmp/dropins" "$image/etc/drvfilter.conf.d"
refused linked-dropin-dir "/etc/drvfilter.conf.d is a symbolic link"
rm "$image/etc/drvfilter.conf.d"
mv "$tmp/dropins" "$image/etc/drvfilter.conf.d"
mv "$image/etc/drvfilter.conf" "$tmp/policy"
ln -s "$tmp/policy" "$image/etc/drvfilter.conf"
refused linked "missing or not a regular file"
rm "$image/etc/drvfilter.conf"
refused missing "missing or not a regular file"
exit $fail
