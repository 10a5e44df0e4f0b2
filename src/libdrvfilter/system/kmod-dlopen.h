/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef DRVFILTER_KMOD_DLOPEN_H
#define DRVFILTER_KMOD_DLOPEN_H

/*
 * libkmod, loaded when a module is first looked up, not when a program starts:
 * libkmod brings libcrypto, libzstd and liblzma, whose relocations were nine
 * tenths of each `drvfilter-apply --udev` run, and udev runs one per driver
 * and per bind at every coldplug (systemd loads libkmod the same way since
 * v256). The prototypes are libkmod's own, so a mismatch does not compile.
 */
#include <libkmod.h>

extern typeof(kmod_new) *sym_kmod_new;
extern typeof(kmod_unref) *sym_kmod_unref;
extern typeof(kmod_set_log_fn) *sym_kmod_set_log_fn;
extern typeof(kmod_load_resources) *sym_kmod_load_resources;
extern typeof(kmod_list_next) *sym_kmod_list_next;
extern typeof(kmod_module_new_from_lookup) *sym_kmod_module_new_from_lookup;
extern typeof(kmod_module_get_module) *sym_kmod_module_get_module;
extern typeof(kmod_module_get_name) *sym_kmod_module_get_name;
extern typeof(kmod_module_unref) *sym_kmod_module_unref;
extern typeof(kmod_module_unref_list) *sym_kmod_module_unref_list;

/*
 * Load libkmod (DF_LIBKMOD) and resolve every symbol above, once per process:
 * 0, or -ELIBACC with the reason in @why (dlerror()'s text), the same on every
 * later call. Nothing is half-resolved: on failure every pointer is NULL.
 */
int df_kmod_dlopen(const char **why);

#define DF_LIBKMOD "libkmod.so.2"

/* libkmod's kmod_list_foreach(), through the loaded symbol. */
#define sym_kmod_list_foreach(entry, head) \
	for ((entry) = (head); (entry) != NULL; (entry) = sym_kmod_list_next((head), (entry)))

#endif
