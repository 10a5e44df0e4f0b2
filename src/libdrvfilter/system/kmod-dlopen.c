// SPDX-License-Identifier: GPL-2.0-only
/*
 * libkmod on first use (kmod-dlopen.h says why). A program that never looks a
 * module up (drvfilter-apply --udev, most of drvfilterctl's verbs) never maps
 * it; one that does and cannot load it gets an error it reports, never a
 * lookup that silently finds nothing.
 */
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>

#include "system/kmod-dlopen.h"

typeof(kmod_new) *sym_kmod_new;
typeof(kmod_unref) *sym_kmod_unref;
typeof(kmod_set_log_fn) *sym_kmod_set_log_fn;
typeof(kmod_load_resources) *sym_kmod_load_resources;
typeof(kmod_list_next) *sym_kmod_list_next;
typeof(kmod_module_new_from_lookup) *sym_kmod_module_new_from_lookup;
typeof(kmod_module_get_module) *sym_kmod_module_get_module;
typeof(kmod_module_get_name) *sym_kmod_module_get_name;
typeof(kmod_module_unref) *sym_kmod_module_unref;
typeof(kmod_module_unref_list) *sym_kmod_module_unref_list;

static struct {
	const char *name;
	void **sym;
} const table[] = {
	{ "kmod_new", (void **)&sym_kmod_new },
	{ "kmod_unref", (void **)&sym_kmod_unref },
	{ "kmod_set_log_fn", (void **)&sym_kmod_set_log_fn },
	{ "kmod_load_resources", (void **)&sym_kmod_load_resources },
	{ "kmod_list_next", (void **)&sym_kmod_list_next },
	{ "kmod_module_new_from_lookup", (void **)&sym_kmod_module_new_from_lookup },
	{ "kmod_module_get_module", (void **)&sym_kmod_module_get_module },
	{ "kmod_module_get_name", (void **)&sym_kmod_module_get_name },
	{ "kmod_module_unref", (void **)&sym_kmod_module_unref },
	{ "kmod_module_unref_list", (void **)&sym_kmod_module_unref_list },
};

static int state; /* 0: not tried; 1: loaded; -ELIBACC: failed */
static char reason[256];

static void unresolve(void)
{
	for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++)
		*table[i].sym = NULL;
}

int df_kmod_dlopen(const char **why)
{
	void *dl;

	if (state == 0) {
		/* Kept for the process's life: the symbols outlive every caller. */
		dl = dlopen(DF_LIBKMOD, RTLD_NOW | RTLD_NODELETE);
		if (!dl) {
			snprintf(reason, sizeof(reason), "%s", dlerror());
			state = -ELIBACC;
		}
		for (size_t i = 0; dl && i < sizeof(table) / sizeof(table[0]); i++) {
			*table[i].sym = dlsym(dl, table[i].name);
			if (!*table[i].sym) {
				snprintf(reason, sizeof(reason), "%s: no symbol %s", DF_LIBKMOD,
					 table[i].name);
				unresolve();
				state = -ELIBACC;
				break;
			}
		}
		if (state == 0)
			state = 1;
	}
	if (state < 0 && why)
		*why = reason;
	return state < 0 ? state : 0;
}
