#!/bin/sh
# The tests never read or change the host's drvfilter files, /etc, /usr or
# the dpkg database: every builder call and package test gets a scratch root
# of its own. tests/run-all proves it on each run:
#   host-state.sh hide DIR      move /etc/drvfilter.conf and .d aside into DIR
#                               (a test that reads them fails: it would pass
#                               only on a machine that has them);
#   host-state.sh restore DIR   put them back;
#   host-state.sh manifest FILE every path under /etc, /usr and /var/lib/dpkg
#                               with its type, size, mode and mtime.
# Two manifests, before and after the tiers, must be equal.
set -eu
case $1 in
hide)
	mkdir -p "$2"
	for f in /etc/drvfilter.conf /etc/drvfilter.conf.d; do
		[ ! -e "$f" ] && [ ! -L "$f" ] && continue
		echo "host-state: $f moved aside for the run (into $2)" >&2
		mv "$f" "$2/"
	done
	;;
restore)
	for f in "$2"/drvfilter.conf "$2"/drvfilter.conf.d; do
		[ -e "$f" ] || [ -L "$f" ] || continue
		mv "$f" /etc/ && echo "host-state: $f put back into /etc" >&2
	done
	rmdir "$2" 2>/dev/null || true
	;;
manifest)
	# /etc/mtab and ld.so.cache follow the machine, not the tests; apt's
	# own cache and lists are not the dpkg database.
	find /etc /usr /var/lib/dpkg -xdev \( -path /etc/ld.so.cache -o -path /etc/mtab \) -prune \
		-o -printf '%p %y %s %m %T@\n' 2>/dev/null | LC_ALL=C sort >"$2"
	;;
*)
	echo "usage: host-state.sh hide|restore DIR | manifest FILE" >&2
	exit 2
	;;
esac
