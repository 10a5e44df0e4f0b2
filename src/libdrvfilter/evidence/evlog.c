// SPDX-License-Identifier: GPL-2.0-only
/*
 * The verifier's side: systemd's userspace event log read back (JSON-SEQ,
 * any writer's records), replayed per register, and drvfilter's events
 * parsed by their grammar. Everything here reads what a guest handed over:
 * nothing in it is trusted until the replay equals a quoted register.
 */
#include <errno.h>
#include <stdio.h>

#include "evidence/evidence-private.h"
#include "json-read.h"
#include "sha256.h"
#include "sha512.h"

static int unhex(const char *s, uint8_t *out, size_t n)
{
	if (strlen(s) != 2 * n)
		return -EINVAL;
	for (size_t i = 0; i < n; i++) {
		unsigned v = 0;

		for (int k = 0; k < 2; k++) {
			int d = hex_digit(s[2 * i + k]);

			if (d < 0)
				return -EINVAL;
			v = v << 4 | (unsigned)d;
		}
		out[i] = (uint8_t)v;
	}
	return 0;
}

int df_unhex(const char *s, uint8_t *out, size_t n)
{
	return unhex(s, out, n);
}

/* How often @key is in object @v. */
static size_t key_count(const struct jv *v, const char *key)
{
	size_t n = 0;

	for (size_t i = 0; v && v->type == JV_OBJECT && i < v->count; i++)
		n += streq(v->keys[i], key);
	return n;
}

/*
 * A key verify reads, given twice: readers differ on which one counts, so the
 * record would say one thing to verify and another to the next tool.
 */
static const char *repeated_key(const struct jv *v, const char *const *keys, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (key_count(v, keys[i]) > 1)
			return keys[i];
	return NULL;
}

static const char *const record_keys[] = { "pcr", "rtmr", "digests", "content" };
static const char *const content_keys[] = { "string" };
static const char *const digest_keys[] = { "hashAlg", "digest" };

/* One record: its register, the digests verify can replay, and its text. */
static int parse_record(const char *buf, size_t len, struct df_evlog_record *rec, char *why,
			size_t whysize)
{
	const struct jv *digests, *content;
	const char *twice;
	struct jv root;
	size_t off;
	long long pcr, rtmr;
	int r = json_parse(buf, len, &root, &off);

	if (r == -ENOMEM)
		return r;
	if (r < 0) {
		snprintf(why, whysize, "it is not JSON (byte %zu)", off);
		return -EBADMSG;
	}
	*rec = (struct df_evlog_record){ .pcr = -1, .rtmr = -1 };
	r = -EBADMSG;
	content = jv_get(&root, "content");
	twice = repeated_key(&root, record_keys, ARRAY_SIZE(record_keys));
	if (!twice)
		twice = repeated_key(content, content_keys, ARRAY_SIZE(content_keys));
	if (twice) {
		snprintf(why, whysize, "its key \"%s\" is given twice", twice);
		goto out;
	}
	pcr = jv_get_int(&root, "pcr");
	rtmr = jv_get_int(&root, "rtmr");
	digests = jv_get(&root, "digests");
	if ((pcr < 0) == (rtmr < 0) || pcr > 23 || rtmr > 3) {
		snprintf(why, whysize, "it names no register, or two");
		goto out;
	}
	if (!digests || digests->type != JV_ARRAY || digests->count == 0) {
		snprintf(why, whysize, "it has no digests");
		goto out;
	}
	rec->pcr = (int)pcr;
	rec->rtmr = (int)rtmr;
	for (size_t i = 0; i < digests->count; i++) {
		const char *alg = jv_get_string(&digests->items[i], "hashAlg");
		const char *d = jv_get_string(&digests->items[i], "digest");

		if (!alg || !d) {
			snprintf(why, whysize, "a digest lacks hashAlg or digest");
			goto out;
		}
		twice = repeated_key(&digests->items[i], digest_keys, ARRAY_SIZE(digest_keys));
		if (twice) {
			snprintf(why, whysize, "its key \"%s\" is given twice", twice);
			goto out;
		}
		if ((streq(alg, "sha256") && rec->has_sha256) ||
		    (streq(alg, "sha384") && rec->has_sha384)) {
			snprintf(why, whysize, "its %s digest is given twice", alg);
			goto out;
		}
		if (streq(alg, "sha256") && unhex(d, rec->sha256, sizeof(rec->sha256)) == 0)
			rec->has_sha256 = true;
		else if (streq(alg, "sha384") && unhex(d, rec->sha384, sizeof(rec->sha384)) == 0)
			rec->has_sha384 = true;
		else if (streq(alg, "sha256") || streq(alg, "sha384")) {
			snprintf(why, whysize, "its %s digest is not %zu hex bytes", alg,
				 streq(alg, "sha256") ? sizeof(rec->sha256) : sizeof(rec->sha384));
			goto out;
		}
	}
	if (content && jv_get_string(content, "string")) {
		rec->string = strdup(jv_get_string(content, "string"));
		if (!rec->string) {
			r = -ENOMEM;
			goto out;
		}
	}
	r = 0;
out:
	jv_release(&root);
	return r;
}

