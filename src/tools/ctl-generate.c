// SPDX-License-Identifier: GPL-2.0-only
/*
 * drvfilterctl generate: a policy that allows the drivers bound now but the
 * risky ones no boot device needs (left commented out, with the reason),
 * denies every other, and says where each allowed name comes from. With
 * --profile, a profile instead (ctl-generate-profile.c).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "ctl-generate.h"
#include "ctl.h"
#include "log.h"
#include "macro.h"
#include "strbuf.h"
#include "strv.h"

static int arg_devices;
static const char *arg_profile;

/* iniparser's line limit (policy-lex.c): a longer list would be cut. */
#define LINE_MAX_BYTES 1022

int gen_append_note_name(struct strbuf *sb, const char *name)
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

bool gen_boot_needs(const struct gen *gen, const char *bus, const char *driver)
{
	size_t blen = strlen(bus);

	for (size_t i = 0; i < gen->nboot; i++)
		if (!strncmp(gen->boot[i], bus, blen) && gen->boot[i][blen] == ':' &&
		    streq(gen->boot[i] + blen + 1, driver))
			return true;
	return false;
}

/* A note line's devices stop here: past iniparser's line limit the policy is invalid. */
#define NOTE_DEVICES_MAX_BYTES 400

int gen_append_devices(struct strbuf *sb, const struct df_driver *drv, const char *first)
{
	size_t start = sb->len;
	int r = 0;

	for (size_t k = 0; k < drv->ndevices && r >= 0; k++) {
		if (sb->len - start > NOTE_DEVICES_MAX_BYTES)
			return strbuf_appendf(sb, " and %zu more", drv->ndevices - k);
		r = strbuf_append(sb, k ? ", " : first);
		if (r >= 0)
			r = gen_append_note_name(sb, drv->devices[k]);
	}
	return r;
}

/* "# NAME: DEVICE, DEVICE" (no newline). */
static int note_devices(struct strbuf *notes, const struct df_driver *drv)
{
	int r = strbuf_appendf(notes, "# %s:", drv->name);

	return r < 0 ? r : gen_append_devices(notes, drv, " ");
}

/* @name onto the list @line unless it is there already (a module shared by drivers). */
static int add_name(struct strbuf *line, struct strv *names, size_t *n, const char *name)
{
	int r;

	if (strv_contains(names, name))
		return 0;
	r = strv_push(names, name);
	if (r >= 0)
		r = strbuf_appendf(line, "%s%s", (*n)++ ? ", " : "", name);
	return r;
}

/* A bus's lines as they are written: its allow list, and the risky drivers left out. */
struct bus_lists {
	struct strbuf line, notes; /* the allow list, a comment per driver */
	struct strbuf left, left_notes; /* the risky drivers left out, each with its reason */
	struct strv names; /* the names on the allow list */
	size_t n, nleft;
};

static void bus_lists_release(struct bus_lists *bl)
{
	strbuf_release(&bl->line);
	strbuf_release(&bl->notes);
	strbuf_release(&bl->left);
	strbuf_release(&bl->left_notes);
	strv_release(&bl->names);
}

/* A driver name no policy can hold: said, escaped (none reaches the terminal raw); -EINVAL. */
static int bad_name(const struct df_bus *bus, const struct df_driver *drv, const char *why)
{
	struct strbuf b = STRBUF_INIT, d = STRBUF_INIT;

	(void)strbuf_append_escaped(&b, bus->name);
	(void)strbuf_append_escaped(&d, drv->name);
	log_error("bus %s: driver '%s' %s: it cannot be allowed by name", strbuf_str(&b),
		  strbuf_str(&d), why);
	strbuf_release(&b);
	strbuf_release(&d);
	return -EINVAL;
}

/* A risky driver no boot device needs, left out: denied by default = deny, its device unbound. */
static int leave_out(struct gen *gen, struct bus_lists *bl, const struct df_bus *bus,
		     const struct df_driver *drv, const char *risk)
{
	const char *why;
	int r = strbuf_appendf(&bl->left, "%s%s", bl->nleft++ ? ", " : "", drv->name);

	if (r >= 0)
		r = note_devices(&bl->left_notes, drv);
	/* Allowed back in fallback mode, its module's name must go with it. */
	if (r >= 0 && drv->module && !drv->builtin && !streq(drv->module, drv->name) &&
	    df_driver_name_check(drv->module, &why) == 0)
		r = strbuf_appendf(&bl->left_notes, " (module %s)", drv->module);
	if (r >= 0)
		r = strbuf_appendf(&bl->left_notes, ": %s\n", risk);
	if (r >= 0)
		r = strbuf_appendf(&gen->risky, ", %s:%s", bus->name, drv->name);
	gen->nrisky++;
	return r;
}

