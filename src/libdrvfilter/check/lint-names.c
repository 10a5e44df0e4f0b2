// SPDX-License-Identifier: GPL-2.0-only
/*
 * The policy's driver names against the target kernel. The parser takes any
 * name that could be a driver's, so a typo (virtio_blck), a module's name
 * where the driver is named otherwise (virtio_pci for virtio-pci) or a
 * missing comma (virtio_net virtio_blk, one name with a blank) allows or
 * denies nothing, and can cost a guest its root disk without a word.
 *
 * What the target tells: the drivers registered on its buses (exact names,
 * /sys/bus/B/drivers), its modules (/sys/module, and the module tree's
 * modules.dep and modules.builtin), and which drivers its loaded modules
 * register (/sys/module/M/drivers/BUS:DRIVER). A module's name is a warning
 * only when the target shows that its driver is named otherwise and decided
 * otherwise: beside the driver's own name it serves fallback mode's
 * blacklist. A module that is not loaded is taken to register a driver of its
 * own name, in either spelling (as modules.c takes it), or one named by a
 * run of its words (sd of sd_mod). Any other name the target does not know
 * may still be a driver of another kernel, or of a module not loaded whose
 * driver is named wholly otherwise (pci_hyperv registers hv_pci): a warning,
 * which the caller may make an error (check --strict, the image builders'
 * gate). Without the registered drivers (a bare module tree), or without the
 * module tree, only a name one edit from a driver or module of its bus is
 * said: anything else may be a driver the target cannot show. A bus the
 * target lacks is said by df_policy_check_system(), and the names on it are
 * not checked; nor is the bus of a known driver, as it moves between kernels
 * (tpm_crb is an ACPI driver in 6.1, a platform one later).
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>

#include "check/check-private.h"
#include "strbuf.h"
#include "strv.h"
#include "suggest.h"

struct known {
	struct strv drivers; /* registered on any bus, each name once */
	struct strmap exact; /* the set of drivers' names */
	struct strv folded; /* each driver's name folded (fold()) */
	struct strmap byfold; /* folded -> the registered name */
	struct strv modules; /* '_' spelling, each once */
	struct strmap modset;
	struct strv loaded, registers; /* pairs: a loaded module, a "bus:driver" it registers */
	struct strv busnames;
	struct strmap buses;
	struct strv onbus; /* "bus:driver" of each registered driver */
	struct strmap onbusset;
	struct df_modules *mods; /* the module tree, or NULL */
	struct df_modtable table; /* its modules' buses, read when first needed */
	bool table_read;
	bool sys; /* /sys/bus was read: the registered drivers are known */
	bool tree; /* the module tree was read: the modules are known */
};

static void known_release(struct known *k)
{
	strmap_release(&k->exact);
	strmap_release(&k->byfold);
	strmap_release(&k->modset);
	strmap_release(&k->buses);
	strmap_release(&k->onbusset);
	strv_release(&k->onbus);
	df_modtable_release(&k->table);
	df_modules_free(k->mods);
	strv_release(&k->drivers);
	strv_release(&k->folded);
	strv_release(&k->modules);
	strv_release(&k->loaded);
	strv_release(&k->registers);
	strv_release(&k->busnames);
}

/* How a rule may misspell a driver's name: any case, '-' or '_'. */
static void fold(const char *s, char out[DF_NAME_MAX + 1])
{
	size_t i;

	for (i = 0; s[i] && i < DF_NAME_MAX; i++)
		out[i] = s[i] == '-' ? '_' : (char)tolower((unsigned char)s[i]);
	out[i] = '\0';
}

/* @s into @owner and the set @set, once. */
static int add_once(struct strv *owner, struct strmap *set, const char *s)
{
	int r;

	if (strmap_get(set, s))
		return 0;
	r = strv_push(owner, s);
	if (r < 0)
		return r;
	r = strmap_put(set, owner->v[owner->n - 1], owner->v[owner->n - 1], NULL);
	return r == -EEXIST ? 0 : r;
}

static int add_driver(struct known *k, const char *bus, const char *name)
{
	_cleanup_free_ char *bd = NULL;
	char f[DF_NAME_MAX + 1];
	size_t n = k->drivers.n;
	int r;

	if (asprintf(&bd, "%s:%s", bus, name) < 0)
		return -ENOMEM;
	r = add_once(&k->onbus, &k->onbusset, bd);
	if (r >= 0)
		r = add_once(&k->drivers, &k->exact, name);
	if (r < 0 || k->drivers.n == n)
		return r;
	fold(name, f);
	r = strv_push(&k->folded, f);
	if (r < 0)
		return r;
	/* The first spelling met stands for the others. */
	r = strmap_put(&k->byfold, k->folded.v[k->folded.n - 1], k->drivers.v[n], NULL);
	return r == -EEXIST ? 0 : r;
}

