# shellcheck shell=sh
# stock-cmdline's guest with its image built by initramfs-tools instead of
# dracut (Debian's and Ubuntu's default builder): every check of stock-cmdline
# holds (sourced by check-scenario.sh); expect-initramfs-tools.sh checks
# what only this builder's image shows.
# shellcheck disable=SC2154 # $scenario is check-scenario.sh's
. "$scenario/../stock-cmdline/expect.sh"
