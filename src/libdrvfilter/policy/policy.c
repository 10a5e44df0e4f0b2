// SPDX-License-Identifier: GPL-2.0-only
/*
 * Loading a policy: read the file once, scan it for line numbers and traps
 * (policy-lex.c), hand the very same bytes to iniparser, check that both saw
 * the same sections and keys, then validate and compile what iniparser read.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <strings.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <iniparser.h>

#include "array.h"
#include "policy/policy-private.h"
#include "strv.h"
#include "sha256.h"
#include "strbuf.h"
#include "suggest.h"

static int compile(struct df_policy *p, struct df_diags *diags)
{
	for (size_t i = 0; i < p->nentries; i++) {
		struct df_entry *e = &p->entries[i];
		struct df_ruleset *set = e->section == DF_SECTION_ALLOW ? &p->allow : &p->deny;

		for (size_t j = 0; j < e->nrules; j++) {
			/* A device rule lets its driver take some devices: it is kept apart. */
			int r = e->rules[j].device ? df_devrules_add(&p->devrules, &e->rules[j])
						   : df_ruleset_add(set, &e->rules[j], e->any_bus);

			if (r == -EEXIST && (r = df_diags_set_file(diags, e->file)) >= 0)
				r = df_diags_add(diags, DF_WARNING, e->line,
						 "'%s' is listed twice for %s", e->rules[j].name,
						 e->key);
			if (r < 0)
				return r;
		}
	}
	return 0;
}

/*
 * The lists go to /sys/kernel/driver_filter in one write each, which sysfs
 * cuts at a page: a longer one would fail at boot, and apply would fail
 * closed (every driver denied). An error with mode = kernel, a warning with
 * mode = auto (a stock kernel would not need them), nothing in fallback.
 */
static int check_kernel_lists(const struct df_policy *p, struct df_diags *diags)
{
	_cleanup_free_ char *allow = NULL, *deny = NULL;
	int r = df_policy_kernel_lists(p, &allow, &deny);

	if (r < 0 || p->mode == DF_MODE_FALLBACK)
		return r;
	for (int k = 0; k < 2 && r >= 0; k++) {
		size_t n = strlen(k ? deny : allow);

		if (n > DF_KERNEL_LIST_MAX)
			r = df_diags_add(
				diags, p->mode == DF_MODE_KERNEL ? DF_ERROR : DF_WARNING, 0,
				"the kernel's %s list would take %zu bytes, but it takes at "
				"most %d in one write: in kernel mode the policy would fail "
				"closed (every driver denied); shorten the list (globs, ALL) or "
				"set [filter] mode = fallback",
				k ? "deny" : "allow", n, DF_KERNEL_LIST_MAX);
	}
	return r;
}

static struct df_policy *policy_new(const char *path)
{
	struct df_policy *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	p->path = strdup(path);
	if (!p->path)
		return df_policy_free(p);
	p->default_allows = true;
	p->default_rule = (struct df_rule){ DF_SECTION_FILTER, "default", "allow", 0, NULL, NULL };
	p->bound = DF_BOUND_UNBIND;
	p->mode = DF_MODE_AUTO;
	p->lock = false;
	p->measure = DF_MEASURE_AUTO;
	p->measure_pcr = DF_MEASURE_PCR_DEFAULT;
	p->protect_boot = true;
	return p;
}

/* The set's digest: one file's SHA-256, or that of every file's name, size and bytes. */
static void policy_digest(struct df_policy *p, const struct df_policy_file *files, size_t n)
{
	struct sha256 s;
	unsigned char d[SHA256_DIGEST_SIZE];

	if (n == 1) {
		sha256_hex(files[0].buf, files[0].len, p->sha256);
		return;
	}
	sha256_init(&s);
	sha256_update(&s, "drvfilter policy set\n", strlen("drvfilter policy set\n"));
	for (size_t i = 0; i < n; i++) {
		char head[64];

		sha256_update(&s, files[i].label, strlen(files[i].label));
		snprintf(head, sizeof(head), "\n%zu\n", files[i].len);
		sha256_update(&s, head, strlen(head));
		sha256_update(&s, files[i].buf, files[i].len);
	}
	sha256_final(&s, d);
	for (size_t i = 0; i < SHA256_DIGEST_SIZE; i++)
		snprintf(p->sha256 + 2 * i, 3, "%02x", d[i]);
}