/* /sys/bus/B/drivers/D: the buses and the drivers registered on them. */
static int load_registered(struct df_ctx *ctx, struct known *k)
{
	_cleanup_close_ int fd = df_open_dir(ctx, "/sys/bus");
	struct df_names buses;
	int r;

	if (fd < 0)
		return 0;
	r = df_dir_list_dirs(fd, ".", &buses);
	if (r < 0)
		return r == -ENOMEM ? r : 0;
	k->sys = true;
	for (size_t i = 0; r >= 0 && i < buses.n; i++) {
		_cleanup_free_ char *rel = NULL;
		struct df_names drivers;

		r = add_once(&k->busnames, &k->buses, buses.v[i]);
		if (r < 0 || asprintf(&rel, "%s/drivers", buses.v[i]) < 0) {
			r = -ENOMEM;
			break;
		}
		if (df_dir_list_dirs(fd, rel, &drivers) < 0)
			continue;
		for (size_t j = 0; r >= 0 && j < drivers.n; j++)
			r = add_driver(k, buses.v[i], drivers.v[j]);
		df_names_release(&drivers);
	}
	df_names_release(&buses);
	return r;
}

/* /sys/module/M, and M/drivers/BUS:DRIVER of those that register drivers. */
static int load_loaded(struct df_ctx *ctx, struct known *k)
{
	_cleanup_close_ int fd = df_open_dir(ctx, "/sys/module");
	struct df_names mods;
	int r;

	if (fd < 0 || df_dir_list_dirs(fd, ".", &mods) < 0)
		return 0;
	r = 0;
	for (size_t i = 0; r >= 0 && i < mods.n; i++) {
		_cleanup_free_ char *rel = NULL;
		struct dirent *de;
		DIR *d;

		r = add_once(&k->modules, &k->modset, mods.v[i]);
		if (r < 0 || asprintf(&rel, "%s/drivers", mods.v[i]) < 0) {
			r = -ENOMEM;
			break;
		}
		d = df_dir_open_at(fd, rel);
		while (d && r >= 0 && df_dir_next(d, &de) > 0) {
			if (!strchr(de->d_name, ':') || df_sysfs_name_check(de->d_name) < 0)
				continue;
			r = strv_push(&k->loaded, mods.v[i]);
			if (r >= 0)
				r = strv_push(&k->registers, de->d_name);
		}
		if (d)
			closedir(d);
	}
	df_names_release(&mods);
	return r;
}

/* The module tree's modules, loadable and built in. */
static int load_tree(struct df_ctx *ctx, struct known *k)
{
	struct strv names = STRV_INIT;
	int r = df_modules_open(ctx, &k->mods);

	if (r < 0) {
		k->mods = NULL;
		df_dbg(ctx, "no module tree (%s): modules not known", strerror(-r));
		return r == -ENOMEM ? r : 0;
	}
	r = df_modules_names(k->mods, &names);
	for (size_t i = 0; r >= 0 && i < names.n; i++)
		r = add_once(&k->modules, &k->modset, names.v[i]);
	strv_release(&names);
	if (r >= 0)
		k->tree = true;
	return r == -ENOMEM ? r : 0;
}

static int known_load(struct df_ctx *ctx, struct known *k)
{
	int r = load_registered(ctx, k);

	if (r >= 0)
		r = load_loaded(ctx, k);
	if (r >= 0)
		r = load_tree(ctx, k);
	return r;
}

static bool is_module(const struct known *k, const char *name)
{
	char m[DF_NAME_MAX + 1];

	return df_modname_normalize(name, m) == 0 && strmap_get(&k->modset, m);
}

/* A registered driver's name, or a module's (a driver of its name, unless shown otherwise). */
static bool is_known(const struct known *k, const char *name)
{
	return strmap_get(&k->exact, name) || is_module(k, name);
}

/*
 * The drivers the loaded module @module registers that @p decides otherwise
 * than @rule's section would have it, as "bus:driver, ..." into @sb and
 * counted in *@against: 1 when the target shows the module's drivers, 0 when
 * it does not, or -ENOMEM.
 */
