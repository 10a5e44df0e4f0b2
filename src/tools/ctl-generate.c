// SPDX-License-Identifier: GPL-2.0-only
/*
 * drvfilterctl generate: a policy that allows the drivers bound now but the
 * risky ones no boot device needs (left commented out, with the reason),
 * denies every other, and says where each allowed name comes from.
 */
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "ctl.h"
#include "log.h"
#include "macro.h"
#include "strbuf.h"
#include "strv.h"

static int arg_devices;
static const char *arg_profile;

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

/* What generate knows of the target: the drivers its boot devices need. */
struct gen {
	char **boot; /* "BUS:DRIVER" */
	size_t nboot;
	bool root_unknown; /* the root is on no block device: what it needs is not known */
	size_t nrisky; /* risky drivers bound now, left out */
	struct strbuf risky; /* ", BUS:DRIVER" each */
};

static bool boot_needs(const struct gen *gen, const char *bus, const char *driver)
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

/* @drv's devices, @first before the first and ", " between, cut short with a count. */
static int append_devices(struct strbuf *sb, const struct df_driver *drv, const char *first)
{
	size_t start = sb->len;
	int r = 0;

	for (size_t k = 0; k < drv->ndevices && r >= 0; k++) {
		if (sb->len - start > NOTE_DEVICES_MAX_BYTES)
			return strbuf_appendf(sb, " and %zu more", drv->ndevices - k);
		r = strbuf_append(sb, k ? ", " : first);
		if (r >= 0)
			r = append_note_name(sb, drv->devices[k]);
	}
	return r;
}

/* "# NAME: DEVICE, DEVICE" (no newline). */
static int note_devices(struct strbuf *notes, const struct df_driver *drv)
{
	int r = strbuf_appendf(notes, "# %s:", drv->name);

	return r < 0 ? r : append_devices(notes, drv, " ");
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

/*
 * The bus's allow list into @line, with a comment per driver in @notes; the
 * risky drivers bound now (df_driver_risk()) that no boot device needs into
 * @left, commented out, each with its reason in @left_notes.
 */
static int bus_line(struct gen *gen, const struct df_bus *bus, struct strbuf *line,
		    struct strbuf *notes, struct strbuf *left, struct strbuf *left_notes)
{
	struct strv names = STRV_INIT;
	size_t n = 0, nleft = 0;
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
		risk = df_driver_risk(bus->name, drv->name);
		if (risk && !gen->root_unknown && !boot_needs(gen, bus->name, drv->name)) {
			/* Left out: denied by default = deny, its device unbound. */
			r = strbuf_appendf(left, "%s%s", nleft++ ? ", " : "", drv->name);
			if (r >= 0)
				r = note_devices(left_notes, drv);
			/* Allowed back in fallback mode, its module's name must go with it. */
			if (r >= 0 && drv->module && !drv->builtin &&
			    !streq(drv->module, drv->name) &&
			    df_driver_name_check(drv->module, &why) == 0)
				r = strbuf_appendf(left_notes, " (module %s)", drv->module);
			if (r >= 0)
				r = strbuf_appendf(left_notes, ": %s\n", risk);
			if (r >= 0)
				r = strbuf_appendf(&gen->risky, ", %s:%s", bus->name, drv->name);
			gen->nrisky++;
			continue;
		}
		if (arg_devices && append_device_rules(bus, drv, line, &n, &r))
			;
		else
			r = add_name(line, &names, &n, drv->name);
		if (r >= 0)
			r = note_devices(notes, drv);
		if (r >= 0 && df_is_tpm_driver(bus->name, drv->name))
			r = strbuf_append(notes, drv->ndevices
							 ? " (the TPM: measure = auto needs it)"
							 : " a TPM's driver, allowed with nothing "
							   "bound now: measure = auto needs it");
		if (r >= 0 && risk)
			r = strbuf_appendf(notes, " (risky: %s; allowed, since %s)", risk,
					   gen->root_unknown
						   ? "generate cannot follow the root file "
						     "system's device, which may need it"
						   : "the boot devices need it");
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
			    !strv_contains(&names, drv->module) &&
			    df_driver_name_check(drv->module, &why) == 0) {
				r = add_name(line, &names, &n, drv->module);
				if (r >= 0)
					r = strbuf_appendf(notes,
							   "# %s: the module of %s, for fallback "
							   "mode's blacklist\n",
							   drv->module, drv->name);
			}
		}
	}
	strv_release(&names);
	if (r >= 0 && (line->len > LINE_MAX_BYTES || left->len > LINE_MAX_BYTES)) {
		log_error("bus %s: the list of bound drivers is longer than one policy line (%d "
			  "bytes) can hold",
			  bus->name, LINE_MAX_BYTES);
		r = -E2BIG;
	}
	return r < 0 ? r : (int)(n + nleft);
}

