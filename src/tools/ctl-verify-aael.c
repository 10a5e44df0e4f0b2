// SPDX-License-Identifier: GPL-2.0-only
/*
 * CoCo's attestation agent's event log (AAEL), read as its verifier reads
 * it (drvfilterctl verify --aael): the INIT line gives RTMR 3's value when
 * AA started; the INIT line and then each event line are extended as their
 * SHA-384, in order. The replay is compared by ctl-verify.c; the lines of
 * drvfilter's domain and operation are handed over to be judged there.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctl-verify.h"
#include "macro.h"
#include "sha512.h"

#define AAEL_SIZE_MAX (16 * 1024 * 1024)

void verify_aael_release(struct aael *a)
{
	for (size_t i = 0; i < a->n; i++)
		free(a->events[i]);
	free(a->events);
	free(a->lines);
	*a = (struct aael){ 0 };
}

static int add_event(struct aael *a, const char *text, size_t line)
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
	a->events[a->n] = strdup(text);
	if (!a->events[a->n])
		return -ENOMEM;
	a->lines[a->n++] = line;
	return 0;
}

int verify_aael_read(const char *path, struct aael *ret, char *why, size_t whysize)
{
	_cleanup_free_ char *buf = NULL;
	static const char prefix[] = DF_AAEL_DOMAIN " " DF_AAEL_OPERATION " {\"event\":\"";
	uint8_t d[48];
	char *line, *next;
	size_t len, n = 0;
	int r;

	*ret = (struct aael){ 0 };
	if (verify_read_file(path, AAEL_SIZE_MAX, &buf, &len) < 0)
		return -EIO;
	if (memchr(buf, '\0', len)) {
		snprintf(why, whysize, "it holds a NUL byte");
		return -EBADMSG;
	}
	for (line = buf; line < buf + len; line = next) {
		char *nl = memchr(line, '\n', (size_t)(buf + len - line));

		if (!nl) {
			snprintf(why, whysize, "line %zu does not end", n + 1);
			return -EBADMSG;
		}
		*nl = '\0';
		next = nl + 1;
		n++;
		if (n == 1) {
			const char *v = startswith(line, "INIT sha384/");

			if (!v || strlen(v) != 96 || df_unhex(v, ret->init, 48) < 0) {
				snprintf(why, whysize,
					 "line 1 is not AA's INIT line for SHA-384 (\"INIT "
					 "sha384/\" and 96 hex digits)");
				return -EBADMSG;
			}
			memcpy(ret->value, ret->init, 48);
		} else {
			const char *text = startswith(line, prefix);

			if (text) {
				size_t tl = strlen(text);

				if (tl < 2 || strcmp(text + tl - 2, "\"}") != 0 ||
				    strpbrk(text, "\\") || memchr(text, '"', tl - 2)) {
					snprintf(why, whysize,
						 "line %zu: drvfilter's content is not "
						 "{\"event\":\"TEXT\"}",
						 n);
					return -EBADMSG;
				}
				text = strndupa(text, tl - 2);
				r = add_event(ret, text, n);
				if (r < 0)
					return r;
			}
		}
		sha384(line, strlen(line), d);
		df_replay_sha384(ret->value, d);
	}
	if (n == 0) {
		snprintf(why, whysize, "it is empty");
		return -EBADMSG;
	}
	ret->nlines = n;
	return 0;
}
