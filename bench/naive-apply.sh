#!/bin/sh
# The naive peer: the job of drvfilter-apply in kernel mode as a dracut hook
# author would write it in POSIX sh. It reads the policy at run time (no
# compiler in between), and with no associative arrays in POSIX sh every
# driver is matched with `case` against the [allow] rules, then the [deny]
# rules, then the default; then its allowed file is written.
# Usage: naive-apply.sh SYSROOT
root=$1
allow='' deny='' default=1 section=''
while IFS= read -r line; do
	case $line in
	'#'* | ';'* | '') continue ;;
	'['*']')
		section=${line#[}
		section=${section%]}
		continue
		;;
	esac
	key=${line%%=*}
	key=${key%"${key##*[! ]}"}
	value=${line#*=}
	case $section:$key in
	filter:default) case $value in *deny*) default=0 ;; esac ;;
	allow:* | deny:*)
		[ "$key" = ALL ] && key='*'
		set -f
		old_ifs=$IFS
		IFS=', '
		for name in $value; do
			[ "$name" = ALL ] && name='*'
			if [ "$section" = allow ]; then
				allow="$allow $key:$name"
			else
				deny="$deny $key:$name"
			fi
		done
		IFS=$old_ifs
		set +f
		;;
	esac
done <"$root/etc/drvfilter.conf"

cd "$root/sys/bus" || exit 1
for bus in *; do
	for d in "$bus"/drivers/*/; do
		[ -d "$d" ] || continue # a bus without drivers
		d=${d%/}
		subject=$bus:${d##*/}
		v=
		set -f
		# shellcheck disable=SC2254 # the rules are patterns
		for rule in $allow; do
			case $subject in $rule) v=1 && break ;; esac
		done
		if [ -z "$v" ]; then
			# shellcheck disable=SC2254 # the rules are patterns
			for rule in $deny; do
				case $subject in $rule) v=0 && break ;; esac
			done
		fi
		set +f
		echo "${v:-$default}" >"$d/allowed"
	done
done