int df_evlog_parse(const char *buf, size_t len, struct df_evlog *ret, char *why, size_t whysize)
{
	struct df_evlog log = { 0 };
	size_t start = 0;
	int r = 0;

	*ret = log;
	if (len && buf[0] != 0x1e) {
		snprintf(why, whysize,
			 "it is not JSON-SEQ: it does not start with a record separator");
		return -EBADMSG;
	}
	while (start < len) {
		const char *rs = memchr(buf + start + 1, 0x1e, len - start - 1);
		size_t end = rs ? (size_t)(rs - buf) : len;
		struct df_evlog_record *rec;
		char w[128];

		if (log.n == DF_EVLOG_RECORDS_MAX) {
			snprintf(why, whysize, "it holds more than %d records",
				 DF_EVLOG_RECORDS_MAX);
			r = -E2BIG;
			break;
		}
		rec = realloc(log.v, (log.n + 1) * sizeof(*log.v));
		if (!rec) {
			r = -ENOMEM;
			break;
		}
		log.v = rec;
		r = parse_record(buf + start + 1, end - start - 1, &log.v[log.n], w, sizeof(w));
		if (r < 0) {
			snprintf(why, whysize, "record %zu: %s", log.n + 1, w);
			break;
		}
		log.n++;
		start = end;
	}
	if (r < 0) {
		df_evlog_release(&log);
		return r;
	}
	*ret = log;
	return 0;
}

void df_evlog_release(struct df_evlog *log)
{
	for (size_t i = 0; i < log->n; i++)
		free(log->v[i].string);
	free(log->v);
	*log = (struct df_evlog){ 0 };
}

void df_replay_sha256(uint8_t value[32], const uint8_t digest[32])
{
	struct sha256 s;

	sha256_init(&s);
	sha256_update(&s, value, 32);
	sha256_update(&s, digest, 32);
	sha256_final(&s, value);
}

void df_replay_sha384(uint8_t value[48], const uint8_t digest[48])
{
	struct sha512 s;

	sha384_init(&s);
	sha512_update(&s, value, 48);
	sha512_update(&s, digest, 48);
	sha512_final(&s, value);
}

bool df_evlog_digest_matches(const struct df_evlog_record *rec)
{
	uint8_t d[SHA384_DIGEST_SIZE];

	if (!rec->string)
		return false;
	if (rec->pcr >= 0) {
		struct sha256 s;

		sha256_init(&s);
		sha256_update(&s, rec->string, strlen(rec->string));
		sha256_final(&s, d);
		return rec->has_sha256 && memcmp(d, rec->sha256, 32) == 0;
	}
	sha384(rec->string, strlen(rec->string), d);
	return rec->has_sha384 && memcmp(d, rec->sha384, 48) == 0;
}

static int parse_flag(const char **p, const char *key, bool *ret)
{
	const char *s = startswith(*p, key);

	if (!s)
		return -EINVAL;
	if (startswith(s, "yes"))
		*ret = true, s += 3;
	else if (startswith(s, "no"))
		*ret = false, s += 2;
	else
		return -EINVAL;
	*p = s;
	return 0;
}

static int parse_count(const char **p, const char *key, long long *ret)
{
	const char *s = startswith(*p, key);
	long long v = 0;

	if (!s || *s < '0' || *s > '9' || (*s == '0' && s[1] >= '0' && s[1] <= '9'))
		return -EINVAL;
	for (; *s >= '0' && *s <= '9'; s++) {
		if (v > 1000000000000LL)
			return -EINVAL;
		v = v * 10 + (*s - '0');
	}
	*ret = v;
	*p = s;
	return 0;
}

int df_event_parse(const char *text, struct df_event *ev)
{
	static const char *const modes[] = { "kernel", "fallback", "audit" };
	const char *p = startswith(text, DF_EVENT_VERSION " policy=");
	size_t n;

	*ev = (struct df_event){ 0 };
	if (!p)
		return -EINVAL;
	if (startswith(p, "none ")) {
		p += 4;
	} else {
		n = strspn(p, "0123456789abcdef");
		if (n != 64)
			return -EINVAL;
		memcpy(ev->policy, p, 64);
		p += 64;
	}
	p = startswith(p, " mode=");
	if (!p)
		return -EINVAL;
	for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]) && !*ev->mode; i++) {
		const char *s = startswith(p, modes[i]);

		if (s && *s == ' ') {
			snprintf(ev->mode, sizeof(ev->mode), "%s", modes[i]);
			p = s;
		}
	}
	if (!*ev->mode || parse_flag(&p, " fail-closed=", &ev->fail_closed) < 0 ||
	    parse_flag(&p, " override=", &ev->override) < 0 ||
	    parse_flag(&p, " locked=", &ev->locked) < 0 ||
	    parse_count(&p, " drivers=", &ev->drivers) < 0 ||
	    parse_count(&p, " allowed=", &ev->allowed) < 0 ||
	    parse_count(&p, " denied=", &ev->denied) < 0 ||
	    parse_count(&p, " unbound=", &ev->unbound) < 0 ||
	    parse_count(&p, " kept=", &ev->kept) < 0 ||
	    parse_count(&p, " blacklisted=", &ev->blacklisted) < 0 ||
	    parse_count(&p, " errors=", &ev->errors) < 0)
		return -EINVAL;
	return *p ? -EINVAL : 0;
}
