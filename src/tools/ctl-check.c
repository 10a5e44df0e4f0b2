// SPDX-License-Identifier: GPL-2.0-only
/* drvfilterctl check [FILE]: the gate a policy passes before it is used. */
#include <errno.h>
#include <dirent.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>

#include "ctl.h"
#include "log.h"
#include "macro.h"

static int arg_strict;
static int arg_other_machine;

static void print_json(const struct df_diags *d, bool valid)
{
	struct json j;

	ctl_json_init(&j);
	json_object_begin(&j);
	json_field_string(&j, "file", d->file);
	json_field_bool(&j, "valid", valid);
	json_field_int(&j, "errors", (long long)d->errors);
	json_field_int(&j, "warnings", (long long)d->warnings);
	json_key(&j, "diagnostics");
	json_array_begin(&j);
	for (size_t i = 0; i < d->count; i++) {
		const struct df_diag *g = &d->items[i];

		json_object_begin(&j);
		json_field_string(&j, "file", df_diag_file(d, g));
		json_field_string(&j, "severity", df_severity_name(g->severity));
		json_field_int(&j, "line", g->line);
		json_field_string(&j, "message", g->message);
		json_object_end(&j);
	}
	json_array_end(&j);
	json_object_end(&j);
	json_finish(&j);
}

static const char *plural(size_t n)
{
	return n == 1 ? "" : "s";
}

/* Whether @st is the file @path, or a file of the directory @dir (under the sysroot), links followed. */
static bool is_or_in(const struct stat *st, const char *path, const char *dir)
{
	_cleanup_free_ char *p = df_ctx_path(ctl_ctx, path), *d = df_ctx_path(ctl_ctx, dir);
	struct stat other;
	struct dirent *de;
	bool found = false;
	DIR *dh;

	if (p && stat(p, &other) == 0 && other.st_dev == st->st_dev && other.st_ino == st->st_ino)
		return true;
	dh = d ? opendir(d) : NULL;
	if (!dh)
		return false;
	/* The drop-ins as the loader opens them: through a link, by another name. */
	while (!found && (de = readdir(dh)))
		found = fstatat(dirfd(dh), de->d_name, &other, 0) == 0 &&
			other.st_dev == st->st_dev && other.st_ino == st->st_ino;
	closedir(dh);
	return found;
}

/*
 * Whether the policy loader reads @file on this system: the policy or one of
 * its drop-ins, by whatever name (a link, a hard link, a bind mount: the same
 * inode). Any other file (a checkout, a file being written) is checked for
 * what it says, and its owner and mode where it is installed.
 */
static bool read_at_boot(const char *file)
{
	struct stat st;

	if (stat(file, &st) < 0)
		return true; /* the loader says why it cannot be read */
	return is_or_in(&st, DRVFILTER_POLICY_PATH, DRVFILTER_POLICY_PATH ".d") ||
	       is_or_in(&st, DRVFILTER_POLICY_PATH, DF_RUNTIME_DROPIN_DIR);
}

/* Whether the owner and mode rules would refuse @path (an -EPERM of the strict loader). */
static bool fails_owner_rules(const char *path, unsigned flags)
{
	struct df_policy *p = NULL;
	struct df_diags d;
	int r;

	df_diags_init(&d);
	r = df_policy_load(ctl_ctx, path, flags, &d, &p);
	df_policy_free(p);
	df_diags_release(&d);
	return r == -EPERM;
}

static int run(int argc, char **argv)
{
	_cleanup_free_ char *path = argc > 1 ? strdup(argv[1]) : ctl_policy_path();
	struct df_policy *p = NULL;
	struct df_diags d;
	bool valid, owner_note = false;
	unsigned flags;
	int r;

	if (!path)
		return EXIT_ERROR;
	df_diags_init(&d);
	/* check FILE is about that file alone; without one, about the policy's set. */
	flags = argc > 1 ? ctl_load_flags() & DF_LOAD_ANY_OWNER : ctl_load_flags();
	if (argc > 1 && !(flags & DF_LOAD_ANY_OWNER) && !read_at_boot(path) &&
	    fails_owner_rules(path, flags)) {
		owner_note = true;
		flags |= DF_LOAD_ANY_OWNER;
	}
	r = df_policy_load(ctl_ctx, path, flags, &d, &p);
	if (r >= 0)
		r = df_policy_check_system(ctl_ctx, p,
					   (arg_strict ? DF_CHECK_STRICT : 0) |
						   (arg_other_machine ? DF_CHECK_OTHER_MACHINE : 0),
					   &d);
	valid = r >= 0 && d.errors == 0;
	if (r == -ENOMEM && !d.file) {
		log_oom();
	} else if (arg_json) {
		print_json(&d, valid);
	} else {
		ctl_print_diags(&d, stderr, false);
		if (valid)
			printf("%s: OK%s", d.file, d.warnings ? ", " : "\n");
		else
			fprintf(stderr, "%s: %zu error%s", d.file, d.errors, plural(d.errors));
		if (d.warnings)
			fprintf(valid ? stdout : stderr, "%s%zu warning%s\n", valid ? "" : ", ",
				d.warnings, plural(d.warnings));
		else if (!valid)
			fputc('\n', stderr);
		if (owner_note)
			fprintf(stderr,
				"%s: note: not a file the policy is read from here, so its owner, "
				"mode and directories are not checked: they are where it is "
				"installed (%s: root's, 0644 or stricter)\n",
				d.file, DRVFILTER_POLICY_PATH);
	}
	df_policy_free(p);
	df_diags_release(&d);
	return valid ? EXIT_FINE : EXIT_ERROR;
}

static const struct option options[] = {
	{ "strict", no_argument, &arg_strict, 1 },
	{ "other-machine", no_argument, &arg_other_machine, 1 },
	{},
};

static const char help[] =
	"      --strict           a driver name this system does not know is an error,\n"
	"                         not a warning (the image builders' gate)\n"
	"      --other-machine    the policy is for another machine (an image built here\n"
	"                         for it): this one's root file system, console and TPM\n"
	"                         are not guarded\n";

const struct ctl_verb ctl_verb_check = {
	.name = "check",
	.args = "[FILE]",
	.max_args = 1,
	.summary = "validate a policy (default: the --policy file)",
	.common = CTL_POLICY | CTL_SYSROOT | CTL_JSON,
	.options = options,
	.help = help,
	.run = run,
};
