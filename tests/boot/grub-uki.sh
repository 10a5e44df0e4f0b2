#!/bin/sh
# The boot options reach the kernel intact through GRUB and through a unified
# kernel image, names with blanks and ';' included (a policy's filter_*
# lists, which `cmdline` prints for a kernel not known to lack the driver
# filter). GRUB: the --format=grub snippet sourced as grub-mkconfig sources
# /etc/default/grub.d/*.cfg, GRUB_CMDLINE_LINUX pasted on the linux line of a
# grub.cfg as it pastes it, booted under QEMU from a GRUB rescue CD: the
# guest's /proc/cmdline holds every option, split as the kernel splits it.
# UKI: dracut --uefi with the --format=dracut snippet in its configuration
# builds an image whose .cmdline section holds them. The options fill the
# budget the command line leaves: nothing is cut on the way.
#   grub-uki.sh STAGE (stage.sh's staged release build)
set -eu
stage=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
stub=/usr/lib/systemd/boot/efi/linuxx64.efi.stub
for tool in qemu-system-x86_64 dracut grub-mkrescue xorriso objcopy; do
	command -v "$tool" >/dev/null || { echo "$tool is missing: scripts/install-deps boot test" >&2; exit 77; }
done
[ -e "$stub" ] || { echo "$stub is missing: scripts/install-deps test" >&2; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
kdir=$(sh "$here/stock-kernel.sh")
kver=$(basename "$(ls -d "$kdir"/lib/modules/*)")
# A target known by its module tree and its command line only (not known to
# lack the driver filter): the line GRUB boots, BOOT_IMAGE= and all, so that
# the options fill what it leaves of 2047 bytes and no more.
mkdir -p "$tmp/target/lib/modules" "$tmp/target/proc"
ln -s "$kdir/lib/modules/$kver" "$tmp/target/lib/modules/$kver"
echo "BOOT_IMAGE=/boot/vmlinuz console=ttyS0 panic=1 rd.shell=0 root=/dev/vda rd.timeout=60" \
	>"$tmp/target/proc/cmdline"
cat >"$tmp/policy.conf" <<'POLICY'
[filter]
default = deny

[allow]
pnp = i8042 kbd, serial
pci = virtio-pci
platform = serial8250
virtio = virtio_blk, virtio_net

[deny]
pci = e1000
POLICY
ctl() { "$stage/usr/sbin/drvfilterctl" --sysroot "$tmp/target" --policy "$tmp/policy.conf" "$@" 2>/dev/null; }
ctl cmdline >"$tmp/options"
ctl --format=grub cmdline >"$tmp/drvfilter.cfg"
mkdir -p "$tmp/dracut.conf.d"
ctl --format=dracut cmdline >"$tmp/dracut.conf.d/drvfilter.conf"
echo "options ($(wc -c <"$tmp/options" | tr -d ' ') bytes): $(cut -c1-300 "$tmp/options")..."
# The kernel's next_arg(): blanks in quotes do not split; a quote around the
# whole parameter or its value goes. One parameter per line.
params() {
	awk 'function norm(p,  i, v) {
		if (substr(p, 1, 1) == "\"") { p = substr(p, 2); if (substr(p, length(p)) == "\"") p = substr(p, 1, length(p) - 1) }
		i = index(p, "=")
		if (i && substr(p, i + 1, 1) == "\"") { v = substr(p, i + 2); if (substr(v, length(v)) == "\"") v = substr(v, 1, length(v) - 1); p = substr(p, 1, i) v }
		return p
	}
	{ q = 0; cur = ""
	  for (k = 1; k <= length($0); k++) { c = substr($0, k, 1)
		if (c == "\"") q = !q
		if (c == " " && !q) { if (cur != "") print norm(cur); cur = "" } else cur = cur c }
	  if (cur != "") print norm(cur) }'
}
params <"$tmp/options" >"$tmp/want"
# shellcheck disable=SC2016 # a literal $
grep -q '^filter_allow_drivers=pnp:i8042 kbd,serial;' "$tmp/want" || { echo "FAIL: the options lack the names that need quoting"; exit 1; }
fail=0
contains() { # WHAT FILE-OF-PARAMS
	bad=0
	while IFS= read -r p; do
		grep -qxF -- "$p" "$2" || { echo "FAIL: $1 lacks: $p"; bad=1; fail=1; }
	done <"$tmp/want"
	[ "$bad" = 1 ] || echo "PASS: $1 holds every option intact"
}

# GRUB: grub-mkconfig sources the snippet, then pastes the variable's value.
GRUB_CMDLINE_LINUX=
# shellcheck disable=SC1091 # the snippet under test
. "$tmp/drvfilter.cfg"
GUEST_GRUB_CMDLINE=$GRUB_CMDLINE_LINUX sh "$here/boot-guest.sh" "$stage" "$kdir" \
	"$tmp/policy.conf" "$tmp/out"
echo "grub.cfg's linux line: $(grep 'linux ' "$tmp/out/grub.cfg" | cut -c1-300)..."
line=$(sed -n 's/^DRVFILTER-CMDLINE: //p' "$tmp/out/console")
if [ -z "$line" ]; then
	echo "FAIL: the guest did not report; the end of its console:"
	tail -n 30 "$tmp/out/console"
	exit 1
fi
echo "the guest's /proc/cmdline (${#line} bytes): $(printf '%s' "$line" | cut -c1-300)..."
printf '%s\n' "$line" | params >"$tmp/got"
contains "the command line GRUB booted" "$tmp/got"

# A unified kernel image: dracut --uefi builds kernel_cmdline into its .cmdline
# section. The test's own dracut and the snippet as its only configuration:
# nothing of the host's drvfilter (policy, modules, dracut.conf.d) is read.
sh "$here/scratch-dracut.sh" "$stage" "$tmp/dracut"
dracutbasedir=$tmp/dracut drvfilter_prefix=$stage drvfilter_policy=$tmp/policy.conf drvfilter_other_machine=yes dracut --force --no-hostonly --no-hostonly-cmdline --no-early-microcode --conf /dev/null \
	--confdir "$tmp/dracut.conf.d" --modules base --kver "$kver" \
	--kmoddir "$kdir/lib/modules/$kver" --kernel-image "$kdir/boot/vmlinuz-$kver" \
	--uefi --uefi-stub "$stub" "$tmp/uki.efi" >"$tmp/dracut.log" 2>&1 || {
	tail -n 20 "$tmp/dracut.log"
	exit 1
}
objcopy -O binary --only-section=.cmdline "$tmp/uki.efi" "$tmp/uki.cmdline"
echo "the image's .cmdline: $(tr -d '\0' <"$tmp/uki.cmdline" | cut -c1-300)..."
tr -d '\0' <"$tmp/uki.cmdline" | params >"$tmp/got"
contains "the unified kernel image's .cmdline" "$tmp/got"
exit $fail
