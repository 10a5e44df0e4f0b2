// SPDX-License-Identifier: GPL-2.0-only
/*
 * drvfilterctl generate: a policy that allows exactly the drivers bound now,
 * denies every other, and says where each allowed name comes from.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "ctl.h"
#include "log.h"
#include "macro.h"
#include "strbuf.h"

static int arg_devices;

/* iniparser's line limit (policy-lex.c): a longer list would be cut. */
#define LINE_MAX_BYTES 1022

/* A name in a comment: printable ASCII only, and no '\\' that would join lines. */
static int append_note_name(struct strbuf *sb, const char *name)
{
	int r = 0;

	for (const char *c = name; *c && r >= 0; c++)
		r = strbuf_appendc(sb, (*c >= 0x20 && *c < 0x7f && *c != '\\') ? *c : '?');
	return r;
}

/*
 * --devices: DRIVER@ID for each device the driver drives now, its IDs as
 * device rules write them (VVVV:DDDD for PCI, the virtio device ID, the
 * ACPI/PNP ID). False when the bus has no IDs, or one cannot be read: then
 * the driver is allowed by name.
 */
static bool append_device_rules(const struct df_bus *bus, const struct df_driver *drv,
				struct strbuf *line, size_t *n, int *r)
{
	char ids[16][32];
	size_t nids = 0;

	for (size_t k = 0; k < drv->ndevices; k++) {
		struct df_device_id id;
		char *colon;
		bool seen = false;

		if (df_device_id_read(ctl_ctx, bus->name, drv->devices[k], &id) < 0 || !id.n)
			return false;
		/* A PCI device by vendor and device, a virtio one by its device ID. */
		if (streq(bus->name, "pci") && strlen(id.ids[0]) > 9)
			id.ids[0][9] = '\0';
		if (streq(bus->name, "virtio") && (colon = strchr(id.ids[0], ':')))
			*colon = '\0';
		for (size_t i = 0; i < nids; i++)
			seen |= streq(ids[i], id.ids[0]);
		if (seen)
			continue;
		if (nids == ARRAY_SIZE(ids))
			return false;
		strcpy(ids[nids++], id.ids[0]);
	}
	for (size_t i = 0; i < nids && *r >= 0; i++)
		*r = strbuf_appendf(line, "%s%s@%s", (*n)++ ? ", " : "", drv->name, ids[i]);
	return nids > 0;
}

static int bus_line(const struct df_bus *bus, struct strbuf *line, struct strbuf *notes)
{
	size_t n = 0;
	int r = 0;

	for (size_t i = 0; i < bus->ndrivers && r >= 0; i++) {
		const struct df_driver *drv = &bus->drivers[i];
		const char *why;

		/*
		 * The TPM's driver stays allowed even with nothing bound now: the
		 * policy measures (measure = auto), and a TPM that shows up later
		 * must not be kept from its driver.
		 */
		if (drv->ndevices == 0 && !df_is_tpm_driver(bus->name, drv->name))
			continue;
		if (df_driver_name_check(drv->name, &why) < 0) {
			struct strbuf b = STRBUF_INIT, d = STRBUF_INIT;

			/* Names from sysfs, escaped: none reaches the terminal raw. */
			(void)strbuf_append_escaped(&b, bus->name);
			(void)strbuf_append_escaped(&d, drv->name);
			log_error("bus %s: driver '%s' %s: it cannot be allowed by name",
				  strbuf_str(&b), strbuf_str(&d), why);
			strbuf_release(&b);
			strbuf_release(&d);
			r = -EINVAL;
			break;
		}
		if (arg_devices && append_device_rules(bus, drv, line, &n, &r))
			;
		else
			r = strbuf_appendf(line, "%s%s", n++ ? ", " : "", drv->name);
		if (r >= 0)
			r = strbuf_appendf(notes, "# %s:", drv->name);
		for (size_t k = 0; k < drv->ndevices && r >= 0; k++) {
			r = strbuf_append(notes, k ? ", " : " ");
			if (r >= 0)
				r = append_note_name(notes, drv->devices[k]);
		}
		if (r >= 0 && df_is_tpm_driver(bus->name, drv->name))
			r = strbuf_append(notes, drv->ndevices
							 ? " (the TPM: measure = auto needs it)"
							 : " a TPM's driver, allowed with nothing "
							   "bound now: measure = auto needs it");
		if (r >= 0)
			r = strbuf_append(notes, "\n");
		/*
		 * Fallback mode knows a module that is not loaded by its name only:
		 * when the module is named otherwise (xhci_pci registers xhci_hcd),
		 * allow its name too, or its blacklist entry would block this driver.
		 */
		if (r >= 0 && drv->module && !drv->builtin) {
			char alt[DF_NAME_MAX + 1];

			if (df_modname_dashed(drv->module, alt) == 0 &&
			    !streq(drv->module, drv->name) && !streq(alt, drv->name) &&
			    df_driver_name_check(drv->module, &why) == 0) {
				r = strbuf_appendf(line, ", %s", drv->module);
				if (r >= 0)
					r = strbuf_appendf(notes,
							   "# %s: the module of %s, for fallback "
							   "mode's blacklist\n",
							   drv->module, drv->name);
				n++;
			}
		}
	}
	if (r >= 0 && line->len > LINE_MAX_BYTES) {
		log_error("bus %s: the list of bound drivers is longer than one policy line (%d "
			  "bytes) can hold",
			  bus->name, LINE_MAX_BYTES);
		r = -E2BIG;
	}
	return r < 0 ? r : (int)n;
}

