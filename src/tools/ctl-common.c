// SPDX-License-Identifier: GPL-2.0-only
/* Loading the policy and printing diagnostics, for every verb. */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdarg.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>

#include "ctl.h"
#include "log.h"
#include "macro.h"
#include "strbuf.h"

int ctl_error_errno(int r, const char *fmt, ...)
{
	_cleanup_free_ char *msg = NULL;
	va_list ap;
	int n;

	/* %m: the error being logged. */
	errno = r < 0 ? -r : r;
	va_start(ap, fmt);
	n = vasprintf(&msg, fmt, ap);
	va_end(ap);
	if (n < 0)
		return ctl_oom();
	log_error("%s", msg);
	return EXIT_ERROR;
}

int ctl_oom(void)
{
	log_oom();
	return EXIT_ERROR;
}

void ctl_json_init(struct json *j)
{
	json_init(j, stdout, arg_json == JSON_PRETTY);
}

char *ctl_policy_path(void)
{
	if (arg_policy)
		return strdup(arg_policy);
	return df_ctx_path(ctl_ctx, DRVFILTER_POLICY_PATH);
}

unsigned ctl_load_flags(void)
{
	/*
	 * Fixture trees belong to whoever runs the tests. The system's policy
	 * is a set: its drop-ins, and the runtime ones; a policy named with
	 * --policy brings its own drop-ins only.
	 */
	return (arg_sysroot ? DF_LOAD_ANY_OWNER : 0) | DF_LOAD_DROPINS |
	       (arg_policy ? 0 : DF_LOAD_RUNTIME);
}

void ctl_print_diags(const struct df_diags *d, FILE *f, bool errors_only)
{
	size_t total = errors_only ? d->errors : d->errors + d->warnings, shown = 0;

	for (size_t i = 0; i < d->count; i++) {
		const struct df_diag *g = &d->items[i];

		if (errors_only && g->severity != DF_ERROR)
			continue;
		shown++;
		if (g->line)
			fprintf(f, "%s:%u: %s: %s\n", df_diag_file(d, g), g->line,
				df_severity_name(g->severity), g->message);
		else
			fprintf(f, "%s: %s: %s\n", df_diag_file(d, g),
				df_severity_name(g->severity), g->message);
	}
	if (total > shown)
		fprintf(f, "%s: %zu more problems not shown\n", d->file, total - shown);
}

static int load_policy(unsigned flags, struct df_policy **ret)
{
	_cleanup_free_ char *path = ctl_policy_path();
	struct df_diags d;
	int r;

	if (!path)
		return EXIT_ERROR;
	df_diags_init(&d);
	r = df_policy_load(ctl_ctx, path, flags, &d, ret);
	if (r < 0) {
		/* Only the errors: warnings are check's business. */
		ctl_print_diags(&d, stderr, true);
		if (r == -ENOMEM)
			log_oom();
		log_error("the policy is not valid; at boot it would fail closed (every driver not "
			  "yet bound denied)");
	}
	df_diags_release(&d);
	return r < 0 ? EXIT_ERROR : EXIT_FINE;
}

int ctl_load_policy(struct df_policy **ret)
{
	return load_policy(ctl_load_flags(), ret);
}

int ctl_load_boot_policy(struct df_policy **ret)
{
	return load_policy(ctl_load_flags() & ~DF_LOAD_RUNTIME, ret);
}

const char *ctl_esc(struct strbuf *sb, const char *s)
{
	strbuf_clear(sb);
	(void)strbuf_append_escaped(sb, s ? s : "");
	return strbuf_str(sb);
}

/* A driver named without its bus: the "bus:driver" names this system has for it, as a hint. */
static int no_bus(const char *name)
{
	_cleanup_(df_inventory_freep) struct df_inventory *inv = NULL;
	struct strbuf sb = STRBUF_INIT, found = STRBUF_INIT;
	size_t n = 0;
	int r;

	if (df_inventory_load(ctl_ctx, 0, &inv) >= 0)
		for (size_t i = 0; i < inv->nbuses; i++)
			for (size_t k = 0; k < inv->buses[i].ndrivers; k++)
				if (streq(inv->buses[i].drivers[k].name, name))
					(void)strbuf_appendf(&found, "%s'%s:%s'", n++ ? " or " : "",
							     inv->buses[i].name, name);
	if (n)
		r = ctl_usage_error("'%s' is not BUS:DRIVER; did you mean %s?", ctl_esc(&sb, name),
				    strbuf_str(&found));
	else
		r = ctl_usage_error("'%s' is not BUS:DRIVER: name the driver with its bus, as in "
				    "pci:e1000 (drvfilterctl status --all lists the drivers there "
				    "are)",
				    ctl_esc(&sb, name));
	strbuf_release(&sb);
	strbuf_release(&found);
	return r;
}

int ctl_parse_subject(char *arg, const char **bus, const char **driver)
{
	struct strbuf sb = STRBUF_INIT;
	char *colon = strchr(arg, ':');
	const char *why;
	int r = EXIT_FINE;

	if (!colon)
		return no_bus(arg);
	*colon = '\0';
	*bus = arg;
	*driver = colon + 1;
	if (df_bus_name_check(*bus, &why) < 0)
		r = ctl_usage_error("invalid bus name '%s': it %s", ctl_esc(&sb, *bus), why);
	else if (df_driver_name_check(*driver, &why) < 0)
		r = ctl_usage_error("invalid driver name '%s': it %s", ctl_esc(&sb, *driver), why);
	strbuf_release(&sb);
	return r;
}

/*
 * Install @buf as @path: a temporary file in its directory, root-owned (when
 * run by root), @mode, fsync, rename, fsync of the directory.
 */
int ctl_install_file(const char *path, const char *buf, size_t len, mode_t mode)
{
	_cleanup_free_ char *dircopy = strdup(path), *tmp = NULL;
	_cleanup_close_ int dfd = -1;
	const char *dir;
	int fd, r;

	if (!dircopy)
		return -ENOMEM;
	dir = dirname(dircopy);
	if (asprintf(&tmp, "%s/.drvfilter-edit.XXXXXX", dir) < 0)
		return -ENOMEM;
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0)
		return -errno;
	r = df_write_full_fd(fd, buf, len);
	if (r == 0 && geteuid() == 0 && fchown(fd, 0, 0) < 0)
		r = -errno;
	if (r == 0 && fchmod(fd, mode) < 0)
		r = -errno;
	if (r == 0 && fsync(fd) < 0)
		r = -errno;
	if (close(fd) < 0 && r == 0)
		r = -errno;
	if (r == 0 && rename(tmp, path) < 0)
		r = -errno;
	if (r < 0) {
		unlink(tmp);
		return r;
	}
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd >= 0)
		(void)fsync(dfd);
	return 0;
}
