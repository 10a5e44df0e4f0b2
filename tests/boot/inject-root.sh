#!/bin/sh
# A scenario's real root: a copy of the cached image (real-root.sh) with the
# build written into it by debugfs -w (no mount): the staged install's
# binaries, udev rule, systemd unit and its link (not the dracut modules, the
# man pages or the completions), the policy as /etc/drvfilter.conf (none when
# POLICY is empty), the caller's own files (FILES: lines `mkdir DIR`,
# `put SOURCE DEST` with SOURCE relative to FILES's directory, `link DEST
# TARGET`; the boot tests' report unit in real-root/files, bench/boot's end
# of the boot in bench/boot-root/files), and the shared libraries the staged
# binaries need that the image lacks (the developer build's ASan and UBSan
# runtimes). Every file is read back. An empty STAGE directory and an empty
# POLICY make a root without drvfilter.
#   inject-root.sh BASE-IMG OUT-IMG STAGE POLICY FILES
set -eu
[ $# = 5 ] || { echo "usage: inject-root.sh BASE-IMG OUT-IMG STAGE POLICY FILES" >&2; exit 2; }
base=$1 out=$2 stage=$3 policy=$4 files=$5
filesdir=$(cd "$(dirname "$files")" && pwd)
manifest=$(dirname "$base")/manifest
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp --sparse=always "$base" "$out"

# The image is merged-/usr: /lib, /bin and /sbin are links into /usr.
dest() {
	case $1 in
	/lib/* | /bin/* | /sbin/*) echo "/usr$1" ;;
	*) echo "$1" ;;
	esac
}
# SOURCE DEST: one file, owned by root, its mode kept (debugfs takes it).
put() {
	d=$(dest "$2")
	echo "rm $d"
	echo "write $1 $d"
	echo "sif $d uid 0"
	echo "sif $d gid 0"
	echo "$1 $d" >>"$tmp/written"
}
# DEST TARGET: a symbolic link.
link() {
	d=$(dest "$1")
	echo "rm $d"
	echo "symlink $d $2"
}
{
	(cd "$stage" && find . -type d ! -path './usr/share*' ! -path './usr/lib/dracut*') |
		sed 's|^\.||' | while read -r d; do [ -z "$d" ] || echo "mkdir $(dest "$d")"; done
	(cd "$stage" && find . ! -type d ! -path './usr/share/*' ! -path './usr/lib/dracut/*' ! -path './etc/*') |
		sed 's|^\.||' | while read -r f; do
		if [ -L "$stage$f" ]; then
			link "$f" "$(readlink "$stage$f")"
		else
			put "$stage$f" "$f"
		fi
	done
	if [ -n "$policy" ]; then
		put "$policy" /etc/drvfilter.conf
		echo "sif /etc/drvfilter.conf mode 0100644"
	fi
	while read -r verb a b; do
		case $verb in
		'' | '#'*) ;;
		mkdir) echo "mkdir $(dest "$a")" ;;
		put) put "$filesdir/$a" "$b" ;;
		link) link "$a" "$b" ;;
		*) echo "inject-root: $files: unknown line: $verb $a $b" >&2; exit 2 ;;
		esac
	done <"$files"
	# The libraries the binaries need that are not in the image.
	for bin in "$stage"/usr/sbin/*; do
		[ -e "$bin" ] || continue
		ldd "$bin" | sed -n 's|.* => \(/[^ ]*\) .*|\1|p'
	done | sort -u | while read -r lib; do
		grep -qx "$(dest "$lib")" "$manifest" || put "$(readlink -f "$lib")" "$lib"
	done
} >"$tmp/commands"
debugfs -w -f "$tmp/commands" "$out" >"$tmp/debugfs.log" 2>&1
# Read every file back: debugfs reports errors but exits 0.
i=0
while read -r src d; do
	i=$((i + 1))
	echo "dump $d $tmp/back.$i"
done <"$tmp/written" >"$tmp/dump"
debugfs -f "$tmp/dump" "$out" >/dev/null 2>&1
i=0
while read -r src d; do
	i=$((i + 1))
	cmp -s "$src" "$tmp/back.$i" || {
		echo "inject-root: $d was not written into $out:" >&2
		cat "$tmp/debugfs.log" >&2
		exit 1
	}
done <"$tmp/written"
e2fsck -fn "$out" >"$tmp/fsck.log" 2>&1 || { cat "$tmp/fsck.log" >&2 && exit 1; }