static int run(int argc, char **argv)
{
	struct df_inventory *inv = NULL;
	struct strbuf out = STRBUF_INIT;
	int r, ret = EXIT_FINE;

	r = df_inventory_load(ctl_ctx, 0, &inv);
	if (r < 0) {
		log_error_errno(r, "cannot read '/sys/bus': %m");
		return EXIT_ERROR;
	}
	r = strbuf_append(&out,
			  "# drvfilter policy written by 'drvfilterctl generate': it allows the "
			  "drivers\n"
			  "# bound to a device when it ran and denies every other driver.\n"
			  "# Review it, install it as /etc/drvfilter.conf, check it with "
			  "'drvfilterctl check',\n"
			  "# and rebuild the initramfs. See drvfilter.conf(5).\n"
			  "\n"
			  "[filter]\n"
			  "default = deny\n"
			  "bound = unbind\n"
			  "mode = auto\n"
			  "lock = yes\n"
			  "\n"
			  "[allow]\n");
	for (size_t i = 0; i < inv->nbuses && r >= 0; i++) {
		const struct df_bus *bus = &inv->buses[i];
		struct strbuf line = STRBUF_INIT, notes = STRBUF_INIT;
		const char *why;

		if (df_bus_name_check(bus->name, &why) < 0)
			continue;
		r = bus_line(bus, &line, &notes);
		if (r > 0)
			r = strbuf_appendf(&out, "%s%s = %s\n", strbuf_str(&notes), bus->name,
					   strbuf_str(&line));
		strbuf_release(&line);
		strbuf_release(&notes);
	}
	if (r == -ENOMEM)
		log_oom();
	if (r < 0)
		ret = EXIT_ERROR;
	else
		fputs(strbuf_str(&out), stdout);
	if (inv->skipped)
		log_error("%zu entries of /sys could not be read; the policy may miss drivers",
			  inv->skipped);
	strbuf_release(&out);
	df_inventory_free(inv);
	return ret;
}

static const struct option options[] = {
	{ "devices", no_argument, &arg_devices, 1 },
	{},
};

static const char help[] =
	"      --devices          device rules (DRIVER@ID) for the devices bound now\n";

const struct ctl_verb ctl_verb_generate = {
	.name = "generate",
	.summary = "print a policy allowing the drivers bound now",
	.common = CTL_SYSROOT,
	.options = options,
	.help = help,
	.run = run,
};