static int module_drivers_against(const struct known *k, const struct df_policy *p,
				  const struct df_rule *rule, const char *module, struct strbuf *sb,
				  size_t *against)
{
	bool shown = false;

	*against = 0;
	for (size_t i = 0; i < k->loaded.n; i++) {
		const char *bd = k->registers.v[i], *colon = strchr(bd, ':');
		char bus[DF_NAME_MAX + 1], esc[DF_ESC_SIZE];
		struct df_verdict v;

		if (!streq(k->loaded.v[i], module))
			continue;
		shown = true;
		snprintf(bus, sizeof(bus), "%.*s", (int)(colon - bd), bd);
		df_policy_decide(p, bus, colon + 1, &v);
		if (v.allowed == (rule->section == DF_SECTION_ALLOW))
			continue;
		if (strbuf_appendf(sb, "%s%s", *against ? ", " : "", df_esc(bd, esc)) < 0)
			return -ENOMEM;
		(*against)++;
	}
	return shown;
}

/* A name with blanks whose every word the target knows: one comma missing or more. */
static bool comma_missing(const struct known *k, const char *name)
{
	_cleanup_free_ char *copy = strdup(name);
	size_t words = 0;
	char *save = NULL;

	if (!copy || !strchr(name, ' '))
		return false;
	for (char *w = strtok_r(copy, " ", &save); w; w = strtok_r(NULL, " ", &save), words++)
		if (!is_known(k, w))
			return false;
	return words > 1;
}

/*
 * Whether the known name @near serves @bus: a driver registered on it, or a
 * module with a device alias for it (modules.alias, read the first time).
 */
static bool serves_bus(struct known *k, const char *bus, const char *near)
{
	_cleanup_free_ char *bd = NULL;
	const struct df_modinfo *mi;

	if (asprintf(&bd, "%s:%s", bus, near) < 0)
		return false;
	if (strmap_get(&k->onbusset, bd))
		return true;
	if (!k->table_read && k->mods) {
		k->table_read = true;
		if (df_modtable_load(k->mods, &k->table) < 0)
			k->table = (struct df_modtable){ 0 };
	}
	mi = strmap_get(&k->table.map, near);
	return mi && strv_contains(&mi->buses, bus);
}

static bool is_loaded(const struct known *k, const char *module)
{
	for (size_t i = 0; i < k->loaded.n; i++)
		if (streq(k->loaded.v[i], module))
			return true;
	return false;
}

/*
 * Whether @name may be the driver of a module that is not loaded and is
 * named otherwise, so that the target cannot show it: a run of the module's
 * words ('_' apart), as sd is the driver of sd_mod and storvsc of hv_storvsc,
 * the module serving @bus (NULL: any). A typo rarely is one (virtio_blck is
 * none of virtio_blk's); a module named wholly otherwise (pci_hyperv
 * registers hv_pci) is not seen.
 */
static bool driver_of_module(struct known *k, const char *bus, const char *name)
{
	char n[DF_NAME_MAX + 3], m[DF_NAME_MAX + 3];

	if (strchr(name, ' ') || df_modname_normalize(name, n + 1) < 0)
		return false;
	n[0] = '_';
	strcat(n, "_");
	for (size_t i = 0; i < k->modules.n; i++) {
		const char *mod = k->modules.v[i];

		if (strlen(mod) > DF_NAME_MAX)
			continue;
		snprintf(m, sizeof(m), "_%s_", mod);
		if (strstr(m, n) && !is_loaded(k, mod) && (!bus || serves_bus(k, bus, mod)))
			return true;
	}
	return false;
}

/* The name the target knows closest to @name, or NULL. */
static const char *closest(const struct known *k, const char *name, const char **list)
{
	size_t n = 0;

	for (size_t i = 0; i < k->drivers.n; i++)
		list[n++] = k->drivers.v[i];
	for (size_t i = 0; i < k->modules.n; i++)
		list[n++] = k->modules.v[i];
	return suggest(name, list, n);
}

static int check_rule(struct known *k, const struct df_policy *p, const struct df_entry *e,
		      const struct df_rule *rule, enum df_severity sev, const char **list,
		      struct df_diags *diags)
{
	_cleanup_(strbuf_release) struct strbuf sb = STRBUF_INIT;
	const char *name = rule->name, *registered, *near;
	char f[DF_NAME_MAX + 1], m[DF_NAME_MAX + 1], esc[DF_ESC_SIZE];

