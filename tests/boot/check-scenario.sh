#!/bin/sh
# One set of checks on a guest that boot-scenario.sh booted: its console (and
# the boot options computed for it) in OUT, checked by a file of the
# scenario, expect.sh or expect-NAME.sh, each a CTest test of its own
# (boot/SCENARIO[@SERIES] or boot/SCENARIO:NAME[@SERIES]) that fails on its own.
#   check-scenario.sh STAGE SCENARIO-DIR OUT CHECK-FILE
# The checks see $series (empty: the default stock kernel) for the few whose
# answer differs between the series, $scenario, $stage, $here, $console and
# $tmp (a directory of their own).
# shellcheck disable=SC2317,SC2034 # the checks are called through expect(); they use stage, scenario, series
set -eu
stage=$(cd "$1" && pwd)
scenario=$(cd "$2" && pwd)
out=$(cd "$3" && pwd)
checks=$4
here=$(cd "$(dirname "$0")" && pwd)
console=$out/console
series=$(cat "$out/series")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# The sections the report hook prints, without the kernel's interleaved lines.
section() { sed -n "/^$1-BEGIN/,/^$1-END/p" "$console" | grep -v '^\[ *[0-9.]*\]'; }
not_in_modules() { ! grep -q "^DRVFILTER-MODULES:.* $1 " "$console" && ! grep -q "^DRVFILTER-MODULES: $1 " "$console"; }
in_modules() { grep -q "^DRVFILTER-MODULES:.* $1 " "$console" || grep -q "^DRVFILTER-MODULES: $1 " "$console"; }
pci_driver() { grep -q "^DRVFILTER-PCI: [^ ]* 0x${1%%:*}:0x${1#*:} $2\$" "$console"; }
not_state_has() { ! state_has "$1"; }
filter_is() { grep -qx "DRVFILTER-FILTER: $1" "$console"; }
console_has() { grep -q "$1" "$console"; }
not_console_has() { ! console_has "$1"; }
json_has() { section DRVFILTER-JSON | grep -q "$1"; }
# status's text with its wrapped lines joined (unwrap-status.awk).
status_text_has() { section DRVFILTER-STATUS | awk -f "$here/unwrap-status.awk" | grep -q "$1"; }
state_has() { section DRVFILTER-STATE | grep -q "$1"; }
initrd_state_has() { section DRVFILTER-INITRD-STATE | grep -q "$1"; }
not_in_initrd_modules() { ! grep -q "^DRVFILTER-INITRD-MODULES:.* $1 " "$console"; }
# dmesg lines carry timestamps like the kernel's own: the raw range here.
kmsg_has() { sed -n '/^DRVFILTER-KMSG-BEGIN/,/^DRVFILTER-KMSG-END/p' "$console" | grep -q "$1"; }
# Drivers registered in the guest (BUS:DRIVER, blanks and all).
registered() { grep -qxF "DRVFILTER-DRIVER: $1" "$console"; }
not_registered() { ! registered "$1"; }
# Every driver the boot options keep from running (cmdline --json) is absent.
none_registered_of_options() {
	jq -r '.initcall_blacklist[] | select(.fits) | .drivers[]' "$out/cmdline.json" >"$tmp/kept"
	[ -s "$tmp/kept" ] || return 1
	while IFS= read -r d; do
		registered "$d" && echo "  $d registered" && return 1
	done <"$tmp/kept"
	return 0
}
not_kmsg_has() { ! kmsg_has "$1"; }
fail=0
expect() {
	what=$1
	shift
	if "$@"; then
		echo "PASS: $what"
	else
		echo "FAIL: $what ($*)"
		fail=1
	fi
}
# shellcheck disable=SC1090 # the scenario's checks
. "$checks"
exit $fail
