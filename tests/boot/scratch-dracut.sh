#!/bin/sh
# A dracut of the test's own: the system's dracut (/usr/lib/dracut) copied
# into DIR without anything of drvfilter a package or a hand install may have
# left there, with the staged build's drvfilter modules and dracut.conf.d
# file beside dracut's own. Run dracut with dracutbasedir=DIR and --conf/
# --confdir of the test's own, so that nothing of the host's drvfilter (its
# policy, its modules, its /etc/dracut.conf.d) reaches an image it builds.
#   scratch-dracut.sh STAGE DIR
set -eu
stage=$1
dir=$2
mkdir -p "$dir"
cp -a /usr/lib/dracut/. "$dir/"
rm -rf "$dir"/modules.d/*drvfilter* "$dir"/dracut.conf.d/*drvfilter*
for m in "$stage"/usr/lib/dracut/modules.d/*drvfilter*; do
	[ ! -d "$m" ] || cp -a "$m" "$dir/modules.d/"
done
mkdir -p "$dir/dracut.conf.d"
for c in "$stage"/usr/lib/dracut/dracut.conf.d/*drvfilter*; do
	[ ! -e "$c" ] || cp -a "$c" "$dir/dracut.conf.d/"
done