	if (streq(name, "ALL") || df_name_is_glob(name) || strmap_get(&k->exact, name))
		return 0;
	/*
	 * A module's name where its driver is named otherwise, when the target
	 * shows it. Beside a rule for the driver itself, it has a use: fallback
	 * mode judges a module that is not loaded by its name (generate writes
	 * xhci_hcd, xhci_pci); alone, the driver is decided otherwise.
	 */
	if (df_modname_normalize(name, m) == 0) {
		size_t against;
		int shown = module_drivers_against(k, p, rule, m, &sb, &against);

		if (shown < 0)
			return shown;
		if (shown && !against)
			return 0;
		if (shown)
			return df_diags_add(
				diags, sev, e->line,
				"%s:%s names the module %s, not its driver: %s stay%s %s (a rule "
				"names a driver, exactly as it is spelled)",
				rule->key, name, m, strbuf_str(&sb), against == 1 ? "s" : "",
				rule->section == DF_SECTION_ALLOW ? "denied" : "allowed");
	}
	fold(name, f);
	registered = strmap_get(&k->byfold, f);
	if (registered)
		return df_diags_add(diags, sev, e->line,
				    "%s:%s: this system has no driver of that name; did you mean "
				    "%s? (a rule matches a driver's name exactly)",
				    rule->key, name, df_esc(registered, esc));
	if (is_module(k, name))
		return 0;
	if (comma_missing(k, name))
		return df_diags_add(diags, DF_ERROR, e->line,
				    "%s:'%s' is no name this system knows, but each of its words "
				    "is: a comma is missing between them",
				    rule->key, name);
	if (driver_of_module(k, e->any_bus ? NULL : e->key, name))
		return 0;
	near = closest(k, name, list);
	/*
	 * Knowing part of the names, say only what is one edit from a driver or
	 * module of the rule's bus (ctrl is no typo of the crypto module ctr).
	 */
	if (!(k->sys && k->tree) && (!near || suggest_distance(name, near) > 1 ||
				     (!e->any_bus && !serves_bus(k, e->key, near))))
		return 0;
	if (near)
		return df_diags_add(diags, sev, e->line,
				    "%s:%s: this system has no driver or module of that name; did "
				    "you mean %s?",
				    rule->key, name, df_esc(near, esc));
	return df_diags_add(diags, sev, e->line,
			    "%s:%s: this system has no driver or module of that name", rule->key,
			    name);
}

/* Whether "bus:driver" of @rule is one of @subjects. */
static bool among(const struct df_rule *rule, char *const *subjects, size_t n)
{
	size_t klen = strlen(rule->key);

	for (size_t i = 0; i < n; i++)
		if (strncmp(subjects[i], rule->key, klen) == 0 && subjects[i][klen] == ':' &&
		    streq(subjects[i] + klen + 1, rule->name))
			return true;
	return false;
}

int df_policy_check_names(struct df_ctx *ctx, const struct df_policy *p, const char *file,
			  char *const *subjects, size_t nsubjects, unsigned flags,
			  struct df_diags *diags)
{
	enum df_severity sev = flags & DF_CHECK_STRICT ? DF_ERROR : DF_WARNING;
	struct known k = { 0 };
	_cleanup_free_ const char **list = NULL;
	int r = known_load(ctx, &k);

	if (r >= 0 && !k.sys && !k.modules.n) {
		df_dbg(ctx, "no /sys/bus and no modules under '%s': driver names not checked",
		       df_ctx_get_sysroot(ctx) ? df_ctx_get_sysroot(ctx) : "/");
		goto out;
	}
	if (r >= 0 && !(list = calloc(k.drivers.n + k.modules.n + 1, sizeof(*list))))
		r = -ENOMEM;
	for (size_t i = 0; r >= 0 && i < p->nentries; i++) {
		const struct df_entry *e = &p->entries[i];

		if (file && !(e->file && streq(e->file, file)))
			continue;
		/* A bus the target lacks is said already; its drivers cannot be known. */
		if (!e->any_bus && k.sys && !strmap_get(&k.buses, e->key))
			continue;
		r = df_diags_set_file(diags, e->file);
		for (size_t j = 0; r >= 0 && j < e->nrules; j++)
			if (!subjects || among(&e->rules[j], subjects, nsubjects))
				r = check_rule(&k, p, e, &e->rules[j], sev, list, diags);
	}
	if (r >= 0)
		r = df_diags_set_file(diags, NULL);
out:
	known_release(&k);
	return r;
}
