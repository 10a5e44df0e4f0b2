# shellcheck shell=sh
# The stock-cmdline boot again, with systemd's initrd.
expect "systemd ran the initrd" console_has 'systemd\[1\]'
# shellcheck disable=SC1091,SC2154 # the same checks as the classic initrd's; $scenario is check-scenario.sh's
. "$scenario/../stock-cmdline/expect.sh"
# The helper runs as drvfilter-apply-initrd.service, the unit any systemd
# initrd runs before systemd-udevd (mkosi's too), not as a dracut hook.
expect "drvfilter-apply-initrd.service ran" console_has 'Finished .*Enforce the device driver policy before coldplug (initrd)'
