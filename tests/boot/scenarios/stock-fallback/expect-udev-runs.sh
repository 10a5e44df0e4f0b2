# shellcheck shell=sh
# udev's runs of the helper at coldplug (udev-runs: the test module writes
# each down). A driver that registers (a module coldplug loads) and a device
# that binds get a run; a driver's add event that coldplug replays (the
# kernel marks it with SYNTH_UUID) gets none: the pass before coldplug
# decided that driver, and a run each cost the boot seconds under TCG.
expect "a driver registering at coldplug ran the helper" console_has '^DRVFILTER-UDEV-RUN: add drivers /bus/pci/drivers/[^ ]* synth=$'
expect "a device's bind ran the helper" console_has '^DRVFILTER-UDEV-RUN: bind '
expect "no replayed driver add ran the helper" not_console_has '^DRVFILTER-UDEV-RUN: add drivers .* synth=.'