/* An allowed driver's comment: its devices, and why a TPM's or a risky one is allowed. */
static int note_allowed(const struct gen *gen, struct bus_lists *bl, const struct df_bus *bus,
			const struct df_driver *drv, const char *risk)
{
	int r = note_devices(&bl->notes, drv);

	if (r >= 0 && df_is_tpm_driver(bus->name, drv->name))
		r = strbuf_append(&bl->notes, drv->ndevices
						      ? " (the TPM: measure = auto needs it)"
						      : " a TPM's driver, allowed with nothing "
							"bound now: measure = auto needs it");
	if (r >= 0 && risk)
		r = strbuf_appendf(&bl->notes, " (risky: %s; allowed, since %s)", risk,
				   gen->root_unknown ? "generate cannot follow the root file "
						       "system's device, which may need it"
						     : "the boot devices need it");
	if (r >= 0)
		r = strbuf_append(&bl->notes, "\n");
	return r;
}

/*
 * Fallback mode knows a module that is not loaded by its name only: when
 * the module is named otherwise (xhci_pci registers xhci_hcd), allow its
 * name too, or its blacklist entry would block this driver.
 */
static int allow_module(struct bus_lists *bl, const struct df_driver *drv)
{
	char alt[DF_NAME_MAX + 1];
	const char *why;
	int r;

	if (!drv->module || drv->builtin || df_modname_dashed(drv->module, alt) != 0 ||
	    streq(drv->module, drv->name) || streq(alt, drv->name) ||
	    strv_contains(&bl->names, drv->module) || df_driver_name_check(drv->module, &why) != 0)
		return 0;
	r = add_name(&bl->line, &bl->names, &bl->n, drv->module);
	if (r >= 0)
		r = strbuf_appendf(&bl->notes,
				   "# %s: the module of %s, for fallback mode's blacklist\n",
				   drv->module, drv->name);
	return r;
}

/*
 * The bus's allow list, with a comment per driver; the risky drivers bound
 * now (df_driver_risk()) that no boot device needs left out, commented out,
 * each with its reason. The number of names, or a negative errno.
 */
static int bus_line(struct gen *gen, const struct df_bus *bus, struct bus_lists *bl)
{
	int r = 0;

	for (size_t i = 0; i < bus->ndrivers && r >= 0; i++) {
		const struct df_driver *drv = &bus->drivers[i];
		const char *why, *risk;

		/*
		 * The TPM's driver stays allowed even with nothing bound now: the
		 * policy measures (measure = auto), and a TPM that shows up later
		 * must not be kept from its driver.
		 */
		if (drv->ndevices == 0 && !df_is_tpm_driver(bus->name, drv->name))
			continue;
		if (df_driver_name_check(drv->name, &why) < 0) {
			r = bad_name(bus, drv, why);
			break;
		}
		risk = df_driver_risk(bus->name, drv->name);
		if (risk && !gen->root_unknown && !gen_boot_needs(gen, bus->name, drv->name)) {
			r = leave_out(gen, bl, bus, drv, risk);
			continue;
		}
		if (arg_devices && append_device_rules(bus, drv, &bl->line, &bl->n, &r))
			;
		else
			r = add_name(&bl->line, &bl->names, &bl->n, drv->name);
		if (r >= 0)
			r = note_allowed(gen, bl, bus, drv, risk);
		if (r >= 0)
			r = allow_module(bl, drv);
	}
	if (r >= 0 && (bl->line.len > LINE_MAX_BYTES || bl->left.len > LINE_MAX_BYTES)) {
		log_error("bus %s: the list of bound drivers is longer than one policy line (%d "
			  "bytes) can hold",
			  bus->name, LINE_MAX_BYTES);
		r = -E2BIG;
	}
	return r < 0 ? r : (int)(bl->n + bl->nleft);
}

/* What a generated policy starts with: how to use it, and its [filter] settings. */
static const char policy_header[] =
	"# drvfilter policy written by 'drvfilterctl generate': it allows the drivers\n"
	"# bound to a device when it ran, but those that are risky in a confidential\n"
	"# guest (left commented out, each with its reason), and denies every other driver.\n"
	"# Review it, install it as /etc/drvfilter.conf, check it with 'drvfilterctl check',\n"
	"# and rebuild the initramfs. See drvfilter.conf(5).\n"
	"\n"
	"[filter]\n"
	"default = deny\n"
	"bound = unbind\n"
	"mode = auto\n"
	"lock = yes\n"
	"\n"
	"[allow]\n";

