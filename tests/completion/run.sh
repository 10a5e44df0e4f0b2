#!/bin/bash
# The bash completions, driven as readline drives them: each case is a
# command line (the cursor at its end) and the completions it must offer,
# through the real bash-completion library. explain's BUS:DRIVER names come
# from the fixture tree named with --sysroot on the line; the verbs, each
# verb's options, formats and status's columns from drvfilterctl itself.
# Usage: run.sh COMPLETION-DIR FIXTURES-DIR DRVFILTERCTL
set -u
dir=$1
fixtures=$2
PATH=$(dirname "$3"):$PATH
lib=/usr/share/bash-completion/bash_completion
[[ -r $lib ]] || { echo "bash-completion is not installed" >&2 && exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
sh "$fixtures/mksysroot" "$tmp/root" "$fixtures/guest.spec" || exit 1
# Drop-ins for edit: two of the policy's, one runtime, and a file that is none.
mkdir -p "$tmp/root/etc/drvfilter.conf.d" "$tmp/root/run/drvfilter.conf.d"
touch "$tmp/root/etc/drvfilter.conf.d/10-azure.conf" "$tmp/root/etc/drvfilter.conf.d/20-gcp.conf" \
    "$tmp/root/run/drvfilter.conf.d/50-drvfilterctl.conf" "$tmp/root/etc/drvfilter.conf.d/README"
# shellcheck disable=SC1090,SC1091 # the library and the completions under test
source "$lib"
# shellcheck disable=SC1090,SC1091
source "$dir/drvfilterctl"
# shellcheck disable=SC1090,SC1091
source "$dir/drvfilter-apply"

fail=0
# compopt works only inside a completion readline started; here it may say so.
# shellcheck disable=SC2317 # called by the completions under test
compopt() { builtin compopt "$@" 2>/dev/null || :; }
# Split LINE into COMP_WORDS as readline does with COMP_WORDBREAKS: blanks
# separate words, ':' and '=' are words of their own.
complete_line() {
    local line=$1 word='' c i
    COMP_WORDS=()
    for ((i = 0; i < ${#line}; i++)); do
        c=${line:i:1}
        case $c in
        ' ') [[ -n $word ]] && COMP_WORDS+=("$word"); word= ;;
        ':' | '=') [[ -n $word ]] && COMP_WORDS+=("$word"); COMP_WORDS+=("$c"); word= ;;
        *) word+=$c ;;
        esac
    done
    COMP_WORDS+=("$word")
    COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
    COMP_LINE=$line
    COMP_POINT=${#line}
    COMPREPLY=()
    "$(complete -p "${COMP_WORDS[0]}" | sed 's/.*-F \([^ ]*\) .*/\1/')" \
        "${COMP_WORDS[0]}" "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
}

expect() { # LINE EXPECTED (the sorted completions, blank-separated)
    local got
    complete_line "$1"
    got=$(printf '%s\n' "${COMPREPLY[@]}" | LC_ALL=C sort | tr '\n' ' ')
    got=${got% }
    if [[ $got == "$2" ]]; then
        echo "ok: '$1' -> $got"
    else
        echo "FAIL: '$1' -> '$got', expected '$2'"
        fail=1
    fi
}

expect "drvfilterctl " "allow apply blacklist check cmdline deny edit explain generate help list-changes record status verify watch"
expect "drvfilterctl r" "record"
expect "drvfilterctl help st" "status"
expect "drvfilterctl cmdline --format=" "dracut grub json kernel-cmdline mkosi text"
expect "drvfilterctl cmdline --format " "dracut grub json kernel-cmdline mkosi text"
expect "drvfilterctl cmdline --m" "--max-bytes"
# --kernel: the releases whose module trees the (--sysroot) system has.
mkdir -p "$tmp/root/lib/modules/6.1.0-28-amd64" "$tmp/root/lib/modules/6.12.9-amd64"
expect "drvfilterctl --sysroot $tmp/root cmdline --kernel " "6.1.0-28-amd64 6.1.0-fixture 6.12.9-amd64"
expect "drvfilterctl --sysroot $tmp/root cmdline --kernel 6.12" "6.12.9-amd64"
expect "drvfilterctl status --format=" "json prometheus text"
expect "drvfilterctl check --format=" "json text"
expect "drvfilterctl st" "status"
expect "drvfilterctl --js" "--json"
expect "drvfilterctl --json=s" "short"
expect "drvfilterctl --" "--format= --help --json --policy --sysroot --version"
expect "drvfilterctl --policy x.conf e" "edit explain"
expect "drvfilterctl --sysroot $tmp/root explain pci:" "e1000 serial virtio-pci xhci_hcd"
expect "drvfilterctl --sysroot $tmp/root explain pnp:i" 'i8042\ kbd'
expect "drvfilterctl --sysroot $tmp/root explain vi" "virtio:virtio_blk virtio:virtio_net"
expect "drvfilterctl --sysroot $tmp/root allow pci:e" "e1000"
expect "drvfilterctl l" "list-changes"
# Each verb its own options, and the common ones it takes.
expect "drvfilterctl status --" "--all --format= --help --json --list-columns --no-pager --noheadings --output --policy --raw --sysroot --version"
expect "drvfilterctl generate --" "--devices --help --profile --sysroot --version"
# The shipped profiles by name (here: the tree's conf/profiles).
DRVFILTER_PROFILE_DIR=$(cd "$(dirname "$0")/../../conf/profiles" && pwd)
export DRVFILTER_PROFILE_DIR
expect "drvfilterctl generate --profile " "aws azure gcp virtio"
expect "drvfilterctl generate --profile g" "gcp"
unset DRVFILTER_PROFILE_DIR
expect "drvfilterctl apply --" "--dry-run --format= --help --json --policy --sysroot --version"
expect "drvfilterctl --sysroot x status --n" "--no-pager --noheadings"
expect "drvfilterctl status --output D" "DECISION DEVICES DRIVER"
expect "drvfilterctl status --output=B" "BIT BUS"
expect "drvfilterctl status -o BUS,DR" "BUS,DRIVER"
expect "drvfilterctl status -o +R" "+RULE"
expect "drvfilterctl --sysroot $tmp/root edit " "10-azure.conf 20-gcp.conf 50-drvfilterctl.conf"
expect "drvfilterctl --sysroot $tmp/root edit 2" "20-gcp.conf"
expect "drvfilterctl v" "verify"
expect "drvfilterctl verify --expect-mode f" "fallback"
expect "drvfilterctl verify --expect-mode kernel --expect-l" "--expect-locked"
expect "drvfilter-apply --u" "--udev"
expect "drvfilter-apply -" "--dry-run --help --policy --sysroot --timeout --udev --verbose --version"
exit $fail
