// SPDX-License-Identifier: GPL-2.0-only
/*
 * What modules can tell: which module an unbound device would load (libkmod's
 * alias lookup), which modules are built in, and (module-table.c) which
 * modules provide a denied driver, for the fallback blacklist.
 *
 * A module's driver names are exact once it is loaded (/sys/module/M/drivers
 * holds "bus:driver" links). Before that only its name is known, and a driver
 * is usually named like its module with '_' or '-' (virtio_pci registers
 * virtio-pci): a module not loaded is taken to provide a driver of its own
 * name, in either spelling, on each bus its device aliases name. When the
 * driver's name is another (xhci_pci registers xhci_hcd), the blacklist cannot
 * see it; the udev bind rule still unbinds it, and `status` says so.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "array.h"
#include "system/system-private.h"
#include "system/kmod-dlopen.h"
#include "strbuf.h"
#include "strv.h"

_printf_(6, 0) static void kmod_log(void *data, int priority, const char *file, int line,
				    const char *fn, const char *format, va_list args)
{
	struct df_ctx *ctx = data;
	char msg[512];

	vsnprintf(msg, sizeof(msg), format, args);
	msg[strcspn(msg, "\n")] = '\0';
	/* libkmod's complaints are about its own files: debug detail for us. */
	df_log(ctx, LOG_DEBUG, file, line, fn, "libkmod: %s", msg);
}

int df_modules_open(struct df_ctx *ctx, struct df_modules **ret)
{
	_cleanup_free_ char *dir = NULL, *rel = NULL;
	struct df_modules *m;
	char release[DF_NAME_MAX + 1];
	const char *null_config[] = { NULL };
	const char *why;
	int r;

	r = df_osrelease(ctx, release, sizeof(release));
	if (r < 0)
		return r;
	if (asprintf(&rel, "/lib/modules/%s", release) < 0)
		return -ENOMEM;
	/* Another root's tree (the real root, from the initramfs), else the sysroot's. */
	if (df_ctx_get_modules_root(ctx)) {
		if (asprintf(&dir, "%s%s", df_ctx_get_modules_root(ctx), rel) < 0)
			dir = NULL;
	} else {
		dir = df_ctx_path(ctx, rel);
	}
	if (!dir)
		return -ENOMEM;
	if (access(dir, F_OK) < 0)
		return -errno;
	r = df_kmod_dlopen(&why);
	if (r < 0) {
		df_ctx_log(ctx, LOG_ERR,
			   "action=load-library library=%s result=error message=\"%s\"", DF_LIBKMOD,
			   why);
		return r;
	}
	m = calloc(1, sizeof(*m));
	if (!m)
		return -ENOMEM;
	m->ctx = df_ctx_ref(ctx);
	snprintf(m->dirname, sizeof(m->dirname), "%s", dir);
	/* No modprobe.d: lookups must show what the aliases say, not our own blacklist. */
	m->kmod = sym_kmod_new(dir, null_config);
	if (!m->kmod) {
		df_modules_free(m);
		return -ENOMEM;
	}
	sym_kmod_set_log_fn(m->kmod, kmod_log, ctx);
	/*
	 * The indexes mapped once, as modprobe and udev do: without it each
	 * lookup opens and reads its index again (a third of a `cmdline`
	 * run's instructions on Debian's 6.1 tree). A tree whose indexes
	 * cannot all be mapped (one without modules.symbols.bin, say) is
	 * still read that slower way.
	 */
	sym_kmod_load_resources(m->kmod);
	*ret = m;
	return 0;
}

struct df_modules *df_modules_free(struct df_modules *m)
{
	if (!m)
		return NULL;
	if (m->kmod)
		sym_kmod_unref(m->kmod);
	df_ctx_unref(m->ctx);
	free(m);
	return NULL;
}

int df_modules_lookup(struct df_modules *m, const char *modalias, char ***ret, size_t *ret_n)
{
	struct kmod_list *list = NULL, *l;
	struct strv names = STRV_INIT;
	int r;

	r = sym_kmod_module_new_from_lookup(m->kmod, modalias, &list);
	if (r < 0)
		return r;
	sym_kmod_list_foreach(l, list)
	{
		struct kmod_module *mod = sym_kmod_module_get_module(l);

		r = strv_push(&names, sym_kmod_module_get_name(mod));
		sym_kmod_module_unref(mod);
		if (r < 0)
			break;
	}
	sym_kmod_module_unref_list(list);
	if (r < 0) {
		strv_release(&names);
		return r;
	}
	*ret = strv_steal(&names, ret_n);
	return 0;
}

const char *df_modules_dir(const struct df_modules *m)
{
	return m->dirname;
}

size_t df_modules_known(const struct df_modules *m)
{
	return m->known;
}

bool df_modules_exists(struct df_modules *m, const char *name)
{
	struct kmod_list *list = NULL, *l;
	bool found = false;

	if (!m || sym_kmod_module_new_from_lookup(m->kmod, name, &list) < 0)
		return false;
	sym_kmod_list_foreach(l, list)
	{
		struct kmod_module *mod = sym_kmod_module_get_module(l);

		found |= streq(sym_kmod_module_get_name(mod), name);
		sym_kmod_module_unref(mod);
	}
	sym_kmod_module_unref_list(list);
	return found;
}

int df_inventory_add_candidates(struct df_inventory *inv, struct df_modules *m)
{
	for (size_t i = 0; i < inv->nbuses; i++)
		for (size_t j = 0; j < inv->buses[i].ndevices; j++) {
			struct df_device *dev = &inv->buses[i].devices[j];
			int r;

			if (dev->driver || !dev->modalias || dev->candidates)
				continue;
			r = df_modules_lookup(m, dev->modalias, &dev->candidates,
					      &dev->ncandidates);
			if (r == -ENOMEM)
				return r;
		}
	return 0;
}

int df_inventory_add_modules(struct df_inventory *inv, struct df_modules *m)
{
	for (size_t i = 0; i < inv->nbuses; i++)
		for (size_t j = 0; j < inv->buses[i].ndrivers; j++) {
			struct df_driver *drv = &inv->buses[i].drivers[j];
			char name[DF_NAME_MAX + 1];

			if (drv->module || !drv->builtin)
				continue;
			/* modules.builtin names the module a built-in driver of its name is in. */
			if (df_modname_normalize(drv->name, name) == 0 &&
			    df_modules_exists(m, name) && !(drv->module = strdup(name)))
				return -ENOMEM;
		}
	return 0;
}
