/* SPDX-License-Identifier: GPL-2.0-only */
/* Library internals of the policy area: the lexer, compiled rule sets, the lints. */
#ifndef DRVFILTER_POLICY_PRIVATE_H
#define DRVFILTER_POLICY_PRIVATE_H

#include "core/core-private.h"
#include "policy/policy.h"

struct strbuf;

/* ---- policy-lex.c: the file as lines, for line numbers and what iniparser hides ---- */

/* iniparser 4.1 reads a line into 1024 bytes, newline and NUL included. */
#define DF_INI_LINE_MAX 1022
#define DF_POLICY_SIZE_MAX (1024 * 1024)
/* Text from the file quoted in a message is cut after this many bytes. */
#define DF_QUOTE_MAX 64

/* A section or a key, as the scan read it and iniparser must. */
struct df_lex_entry {
	char *id; /* "section" or "section:key", as iniparser names them (lower case) */
	char *value; /* a key's value as iniparser delivers it; NULL for a section */
	unsigned line; /* where it starts */
	size_t start, end; /* its bytes in the file, comments and continuations included */
};

struct df_lex {
	struct df_lex_entry *entries; /* in file order */
	size_t count;
	size_t cap;
	struct strmap index; /* id -> its index + 1, as a pointer-sized integer */
};

/* Scan @buf (@len bytes) as iniparser will; problems with their lines go to @diags. */
int df_lex_scan(struct df_lex *lex, const char *buf, size_t len, struct df_diags *diags);
/* The entry of @id, NULL when the scan did not see it. */
const struct df_lex_entry *df_lex_find(const struct df_lex *lex, const char *id);
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
	const char *file; /* one of the policy's files */
	char *names; /* the list, split in place: rules[i].name points into it */
	struct df_rule *rules;
	size_t nrules;
};

struct df_policy {
	char *path;
	char **files; /* path first, then its drop-ins */
	size_t nfiles;
	struct df_entry *entries; /* [allow] and [deny] lines, in file order */
	size_t nentries;
	size_t capentries;
	struct df_ruleset allow;
	struct df_ruleset deny;
	struct strmap devrules; /* "bus:driver" -> struct df_devrules *: [allow] DRIVER@ID */
	struct df_rule default_rule;
	bool default_allows;
	enum df_bound bound;
	enum df_mode mode;
	bool lock;
	enum df_measure measure;
	unsigned measure_pcr; /* DF_MEASURE_PCR_DEFAULT, or pcr:N */
	unsigned measure_line; /* where measure is set; 0: not set */
	const char *measure_file; /* ... in which file; NULL: the policy's */
	bool protect_boot; /* no denied driver of the boot devices (lint-boot.c) */
	bool fail_closed; /* not read from a file: see df_policy_new_fail_closed() */
	char sha256[65]; /* of the bytes read; empty for a fail-closed policy */
};

/* The device rules of one driver of one bus. */
struct df_devrules {
	char *key; /* "bus:driver", the map's key */
	const struct df_rule **v;
	size_t n, cap;
};

int df_ruleset_add(struct df_ruleset *set, const struct df_rule *r, bool any_bus);
int df_devrules_add(struct strmap *map, const struct df_rule *r);
void df_devrules_release(struct strmap *map);
void df_ruleset_release(struct df_ruleset *set);
/* The most specific rule of @set matching @driver on @bus (lower case), or NULL. */
const struct df_rule *df_ruleset_match(const struct df_ruleset *set, const char *bus,
				       const char *driver);
const struct df_rule *df_busrules_match(const struct df_busrules *br, const char *driver);

/* ---- the loader's pieces: policy-files.c, policy-ini.c, policy-filter.c, policy-lists.c ---- */

/* One file of the policy's set, as read. */
struct df_policy_file {
	const char *path;
	char *label; /* its name in the digest */
	char *buf;
	size_t len;
	struct df_lex lex;
};

/*
 * The drop-ins of @dir (absolute, as given), NAME.conf in lexical order, into
 * @paths and their digest names ("@prefix/NAME") into @labels. No directory
 * is no drop-in; any other entry than NAME.conf is an error (hidden ones,
 * such as an editor's copies, are passed over).
 */
int df_policy_list_dropins(const char *dir, const char *prefix, unsigned flags,
			   const struct df_policy_source *edited, struct df_diags *diags,
			   struct strv *paths, struct strv *labels);
/*
 * Read, scan and cross-check one file; its problems go to @diags, with its
 * name. -errno when it cannot be read (an error of the set, recorded: the
 * other files are still read), -ENOMEM, or 0.
 */
int df_policy_read_one(struct df_policy_file *f, unsigned flags,
		       const struct df_policy_source *edited, struct df_diags *diags);
/*
 * Hand the bytes that were scanned to iniparser, slice by slice, and refuse
 * the file unless it reads every section, key and value as the scan did.
 * Without memfd or /proc there is no such route, and the load fails (closed).
 */
int df_ini_cross_check(const char *buf, size_t len, const struct df_lex *lex,
		       struct df_diags *diags);

/* The [filter] settings, and where each was made across the files of the set. */
#define DF_FILTER_NSETTINGS 6
struct df_filter_where {
	const char *file;
	unsigned line;
};
/* Whether @key is one of [filter]'s settings. */
bool df_filter_setting_key(const char *key);
/* One key of [filter]: its value checked against its words, said once across the set. */
int df_policy_filter_key(struct df_policy *p, struct df_filter_where *where, const char *file,
			 const char *key, const char *val, unsigned line, struct df_diags *diags);
/* The entries of one file's scan ([allow], [deny], [filter] keys) into @p. */
int df_policy_load_entries(struct df_policy *p, struct df_filter_where *where, const char *file,
			   const struct df_lex *lex, struct df_diags *diags);
/* The index of @s in @list (case-insensitive), or -1. */
int df_word_index(const char *s, const char *const *list, size_t n);
/* "; did you mean OPEN x CLOSE?" into @buf, or "" when no word of @list is close. */
const char *df_word_hint(char *buf, size_t size, const char *word, const char *const *list,
			 size_t n, const char *open, const char *close);
/* @s, escaped and cut short, as the only content of @sb: for quoting in messages. */
int df_quote(struct strbuf *sb, const char *s);

/* lint.c: warnings about rules that conflict or cannot match. */
int df_policy_lint(const struct df_policy *p, struct df_diags *diags);

#endif