int df_policy_load(struct df_ctx *ctx, const char *path, unsigned flags, struct df_diags *diags,
		   struct df_policy **ret)
{
	return df_policy_load_edited(ctx, path, flags, NULL, diags, ret);
}

/* The set's paths: the policy, its drop-ins, then the runtime ones; their digest names. */
static int list_set(struct df_ctx *ctx, const char *path, unsigned flags,
		    const struct df_policy_source *edited, struct df_diags *diags,
		    struct strv *paths, struct strv *labels)
{
	int r = strv_push(paths, path);

	if (r >= 0)
		r = strv_push(labels, strrchr(path, '/') ? strrchr(path, '/') + 1 : path);
	if (r >= 0 && (flags & DF_LOAD_DROPINS)) {
		_cleanup_free_ char *dir = NULL;

		if (asprintf(&dir, "%s.d", path) < 0)
			return -ENOMEM;
		r = df_policy_list_dropins(dir, "drvfilter.conf.d", flags, edited, diags, paths,
					   labels);
	}
	if (r >= 0 && (flags & DF_LOAD_RUNTIME)) {
		_cleanup_free_ char *dir = df_ctx_path(ctx, DF_RUNTIME_DROPIN_DIR);

		r = dir ? df_policy_list_dropins(dir, "run", flags, edited, diags, paths, labels)
			: -ENOMEM;
	}
	return r;
}

/* Each file of the set read into @files (as many as @paths); the first that cannot be says why. */
static int read_set(const struct strv *paths, const struct strv *labels, unsigned flags,
		    const struct df_policy_source *edited, struct df_diags *diags,
		    struct df_policy_file *files, size_t *nfiles)
{
	int r = 0;

	for (*nfiles = 0; *nfiles < paths->n && r != -ENOMEM; (*nfiles)++) {
		struct df_policy_file *f = &files[*nfiles];
		int k;

		f->path = paths->v[*nfiles];
		f->label = labels->v[*nfiles];
		k = df_policy_read_one(f, flags, edited, diags);
		if (k < 0 && r == 0)
			r = k;
	}
	return r;
}

/* The policy the files of the set say, compiled and linted; -EINVAL when they have errors. */
static int build(const char *path, const struct df_policy_file *files, size_t nfiles,
		 struct df_diags *diags, struct df_policy **ret)
{
	struct df_filter_where where[DF_FILTER_NSETTINGS] = { { 0 } };
	size_t errors = diags->errors;
	struct df_policy *p = policy_new(path);
	int r = 0;

	*ret = p;
	if (!p)
		return -ENOMEM;
	policy_digest(p, files, nfiles);
	for (size_t i = 0; i < nfiles && r >= 0; i++) {
		r = df_diags_set_file(diags, files[i].path);
		if (r >= 0)
			r = df_policy_load_entries(p, where, files[i].path, &files[i].lex, diags);
	}
	if (r < 0 || diags->errors > errors)
		return r;
	r = compile(p, diags);
	if (r >= 0)
		r = df_diags_set_file(diags, NULL);
	/*
	 * A set that says nothing (empty, comments only, or a truncated copy)
	 * would allow every driver, while a missing one fails closed: refuse it,
	 * and let an allow-all policy say so.
	 */
	if (r >= 0 && p->nentries == 0 && p->default_rule.line == 0)
		r = df_diags_add(diags, DF_ERROR, 0,
				 "the policy has no rules and no default: it would allow every "
				 "driver; write '[filter] default = allow' if that is meant");
	if (r >= 0)
		r = check_kernel_lists(p, diags);
	return r < 0 ? r : df_policy_lint(p, diags);
}

int df_policy_load_edited(struct df_ctx *ctx, const char *path, unsigned flags,
			  const struct df_policy_source *edited, struct df_diags *diags,
			  struct df_policy **ret)
{
	struct strv paths = STRV_INIT, labels = STRV_INIT;
	struct df_policy_file *files = NULL;
	struct df_policy *p = NULL;
	size_t errors, nfiles = 0;
	int r;

