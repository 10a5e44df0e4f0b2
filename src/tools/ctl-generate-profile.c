// SPDX-License-Identifier: GPL-2.0-only
/*
 * drvfilterctl generate --profile: the profile as it is, then, in comments,
 * each driver bound now that it denies, with why that may be right (risky)
 * or must not be (the root file system or a console needs it: check refuses
 * the policy).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ctl-generate.h"
#include "ctl.h"
#include "log.h"
#include "macro.h"
#include "strbuf.h"

/* The drivers bound now that the profile denies. */
struct denied {
	struct strbuf notes; /* "# BUS DRIVER (DEVICES)[: why]" lines */
	struct strbuf names; /* ", BUS:DRIVER" each */
	size_t n;
	size_t needed; /* of them, those a boot device needs */
};

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

/* The profile's text, a regular file's only: EXIT_FINE, or EXIT_ERROR with why. */
static int read_profile(const char *path, char **text, size_t *len)
{
	_cleanup_close_ int fd = -1;
	struct stat st;
	int r;

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
	r = df_read_full_fd(fd, 1 << 20, text, len);
	if (r < 0) {
		log_error_errno(r, "cannot read the profile '%s': %m", path);
		return EXIT_ERROR;
	}
	return EXIT_FINE;
}

/*
 * The text read is the text checked and printed (the file may change
 * meanwhile): check's loader and its guard, whose errors (a root disk,
 * console or TPM the profile takes away) fail the command, *@nguard of them.
 * EXIT_FINE with *@ret, or the exit code.
 */
static int load_profile(const char *path, const char *text, size_t len, struct df_policy **ret,
			size_t *nguard)
{
	struct df_policy_source src = { .path = path, .buf = text, .len = len };
	struct df_policy *p = NULL;
	struct df_diags d;
	int r;

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
	*nguard = d.errors;
	if (*nguard)
		ctl_print_diags(&d, stderr, true);
	df_diags_release(&d);
	*ret = p;
	return EXIT_FINE;
}

/* @bus's @drv, bound now, into @dn if @p denies it: 0, or -ENOMEM. */
static int note_denied(struct denied *dn, const struct gen *gen, const struct df_policy *p,
		       const struct df_bus *bus, const struct df_driver *drv)
{
	const char *risk = df_driver_risk(bus->name, drv->name), *why;
	struct df_verdict v;
	bool needed;
	int r;

	/* A name no policy can hold is denied: named here, escaped. */
	if (df_driver_name_check(drv->name, &why) < 0)
		v.allowed = false;
	else
		df_policy_decide(p, bus->name, drv->name, &v);
	if (v.allowed)
		return 0;
	needed = gen_boot_needs(gen, bus->name, drv->name);
	dn->n++;
	dn->needed += needed;
	r = strbuf_appendf(&dn->notes, "# %s ", bus->name);
	if (r >= 0)
		r = gen_append_note_name(&dn->notes, drv->name);
	if (r >= 0)
		r = gen_append_devices(&dn->notes, drv, " (");
	if (r >= 0)
		r = strbuf_appendf(&dn->notes, ")%s%s%s\n",
				   needed ? ": the root file system or a console "
					    "needs it, allow it"
					  : "",
				   risk && !needed ? ": risky: " : "", risk && !needed ? risk : "");
	if (r >= 0)
		r = strbuf_appendf(&dn->names, ", %s:", bus->name);
	if (r >= 0)
		r = gen_append_note_name(&dn->names, drv->name);
	return r;
}

int gen_run_profile(const char *profile, const struct gen *gen, const struct df_inventory *inv)
{
	_cleanup_free_ char *path = profile_path(profile), *text = NULL;
	struct denied dn = { .notes = STRBUF_INIT, .names = STRBUF_INIT };
	struct df_policy *p = NULL;
	size_t len, nguard;
	int r;

	if (!path) {
		log_error("no profile '%s': a name is letters, digits and '-' (those shipped are "
			  "in %s), or a file's path with a '/'",
			  profile, DRVFILTER_PROFILE_DIR);
		return EXIT_ERROR;
	}
	r = read_profile(path, &text, &len);
	if (r == EXIT_FINE)
		r = load_profile(path, text, len, &p, &nguard);
	if (r != EXIT_FINE)
		return r;
	for (size_t i = 0; i < inv->nbuses && r >= 0; i++) {
		const struct df_bus *bus = &inv->buses[i];
		const char *why;

		if (df_bus_name_check(bus->name, &why) < 0)
			continue;
		for (size_t k = 0; k < bus->ndrivers && r >= 0; k++)
			if (bus->drivers[k].ndevices)
				r = note_denied(&dn, gen, p, bus, &bus->drivers[k]);
	}
	if (r >= 0) {
		fwrite(text, 1, len, stdout);
		if (len && text[len - 1] != '\n')
			fputc('\n', stdout);
		if (dn.n)
			printf("\n# Bound when 'drvfilterctl generate --profile' ran, and denied "
			       "by "
			       "this profile\n# (applied, the policy unbinds them):\n%s",
			       strbuf_str(&dn.notes));
	}
	if (r >= 0 && (dn.needed || nguard))
		log_error("the profile takes away what this machine boots from (see above and "
			  "the end of the output): check refuses the policy until it allows that");
	else if (r >= 0 && dn.n)
		log_info("the profile denies %zu driver%s bound now (%s): applied, the policy "
			 "unbinds %s",
			 dn.n, dn.n == 1 ? "" : "s", strbuf_str(&dn.names) + 2,
			 dn.n == 1 ? "it" : "them");
	if (r == -ENOMEM)
		log_oom();
	else if (r < 0)
		log_error_errno(r, "cannot read the profile '%s': %m", path);
	strbuf_release(&dn.notes);
	strbuf_release(&dn.names);
	df_policy_free(p);
	return r < 0 || dn.needed || nguard ? EXIT_ERROR : EXIT_FINE;
}
