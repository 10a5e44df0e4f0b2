/* SPDX-License-Identifier: GPL-2.0-only */
/* Library internals of the boot options: init calls, their trace, the command line. */
#ifndef DRVFILTER_BOOTOPTS_PRIVATE_H
#define DRVFILTER_BOOTOPTS_PRIVATE_H

#include "bootopts/bootopts.h"
#include "system/system-private.h"

/* ---- bootopts.c: the computation, and its result ---- */

/* Everything the computation reads, and what it builds. */
struct df_bootwork {
	struct df_ctx *ctx;
	const struct df_policy *p;
	const struct df_inventory *inv;
	struct df_modules *mods;
	struct df_bootopts *b;
	struct df_initcalls ic;
	struct df_trace trace;
	struct df_modtable mt;
	size_t capentries, capuncovered;
	struct strmap attributed; /* "bus:driver" a built-in init call registered -> non-NULL */
	struct strv attributed_keys;
	struct strmap device_modules; /* modules that drive a device of this system */
	struct strv device_module_keys;
	struct strmap module_inits; /* init function of a loadable module not denied -> module */
	struct strv module_init_keys;
	bool module_inits_read;
};

/* An option of @kind and rank @tier, naming @name of @module, with a sorted copy of @drivers. */
struct df_bootopt *df_bootopts_add_entry(struct df_bootwork *w, enum df_bootopt_kind kind,
					 enum df_bootopt_tier tier, const char *name,
					 const char *module, const struct strv *drivers);
/* @subject (a "bus:driver", or a module's name) is not covered, for the reason @fmt. */
_printf_(5, 6) int df_bootopts_add_uncovered(struct df_bootwork *w, const char *subject,
					     bool module, enum df_bootopt_tier tier,
					     const char *fmt, ...);
/* The driver of @inv a "bus:driver" name names (its bus in *@busp), or NULL. */
const struct df_driver *df_bootopts_inv_driver(const struct df_inventory *inv, const char *busdrv,
					       const struct df_bus **busp);

/* ---- bootopts-builtin.c: the built-in init calls' judgement ---- */

/* An option, or an uncovered driver, for each built-in module the trace shows registering one. */
int df_bootopts_builtin_options(struct df_bootwork *w);
/* Denied built-in drivers registered now that no init call of the trace accounts for. */
int df_bootopts_unattributed_builtins(struct df_bootwork *w);

/* ---- bootopts-modules.c: the loadable modules' judgement ---- */

/* The init functions of every loadable module the policy does not deny, once. */
int df_bootopts_read_module_inits(struct df_bootwork *w);
/* An option, or an uncovered module, for each loadable module whose drivers are all denied. */
int df_bootopts_module_options(struct df_bootwork *w);

/* ---- bootopts-line.c: the ranking, and the option line within the budget ---- */

/* The bus @bus is one whose devices the host offers. */
bool df_bootopts_host_bus(const char *bus);
/* Sort the options by rank, and the uncovered by subject. */
void df_bootopts_rank(struct df_bootwork *w);
/* @filter, then the ranked options that fit in the budget, as b->line. */
int df_bootopts_build_line(struct df_bootopts *b, const char *filter);

#endif
