// SPDX-License-Identifier: GPL-2.0-only
/*
 * The [filter] section: default, bound, mode, lock, measure and protect_boot,
 * each a word of its list (measure also pcr:N), said once across the set.
 */
#include <assert.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <strings.h>

#include "policy/policy-private.h"
#include "strbuf.h"
#include "suggest.h"

int df_word_index(const char *s, const char *const *list, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (strcasecmp(s, list[i]) == 0)
			return (int)i;
	return -1;
}

/* " (did you mean 'x'?)" or "" */
const char *df_word_hint(char *buf, size_t size, const char *word, const char *const *list,
			 size_t n, const char *open, const char *close)
{
	const char *c = suggest(word, list, n);

	if (!c)
		return "";
	snprintf(buf, size, "; did you mean %s%s%s?", open, c, close);
	return buf;
}

/* @s, df_quote and cut short, as the only content of @sb: for quoting in messages. */
int df_quote(struct strbuf *sb, const char *s)
{
	strbuf_release(sb);
	return strbuf_append_escaped_max(sb, s, DF_QUOTE_MAX);
}

/* The [filter] settings: each value is an index into its list of words. */
static const char *const default_words[] = { "allow", "deny" };
static const char *const bound_words[] = { "unbind", "keep" };
static const char *const mode_words[] = { "auto", "kernel", "fallback", "audit" };
static const char *const lock_words[] = { "no", "yes", "false", "true", "off", "on", "0", "1" };
/* And pcr:N, read apart (measure_pcr()). */
static const char *const measure_words[] = { "no", "auto" };

static const struct filter_setting {
	const char *key;
	const char *const *words;
	size_t nwords;
	const char *expected;
} filter_settings[] = {
	{ "default", default_words, ARRAY_SIZE(default_words), "allow or deny" },
	{ "bound", bound_words, ARRAY_SIZE(bound_words), "unbind or keep" },
	{ "mode", mode_words, ARRAY_SIZE(mode_words), "auto, kernel, fallback or audit" },
	{ "lock", lock_words, ARRAY_SIZE(lock_words), "yes or no" },
	{ "measure", measure_words, ARRAY_SIZE(measure_words), "no, auto or pcr:N" },
	{ "protect_boot", lock_words, ARRAY_SIZE(lock_words), "yes or no" },
};
static_assert(ARRAY_SIZE(filter_settings) == DF_FILTER_NSETTINGS, "one place per setting");

bool df_filter_setting_key(const char *key)
{
	for (size_t i = 0; i < ARRAY_SIZE(filter_settings); i++)
		if (streq(key, filter_settings[i].key))
			return true;
	return false;
}

/*
 * measure = pcr:N: the PCRs an event may go to. 0-7 are the firmware's, 10
 * is IMA's, 11 is systemd-stub's and systemd-pcrphase's (systemd-pcrlock
 * predicts it), and 16-23 can be reset or need a locality above 0.
 */
static int measure_pcr(const char *val, unsigned *pcr, const char **why)
{
	char *end;
	unsigned long n;

	if (strncmp(val, "pcr:", 4) != 0 || val[4] < '0' || val[4] > '9' ||
	    (val[4] == '0' && val[5]))
		return -ENOENT;
	errno = 0;
	n = strtoul(val + 4, &end, 10);
	if (errno || *end || end - (val + 4) > 2)
		return -ENOENT;
	if (n < 8 || n > 15)
		*why = "the operating system's PCRs are 8 to 15 (0-7 are the firmware's, 16-23 can "
		       "be reset)";
	else if (n == 10)
		*why = "PCR 10 is IMA's";
	else if (n == 11)
		*why = "PCR 11 is systemd-stub's and systemd-pcrphase's, and systemd-pcrlock "
		       "predicts it";
	else {
		*pcr = (unsigned)n;
		return 0;
	}
	return -EINVAL;
}

static void apply_filter_setting(struct df_policy *p, size_t setting, int word, unsigned line)
{
	switch (setting) {
	case 0:
		p->default_allows = word == 0;
		p->default_rule.name = default_words[word];
		p->default_rule.line = line;
		break;
	case 1:
		p->bound = word == 0 ? DF_BOUND_UNBIND : DF_BOUND_KEEP;
		break;
	case 2:
		p->mode = (enum df_mode)word;
		break;
	case 3:
		p->lock = word % 2 == 1; /* lock_words alternates no, yes */
		break;
	case 4:
		p->measure = word == 0 ? DF_MEASURE_NO : DF_MEASURE_AUTO;
		break;
	default:
		p->protect_boot = word % 2 == 1;
		break;
	}
}

int df_policy_filter_key(struct df_policy *p, struct df_filter_where *where, const char *file,
			 const char *key, const char *val, unsigned line, struct df_diags *diags)
{
	const char *keys[ARRAY_SIZE(filter_settings)];
	struct strbuf sb = STRBUF_INIT;
	char h[128];
	int r;

	for (size_t i = 0; i < ARRAY_SIZE(filter_settings); i++) {
		const struct filter_setting *f = &filter_settings[i];
		int word;

		keys[i] = f->key;
		if (!streq(key, f->key))
			continue;
		/*
		 * Made once in the whole set: a drop-in that changed default = deny
		 * to allow unseen would loosen the policy; edit the file that says it.
		 */
		if (where[i].line)
			return df_diags_add(
				diags, DF_ERROR, line,
				"'%s' is set again (first in %s:%u): a [filter] setting is "
				"made in one file of the policy only",
				f->key, where[i].file, where[i].line);
		word = df_word_index(val, f->words, f->nwords);
		if (streq(f->key, "measure") && word < 0) {
			const char *why = NULL;
			unsigned pcr = 0;

			r = measure_pcr(val, &pcr, &why);
			if (r == 0) {
				where[i] = (struct df_filter_where){ file, line };
				p->measure = DF_MEASURE_PCR;
				p->measure_pcr = pcr;
				p->measure_line = line;
				p->measure_file = file;
				return 0;
			}
			if (r == -EINVAL)
				return df_diags_add(diags, DF_ERROR, line,
						    "invalid measure '%s': %s", val, why);
		}
		if (word >= 0) {
			where[i] = (struct df_filter_where){ file, line };
			apply_filter_setting(p, i, word, line);
			if (i == 0)
				p->default_rule.file = file;
			if (streq(f->key, "measure")) {
				p->measure_line = line;
				p->measure_file = file;
			}
			return 0;
		}
		r = df_quote(&sb, val);
		if (r >= 0)
			r = df_diags_add(diags, DF_ERROR, line, "invalid %s '%s': expected %s",
					 f->key, strbuf_str(&sb), f->expected);
		strbuf_release(&sb);
		return r;
	}
	r = df_quote(&sb, key);
	if (r >= 0)
		r = df_diags_add(diags, DF_ERROR, line, "unknown key '%s' in [filter]%s",
				 strbuf_str(&sb),
				 df_word_hint(h, sizeof(h), key, keys, ARRAY_SIZE(keys), "'", "'"));
	strbuf_release(&sb);
	return r;
}

const char *df_measure_setting_name(enum df_measure m, unsigned pcr, char buf[16])
{
	if (m == DF_MEASURE_PCR) {
		snprintf(buf, 16, "pcr:%u", pcr);
		return buf;
	}
	return m == DF_MEASURE_NO ? "no" : "auto";
}