/* The bus's part of the policy onto @out: its allow list, then the risky drivers left out. */
static int append_bus(struct gen *gen, const struct df_bus *bus, struct strbuf *out)
{
	struct bus_lists bl = { .line = STRBUF_INIT,
				.notes = STRBUF_INIT,
				.left = STRBUF_INIT,
				.left_notes = STRBUF_INIT,
				.names = STRV_INIT };
	int r = bus_line(gen, bus, &bl);

	if (r > 0 && bl.line.len)
		r = strbuf_appendf(out, "%s%s = %s\n", strbuf_str(&bl.notes), bus->name,
				   strbuf_str(&bl.line));
	/* Two lines of one key would be an error: the names go onto the list above. */
	if (r >= 0 && bl.left.len && bl.line.len)
		r = strbuf_appendf(out,
				   "# Bound now but left out, risky in a confidential guest "
				   "(add to the list above\n# what this guest needs):\n%s",
				   strbuf_str(&bl.left_notes));
	else if (r >= 0 && bl.left.len)
		r = strbuf_appendf(out,
				   "# Bound now but left out, risky in a confidential guest "
				   "(uncomment what\n# this guest needs):\n%s# %s = %s\n",
				   strbuf_str(&bl.left_notes), bus->name, strbuf_str(&bl.left));
	bus_lists_release(&bl);
	return r;
}

static int run(int argc, char **argv)
{
	struct df_inventory *inv = NULL;
	struct gen gen = { .risky = STRBUF_INIT };
	struct strbuf out = STRBUF_INIT;
	int r, ret = EXIT_FINE;

	/* A profile's rules are its own: --devices would be silently ignored. */
	if (arg_profile && arg_devices)
		return ctl_usage_error("--profile and --devices do not go together");
	r = df_inventory_load(ctl_ctx, 0, &inv);
	if (r < 0) {
		log_error_errno(r, "cannot read '/sys/bus': %m");
		return EXIT_ERROR;
	}
	/* A risky driver the root disk or a console needs stays allowed (check's guard). */
	r = df_boot_drivers(ctl_ctx, &gen.boot, &gen.nboot);
	gen.root_unknown = r == 1;
	if (gen.root_unknown)
		log_info("the root file system's device is not known, or on no block device "
			 "(NFS? overlay?): the risky drivers bound now stay allowed, marked, "
			 "since it may need them");
	if (r >= 0 && arg_profile) {
		ret = gen_run_profile(arg_profile, &gen, inv);
		strv_free_array(gen.boot, gen.nboot);
		df_inventory_free(inv);
		return ret;
	}
	if (r >= 0)
		r = strbuf_append(&out, policy_header);
	for (size_t i = 0; i < inv->nbuses && r >= 0; i++) {
		const char *why;

		if (df_bus_name_check(inv->buses[i].name, &why) < 0)
			continue;
		r = append_bus(&gen, &inv->buses[i], &out);
	}
	if (r == -ENOMEM)
		log_oom();
	if (r < 0)
		ret = EXIT_ERROR;
	else
		fputs(strbuf_str(&out), stdout);
	if (r >= 0 && gen.nrisky)
		log_info("left out %zu risky driver%s bound now (%s): applied, the policy unbinds "
			 "%s; allow what this guest needs",
			 gen.nrisky, gen.nrisky == 1 ? "" : "s", strbuf_str(&gen.risky) + 2,
			 gen.nrisky == 1 ? "it" : "them");
	if (inv->skipped)
		log_error("%zu entries of /sys could not be read; the policy may miss drivers",
			  inv->skipped);
	strbuf_release(&out);
	strbuf_release(&gen.risky);
	strv_free_array(gen.boot, gen.nboot);
	df_inventory_free(inv);
	return ret;
}

enum {
	ARG_PROFILE = CTL_ARG_VERB,
};

static const struct option options[] = {
	{ "devices", no_argument, &arg_devices, 1 },
	{ "profile", required_argument, NULL, ARG_PROFILE },
	{},
};

static int parse(int opt, const char *arg)
{
	arg_profile = arg;
	return EXIT_FINE;
}

static const char help[] =
	"      --devices          device rules (DRIVER@ID) for the devices bound now\n"
	"      --profile NAME     a shipped profile (virtio, gcp, aws, azure) or a file,\n"
	"                         with the drivers bound now that it denies\n";

const struct ctl_verb ctl_verb_generate = {
	.name = "generate",
	.summary = "print a policy allowing the drivers bound now",
	.common = CTL_SYSROOT,
	.options = options,
	.parse = parse,
	.help = help,
	.run = run,
};
