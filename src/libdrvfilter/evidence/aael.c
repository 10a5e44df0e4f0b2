// SPDX-License-Identifier: GPL-2.0-only
/*
 * CoCo's attestation agent's event log (AAEL), read as its verifier reads
 * it: the INIT line gives RTMR 3's value when the agent began the log; the
 * INIT line and then each event line are extended as their SHA-384, in
 * order. Each line is the text of its own digest, so none can be given
 * another. The lines of drvfilter's domain and operation are kept, their
 * events to be judged by the caller (drvfilterctl verify --aael).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "evidence/evidence-private.h"
#include "sha512.h"

void df_aael_release(struct df_aael *a)
{
	for (size_t i = 0; i < a->n; i++)
		free(a->events[i]);
	free(a->events);
	free(a->lines);
	*a = (struct df_aael){ 0 };
}

static int add_event(struct df_aael *a, const char *text, size_t tl, size_t line)
{
	char **e = realloc(a->events, (a->n + 1) * sizeof(*e));
	size_t *l;

	if (!e)
		return -ENOMEM;
	a->events = e;
	l = realloc(a->lines, (a->n + 1) * sizeof(*l));
	if (!l)
		return -ENOMEM;
	a->lines = l;
	a->events[a->n] = strndup(text, tl);
	if (!a->events[a->n])
		return -ENOMEM;
	a->lines[a->n++] = line;
	return 0;
}

/* One line (without its newline): the INIT line first, then events. */
static int read_line(struct df_aael *a, const char *line, size_t len, char *why, size_t whysize)
{
	static const char init[] = "INIT sha384/";
	static const char prefix[] = DF_AAEL_DOMAIN " " DF_AAEL_OPERATION " {\"event\":\"";
	uint8_t d[48];
	char hex[97];

	a->nlines++;
	if (a->nlines == 1) {
		if (len != sizeof(init) - 1 + 96 || memcmp(line, init, sizeof(init) - 1) != 0) {
			snprintf(
				why, whysize,
				"line 1 is not the agent's INIT line for SHA-384 (\"INIT sha384/\" "
				"and 96 hex digits)");
			return -EBADMSG;
		}
		memcpy(hex, line + sizeof(init) - 1, 96);
		hex[96] = '\0';
		if (df_unhex(hex, a->init, 48) < 0) {
			snprintf(why, whysize, "line 1: its value is not hex digits");
			return -EBADMSG;
		}
		memcpy(a->value, a->init, 48);
	} else if (len >= sizeof(prefix) - 1 && memcmp(line, prefix, sizeof(prefix) - 1) == 0) {
		const char *text = line + sizeof(prefix) - 1;
		size_t tl = len - (sizeof(prefix) - 1);

		/* {"event":"TEXT"}, the text without quotes or backslashes (its grammar has none). */
		if (tl < 2 || memcmp(text + tl - 2, "\"}", 2) != 0 || memchr(text, '"', tl - 2) ||
		    memchr(text, '\\', tl)) {
			snprintf(why, whysize,
				 "line %zu: drvfilter's content is not {\"event\":\"TEXT\"}",
				 a->nlines);
			return -EBADMSG;
		}
		if (add_event(a, text, tl - 2, a->nlines) < 0)
			return -ENOMEM;
	}
	sha384(line, len, d);
	df_replay_sha384(a->value, d);
	return 0;
}

int df_aael_parse(const char *buf, size_t len, struct df_aael *ret, char *why, size_t whysize)
{
	const char *line = buf;
	int r;

	*ret = (struct df_aael){ 0 };
	if (memchr(buf, '\0', len)) {
		snprintf(why, whysize, "it holds a NUL byte");
		return -EBADMSG;
	}
	while (line < buf + len) {
		const char *nl = memchr(line, '\n', (size_t)(buf + len - line));

		if (!nl) {
			snprintf(why, whysize, "line %zu does not end", ret->nlines + 1);
			r = -EBADMSG;
			goto fail;
		}
		r = read_line(ret, line, (size_t)(nl - line), why, whysize);
		if (r < 0)
			goto fail;
		line = nl + 1;
	}
	if (ret->nlines == 0) {
		snprintf(why, whysize, "it is empty");
		r = -EBADMSG;
		goto fail;
	}
	return 0;
fail:
	df_aael_release(ret);
	return r;
}
