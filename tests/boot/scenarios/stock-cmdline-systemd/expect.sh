# shellcheck shell=sh
# The stock-cmdline boot again, with systemd's initrd.
expect "systemd ran the initrd" console_has 'systemd\[1\]'
# shellcheck disable=SC1091,SC2154 # the same checks as the classic initrd's; $scenario is check-scenario.sh's
. "$scenario/../stock-cmdline/expect.sh"