/* --profile NAME: a shipped profile's path (NAME: letters, digits, '-'), or the file NAME with a '/'. */
static char *profile_path(const char *name)
{
	char *path;

	if (strchr(name, '/'))
		return strdup(name);
	for (const char *c = name; *c; c++)
		if (!((*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') || *c == '-'))
			return NULL;
	if (!*name || asprintf(&path, "%s/%s.conf", DRVFILTER_PROFILE_DIR, name) < 0)
		return NULL;
	return path;
}

/*
 * generate --profile: the profile as it is, then, in comments, each driver
 * bound now that it denies, with why that may be right (risky) or must not
 * be (the root file system or a console needs it: check refuses the policy).
 */
static int run_profile(struct gen *gen, const struct df_inventory *inv)
{
	_cleanup_free_ char *path = profile_path(arg_profile), *text = NULL;
	_cleanup_close_ int fd = -1;
	struct strbuf notes = STRBUF_INIT, names = STRBUF_INIT;
	struct df_policy *p = NULL;
	struct df_policy_source src;
	struct df_diags d;
	struct stat st;
	size_t len, ndenied = 0, nneeded = 0, nguard;
	int r;

	if (!path) {
		log_error("no profile '%s': a name is letters, digits and '-' (those shipped are "
			  "in %s), or a file's path with a '/'",
			  arg_profile, DRVFILTER_PROFILE_DIR);
		return EXIT_ERROR;
	}
	/* O_NONBLOCK: a FIFO in its place must not hang generate; a regular file only. */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0 || fstat(fd, &st) < 0) {
		log_error_errno(-errno,
				"cannot read the profile '%s': %m (those shipped are in %s)", path,
				DRVFILTER_PROFILE_DIR);
		return EXIT_ERROR;
	}
	if (!S_ISREG(st.st_mode)) {
		log_error("the profile '%s' is not a regular file", path);
		return EXIT_ERROR;
	}
	r = df_read_full_fd(fd, 1 << 20, &text, &len);
	if (r < 0) {
		log_error_errno(r, "cannot read the profile '%s': %m", path);
		return EXIT_ERROR;
	}
	/*
	 * The text read is the text checked and printed (the file may change
	 * meanwhile): check's loader and its guard, whose errors (a root disk,
	 * console or TPM the profile takes away) fail the command.
	 */
	src = (struct df_policy_source){ .path = path, .buf = text, .len = len };
	df_diags_init(&d);
	r = df_policy_load_edited(ctl_ctx, path, DF_LOAD_ANY_OWNER, &src, &d, &p);
	if (r >= 0 && !d.errors)
		r = df_policy_check_boot(ctl_ctx, p, &d);
	if (r == -ENOMEM) {
		df_policy_free(p);
		df_diags_release(&d);
		return ctl_oom();
	}
	if (r < 0 || !p) {
		ctl_print_diags(&d, stderr, true);
		log_error("the profile '%s' is not a valid policy", path);
		df_policy_free(p);
		df_diags_release(&d);
		return EXIT_ERROR;
	}
	nguard = d.errors;
	if (nguard)
		ctl_print_diags(&d, stderr, true);
	df_diags_release(&d);
	r = 0;
	for (size_t i = 0; i < inv->nbuses && r >= 0; i++) {
		const struct df_bus *bus = &inv->buses[i];
		const char *why;

		if (df_bus_name_check(bus->name, &why) < 0)
			continue;
		for (size_t k = 0; k < bus->ndrivers && r >= 0; k++) {
			const struct df_driver *drv = &bus->drivers[k];
			const char *risk = df_driver_risk(bus->name, drv->name);
			struct df_verdict v;
			bool needed;

			if (drv->ndevices == 0)
				continue;
			/* A name no policy can hold is denied: named here, escaped. */
			if (df_driver_name_check(drv->name, &why) < 0)
				v.allowed = false;
			else
				df_policy_decide(p, bus->name, drv->name, &v);
			if (v.allowed)
				continue;
			needed = boot_needs(gen, bus->name, drv->name);
			ndenied++;
			nneeded += needed;
			r = strbuf_appendf(&notes, "# %s ", bus->name);
			if (r >= 0)
				r = append_note_name(&notes, drv->name);
			if (r >= 0)
				r = append_devices(&notes, drv, " (");
			if (r >= 0)
				r = strbuf_appendf(&notes, ")%s%s%s\n",
						   needed ? ": the root file system or a console "
							    "needs it, allow it"
							  : "",
						   risk && !needed ? ": risky: " : "",
						   risk && !needed ? risk : "");
			if (r >= 0)
				r = strbuf_appendf(&names, ", %s:", bus->name);
			if (r >= 0)
				r = append_note_name(&names, drv->name);
		}
	}
	if (r >= 0) {
		fwrite(text, 1, len, stdout);
		if (len && text[len - 1] != '\n')
			fputc('\n', stdout);
		if (ndenied)
			printf("\n# Bound when 'drvfilterctl generate --profile' ran, and denied "
			       "by "
			       "this profile\n# (applied, the policy unbinds them):\n%s",
			       strbuf_str(&notes));
	}
	if (r >= 0 && (nneeded || nguard))
		log_error("the profile takes away what this machine boots from (see above and "
			  "the end of the output): check refuses the policy until it allows that");
	else if (r >= 0 && ndenied)
		log_info("the profile denies %zu driver%s bound now (%s): applied, the policy "
			 "unbinds %s",
			 ndenied, ndenied == 1 ? "" : "s", strbuf_str(&names) + 2,
			 ndenied == 1 ? "it" : "them");
	if (r == -ENOMEM)
		log_oom();
	else if (r < 0)
		log_error_errno(r, "cannot read the profile '%s': %m", path);
	strbuf_release(&notes);
	strbuf_release(&names);
	df_policy_free(p);
	return r < 0 || nneeded || nguard ? EXIT_ERROR : EXIT_FINE;
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
		ret = run_profile(&gen, inv);
		strv_free_array(gen.boot, gen.nboot);
		df_inventory_free(inv);
		return ret;
	}
	if (r >= 0)
		r = strbuf_append(
			&out,
			"# drvfilter policy written by 'drvfilterctl generate': it allows the "
			"drivers\n"
			"# bound to a device when it ran, but those that are risky in a "
			"confidential\n"
			"# guest (left commented out, each with its reason), and denies every "
			"other driver.\n"
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
		struct strbuf left = STRBUF_INIT, left_notes = STRBUF_INIT;
		const char *why;

		if (df_bus_name_check(bus->name, &why) < 0)
			continue;
		r = bus_line(&gen, bus, &line, &notes, &left, &left_notes);
		if (r > 0 && line.len)
			r = strbuf_appendf(&out, "%s%s = %s\n", strbuf_str(&notes), bus->name,
					   strbuf_str(&line));
		/* Two lines of one key would be an error: the names go onto the list above. */
		if (r >= 0 && left.len && line.len)
			r = strbuf_appendf(
				&out,
				"# Bound now but left out, risky in a confidential guest "
				"(add to the list above\n# what this guest needs):\n%s",
				strbuf_str(&left_notes));
		else if (r >= 0 && left.len)
			r = strbuf_appendf(
				&out,
				"# Bound now but left out, risky in a confidential guest "
				"(uncomment what\n# this guest needs):\n%s# %s = %s\n",
				strbuf_str(&left_notes), bus->name, strbuf_str(&left));
		strbuf_release(&line);
		strbuf_release(&notes);
		strbuf_release(&left);
		strbuf_release(&left_notes);
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