	free(diags->file);
	diags->file = strdup(path);
	if (!diags->file)
		return -ENOMEM;
	errors = diags->errors;
	r = list_set(ctx, path, flags, edited, diags, &paths, &labels);
	if (r >= 0) {
		files = calloc(paths.n, sizeof(*files));
		r = files ? read_set(&paths, &labels, flags, edited, diags, files, &nfiles)
			  : -ENOMEM;
	}
	if (r >= 0 && diags->errors == errors)
		r = build(path, files, nfiles, diags, &p);
	for (size_t i = 0; i < nfiles; i++) {
		free(files[i].buf);
		df_lex_release(&files[i].lex);
	}
	free(files);
	strv_release(&labels);
	(void)df_diags_set_file(diags, NULL);
	df_diags_sort(diags);
	if (r >= 0 && diags->errors > errors)
		r = -EINVAL;
	if (r < 0) {
		df_dbg(ctx, "policy '%s' not loaded: %s", path, strerror(-r));
		strv_release(&paths);
		df_policy_free(p);
		return r;
	}
	/* The entries and rules point at these names: the policy keeps them. */
	p->files = strv_steal(&paths, &p->nfiles);
	df_dbg(ctx, "policy '%s' loaded: %zu files, %zu entries", path, p->nfiles, p->nentries);
	*ret = p;
	return 0;
}

struct df_policy *df_policy_free(struct df_policy *p)
{
	if (!p)
		return NULL;
	df_ruleset_release(&p->allow);
	df_ruleset_release(&p->deny);
	df_devrules_release(&p->devrules);
	for (size_t i = 0; i < p->nentries; i++) {
		free(p->entries[i].key);
		free(p->entries[i].names);
		free(p->entries[i].rules);
	}
	free(p->entries);
	free(p->path);
	strv_free_array(p->files, p->nfiles);
	free(p);
	return NULL;
}

int df_policy_new_fail_closed(const char *path, struct df_policy **ret)
{
	struct df_policy *p = policy_new(path);

	if (!p)
		return -ENOMEM;
	/*
	 * Every driver is denied, but what is bound already stays bound (a guest
	 * that loses its disk and console cannot even report the problem), and the
	 * kernel's copy is locked so that nothing later can loosen it.
	 */
	p->fail_closed = true;
	p->default_allows = false;
	p->default_rule.key = "fail-closed";
	p->default_rule.name = "deny";
	p->bound = DF_BOUND_KEEP;
	p->lock = true;
	*ret = p;
	return 0;
}

const char *df_policy_path(const struct df_policy *p)
{
	return p->path;
}

size_t df_policy_nfiles(const struct df_policy *p)
{
	return p->nfiles ? p->nfiles : 1;
}

const char *df_policy_file(const struct df_policy *p, size_t i)
{
	return p->nfiles ? p->files[i] : p->path;
}

const char *df_policy_sha256(const struct df_policy *p)
{
	return p->sha256;
}

bool df_policy_default_allows(const struct df_policy *p)
{
	return p->default_allows;
}

enum df_bound df_policy_bound(const struct df_policy *p)
{
	return p->bound;
}

enum df_mode df_policy_mode(const struct df_policy *p)
{
	return p->mode;
}

bool df_policy_lock(const struct df_policy *p)
{
	return p->lock;
}

enum df_measure df_policy_measure(const struct df_policy *p, unsigned *pcr)
{
	if (pcr)
		*pcr = p->measure_pcr;
	return p->measure;
}

size_t df_policy_nrules(const struct df_policy *p)
{
	size_t n = 0;

	for (size_t i = 0; i < p->nentries; i++)
		n += p->entries[i].nrules;
	return n;
}

const struct df_rule *df_policy_rule(const struct df_policy *p, size_t i)
{
	for (size_t k = 0; k < p->nentries; k++) {
		if (i < p->entries[k].nrules)
			return &p->entries[k].rules[i];
		i -= p->entries[k].nrules;
	}
	return NULL;
}
