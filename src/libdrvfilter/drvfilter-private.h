/* SPDX-License-Identifier: GPL-2.0-only */
/* Library internals shared between its files. */
#ifndef DRVFILTER_PRIVATE_H
#define DRVFILTER_PRIVATE_H

#include <syslog.h>

#include "drvfilter.h"
#include "macro.h"
#include "strmap.h"

_printf_(6, 7) void df_log(const struct df_ctx *ctx, int priority, const char *file, int line,
			   const char *fn, const char *format, ...);

#define df_log_cond(ctx, prio, ...) df_log(ctx, prio, __FILE__, __LINE__, __func__, __VA_ARGS__)
#define df_dbg(ctx, ...) df_log_cond(ctx, LOG_DEBUG, __VA_ARGS__)

_printf_(4, 5) int df_diags_add(struct df_diags *d, enum df_severity severity, unsigned line,
				const char *fmt, ...);
/* Order by line, keeping the order of messages on one line. */
void df_diags_sort(struct df_diags *d);

/* ---- policy-lex.c: the file as lines, for line numbers and what iniparser hides ---- */

/* iniparser 4.1 reads a line into 1024 bytes, newline and NUL included. */
#define DF_INI_LINE_MAX 1022
#define DF_POLICY_SIZE_MAX (1024 * 1024)
/* Text from the file quoted in a message is cut after this many bytes. */
#define DF_QUOTE_MAX 64

struct df_lex {
	char **ids; /* "section" or "section:key", as iniparser names them (lower case) */
	size_t count;
	size_t cap;
	struct strmap index; /* id -> its line, as a pointer-sized integer */
};

/* Scan @buf (@len bytes) as iniparser will; problems with their lines go to @diags. */
int df_lex_scan(struct df_lex *lex, const char *buf, size_t len, struct df_diags *diags);
/* The line of @id, 0 when the scan did not see it. */
unsigned df_lex_line(const struct df_lex *lex, const char *id);
void df_lex_release(struct df_lex *lex);

/* ---- policy.c / match.c ---- */

/* The rules of one list ([allow] or [deny]) for one key. */
struct df_busrules {
	const struct df_rule *all; /* KEY = ALL */
	struct strmap exact; /* name -> const struct df_rule * */
	const struct df_rule **globs;
	size_t nglobs;
	size_t capglobs;
};

struct df_ruleset {
	struct strmap buses; /* bus -> struct df_busrules * */
	struct df_busrules any; /* rules under the ALL key */
};

struct df_entry {
	enum df_section section;
	char *key; /* bus name, or "ALL" */
	bool any_bus;
	unsigned line;
	char *names; /* the list, split in place: rules[i].name points into it */
	struct df_rule *rules;
	size_t nrules;
};

struct df_policy {
	char *path;
	struct df_entry *entries; /* [allow] and [deny] lines, in file order */
	size_t nentries;
	struct df_ruleset allow;
	struct df_ruleset deny;
	struct df_rule default_rule;
	bool default_allows;
	enum df_bound bound;
	enum df_mode mode;
	bool lock;
};

int df_ruleset_add(struct df_ruleset *set, const struct df_rule *r, bool any_bus);
void df_ruleset_release(struct df_ruleset *set);
/* The most specific rule of @set matching @driver on @bus (lower case), or NULL. */
const struct df_rule *df_ruleset_match(const struct df_ruleset *set, const char *bus,
				       const char *driver);
const struct df_rule *df_busrules_match(const struct df_busrules *br, const char *driver);
bool df_name_is_glob(const char *name);

/* lint.c: warnings about rules that conflict or cannot match. */
int df_policy_lint(const struct df_policy *p, struct df_diags *diags);

#endif
