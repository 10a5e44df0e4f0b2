// SPDX-License-Identifier: GPL-2.0-only
/*
 * Drivers that a confidential guest should not run unless it needs them:
 * each drives a device model the host emulates and controls in full, or
 * hands the host a say in the guest's memory, input or randomness, and a
 * guest rarely needs it (virtio has the small, audited counterpart). What
 * `generate` leaves out of the policy it writes, with the reason, for the
 * administrator to allow back where the guest needs it.
 */
#include <string.h>

#include "policy/policy-private.h"

static const char emulated_nic[] = "an emulated NIC, a large device model the host drives "
				   "(virtio-net is the small one)";
static const char usb[] = "USB, through which the host plugs in any device it likes";
static const char ps2[] = "the PS/2 controller the host emulates, and its keyboard and mouse";
static const char sound[] = "sound hardware the host emulates; a server has no use for it";

static const struct {
	const char *bus, *driver, *why;
} risky[] = {
	{ "virtio", "virtio_balloon", "the balloon lets the host take memory back from the guest" },
	{ "virtio", "virtio_mem", "the host adds and removes the guest's memory" },
	{ "virtio", "virtio_input", "input devices the host emulates" },
	{ "virtio", "virtio_gpu", "a display the host emulates" },
	{ "virtio", "virtio_rng", "randomness that the host supplies" },
	{ "virtio", "9pnet_virtio", "files that the host serves, unchecked" },
	{ "pci", "e1000", emulated_nic },
	{ "pci", "e1000e", emulated_nic },
	{ "pci", "8139cp", emulated_nic },
	{ "pci", "8139too", emulated_nic },
	{ "pci", "ne2k-pci", emulated_nic },
	{ "pci", "pcnet32", emulated_nic },
	{ "pci", "xhci_hcd", usb },
	{ "pci", "ehci-pci", usb },
	{ "pci", "ohci-pci", usb },
	{ "pci", "uhci_hcd", usb },
	{ "pci", "snd_hda_intel", sound },
	{ "pci", "snd_intel8x0", sound },
	{ "pci", "snd_ens1370", sound },
	{ "pci", "i6300ESB timer", "a watchdog the host can make reset the guest" },
	{ "usb", "usb", usb },
	{ "usb", "hub", usb },
	{ "usb", "usbfs", usb },
	{ "usb", "usbhid", usb },
	{ "usb", "usb-storage", usb },
	{ "usb", "uas", usb },
	{ "hid", "hid-generic", "input devices the host emulates" },
	{ "pnp", "i8042 kbd", ps2 },
	{ "pnp", "i8042 aux", ps2 },
	{ "platform", "i8042", ps2 },
	{ "serio", "atkbd", ps2 },
	{ "serio", "psmouse", ps2 },
	{ "serio", "serio_raw", ps2 },
	{ "platform", "floppy",
	  "the floppy controller, a device model with a record of guest "
	  "escapes (CVE-2015-3456)" },
	{ "pnp", "parport_pc", "the parallel port the host emulates" },
	{ "platform", "pcspkr", "the PC speaker the host emulates" },
	{ "platform", "fw_cfg", "data the host's firmware interface hands over, unchecked" },
};

const char *df_driver_risk(const char *bus, const char *driver)
{
	if (!bus || !driver)
		return NULL;
	for (size_t i = 0; i < ARRAY_SIZE(risky); i++)
		if (streq(risky[i].bus, bus) && streq(risky[i].driver, driver))
			return risky[i].why;
	return NULL;
}
