// SPDX-License-Identifier: GPL-2.0-only
/* A recursive-descent JSON reader (RFC 8259), strict: no trailing commas, no comments. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "json-read.h"
#include "strbuf.h"

struct parser {
	const char *s;
	size_t len;
	size_t pos;
};

static void skip_ws(struct parser *p)
{
	while (p->pos < p->len && strchr(" \t\r\n", p->s[p->pos]) && p->s[p->pos])
		p->pos++;
}

static bool eat(struct parser *p, const char *word)
{
	size_t n = strlen(word);

	if (p->len - p->pos < n || memcmp(p->s + p->pos, word, n) != 0)
		return false;
	p->pos += n;
	return true;
}

static int hex4(struct parser *p, unsigned *ret)
{
	unsigned v = 0;

	if (p->len - p->pos < 4)
		return -EINVAL;
	for (int i = 0; i < 4; i++) {
		int d = hex_digit(p->s[p->pos++]);

		if (d < 0)
			return -EINVAL;
		v = v << 4 | (unsigned)d;
	}
	*ret = v;
	return 0;
}

static int append_utf8(struct strbuf *sb, unsigned cp)
{
	char b[4];
	size_t n;

	if (cp < 0x80) {
		b[0] = (char)cp;
		n = 1;
	} else if (cp < 0x800) {
		b[0] = (char)(0xc0 | cp >> 6);
		b[1] = (char)(0x80 | (cp & 0x3f));
		n = 2;
	} else if (cp < 0x10000) {
		b[0] = (char)(0xe0 | cp >> 12);
		b[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		b[2] = (char)(0x80 | (cp & 0x3f));
		n = 3;
	} else {
		b[0] = (char)(0xf0 | cp >> 18);
		b[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
		b[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
		b[3] = (char)(0x80 | (cp & 0x3f));
		n = 4;
	}
	return strbuf_appendn(sb, b, n);
}

static int parse_string(struct parser *p, char **ret)
{
	struct strbuf sb = STRBUF_INIT;
	int r = 0;

	p->pos++; /* the opening quote */
	while (r >= 0) {
		unsigned char c;

		if (p->pos >= p->len) {
			r = -EINVAL;
			break;
		}
		c = (unsigned char)p->s[p->pos];
		if (c == '"') {
			p->pos++;
			break;
		}
		if (c < 0x20) {
			r = -EINVAL;
			break;
		}
		p->pos++;
		if (c != '\\') {
			r = strbuf_appendc(&sb, (char)c);
			continue;
		}
		if (p->pos >= p->len) {
			r = -EINVAL;
			break;
		}
		c = (unsigned char)p->s[p->pos++];
		switch (c) {
		case '"':
		case '\\':
		case '/':
			r = strbuf_appendc(&sb, (char)c);
			break;
		case 'b':
			r = strbuf_appendc(&sb, '\b');
			break;
		case 'f':
			r = strbuf_appendc(&sb, '\f');
			break;
		case 'n':
			r = strbuf_appendc(&sb, '\n');
			break;
		case 'r':
			r = strbuf_appendc(&sb, '\r');
			break;
		case 't':
			r = strbuf_appendc(&sb, '\t');
			break;
		case 'u': {
			unsigned cp, lo;

			r = hex4(p, &cp);
			if (r >= 0 && cp >= 0xd800 && cp < 0xdc00) {
				if (!eat(p, "\\u") || hex4(p, &lo) < 0 || lo < 0xdc00 ||
				    lo > 0xdfff)
					r = -EINVAL;
				else
					cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
			} else if (r >= 0 && (cp == 0 || (cp >= 0xdc00 && cp < 0xe000))) {
				r = -EINVAL;
			}
			if (r >= 0)
				r = append_utf8(&sb, cp);
			break;
		}
		default:
			r = -EINVAL;
		}
	}
	if (r < 0) {
		strbuf_release(&sb);
		return r;
	}
	*ret = strbuf_steal(&sb);
	return *ret ? 0 : -ENOMEM;
}

static bool digit_at(const struct parser *p, size_t i)
{
	return i < p->len && p->s[i] >= '0' && p->s[i] <= '9';
}

/* RFC 8259's grammar: -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)? */
static int parse_number(struct parser *p, double *ret)
{
	size_t i = p->pos, start = p->pos;
	char buf[64], *end;

	if (i < p->len && p->s[i] == '-')
		i++;
	if (!digit_at(p, i))
		return -EINVAL;
	if (p->s[i] == '0')
		i++;
	else
		while (digit_at(p, i))
			i++;
	if (i < p->len && p->s[i] == '.') {
		if (!digit_at(p, ++i))
			return -EINVAL;
		while (digit_at(p, i))
			i++;
	}
	if (i < p->len && (p->s[i] == 'e' || p->s[i] == 'E')) {
		i++;
		if (i < p->len && (p->s[i] == '+' || p->s[i] == '-'))
			i++;
		if (!digit_at(p, i))
			return -EINVAL;
		while (digit_at(p, i))
			i++;
	}
	if (i - start >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, p->s + start, i - start);
	buf[i - start] = '\0';
	p->pos = i;
	*ret = strtod(buf, &end);
	return *end || !isfinite(*ret) ? -EINVAL : 0;
}

static int parse_value(struct parser *p, struct jv *v, unsigned depth);

static int parse_container(struct parser *p, struct jv *v, unsigned depth, bool object)
{
	size_t cap = 0;
	char close = object ? '}' : ']';
	int r;

	p->pos++;
	skip_ws(p);
	if (p->pos < p->len && p->s[p->pos] == close) {
		p->pos++;
		return 0;
	}
	for (;;) {
		char *key = NULL;

		skip_ws(p);
		if (object) {
			if (p->pos >= p->len || p->s[p->pos] != '"')
				return -EINVAL;
			r = parse_string(p, &key);
			if (r < 0)
				return r;
			skip_ws(p);
			if (p->pos >= p->len || p->s[p->pos] != ':') {
				free(key);
				return -EINVAL;
			}
			p->pos++;
		}
		if (v->count == cap) {
			size_t c = cap ? 2 * cap : 4;
			struct jv *items = reallocarray(v->items, c, sizeof(*items));
			char **keys = object ? reallocarray(v->keys, c, sizeof(*keys)) : NULL;

			if (items)
				v->items = items;
			if (keys)
				v->keys = keys;
			if (!items || (object && !keys)) {
				free(key);
				return -ENOMEM;
			}
			cap = c;
		}
		if (object)
			v->keys[v->count] = key;
		v->items[v->count] = (struct jv){ .type = JV_NULL };
		v->count++;
		r = parse_value(p, &v->items[v->count - 1], depth + 1);
		if (r < 0)
			return r;
		skip_ws(p);
		if (p->pos < p->len && p->s[p->pos] == ',') {
			p->pos++;
			continue;
		}
		if (p->pos < p->len && p->s[p->pos] == close) {
			p->pos++;
			return 0;
		}
		return -EINVAL;
	}
}

static int parse_value(struct parser *p, struct jv *v, unsigned depth)
{
	if (depth > JSON_READ_MAX_DEPTH)
		return -EINVAL;
	skip_ws(p);
	if (p->pos >= p->len)
		return -EINVAL;
	switch (p->s[p->pos]) {
	case '{':
		v->type = JV_OBJECT;
		return parse_container(p, v, depth, true);
	case '[':
		v->type = JV_ARRAY;
		return parse_container(p, v, depth, false);
	case '"':
		v->type = JV_STRING;
		return parse_string(p, &v->string);
	case 't':
	case 'f':
		v->type = JV_BOOL;
		v->boolean = p->s[p->pos] == 't';
		return eat(p, v->boolean ? "true" : "false") ? 0 : -EINVAL;
	case 'n':
		v->type = JV_NULL;
		return eat(p, "null") ? 0 : -EINVAL;
	default:
		v->type = JV_NUMBER;
		return parse_number(p, &v->number);
	}
}

int json_parse(const char *buf, size_t len, struct jv *ret, size_t *offset)
{
	struct parser p = { buf, len, 0 };
	int r;

	*ret = (struct jv){ .type = JV_NULL };
	r = parse_value(&p, ret, 0);
	if (r >= 0) {
		skip_ws(&p);
		if (p.pos != len)
			r = -EINVAL;
	}
	if (r < 0) {
		jv_release(ret);
		*ret = (struct jv){ .type = JV_NULL };
	}
	if (offset)
		*offset = p.pos;
	return r;
}

void jv_release(struct jv *v)
{
	for (size_t i = 0; i < v->count; i++) {
		jv_release(&v->items[i]);
		if (v->keys)
			free(v->keys[i]);
	}
	free(v->items);
	free(v->keys);
	free(v->string);
	*v = (struct jv){ .type = JV_NULL };
}

const struct jv *jv_get(const struct jv *v, const char *key)
{
	if (!v || v->type != JV_OBJECT)
		return NULL;
	for (size_t i = 0; i < v->count; i++)
		if (strcmp(v->keys[i], key) == 0)
			return &v->items[i];
	return NULL;
}

const char *jv_get_string(const struct jv *v, const char *key)
{
	const struct jv *m = jv_get(v, key);

	return m && m->type == JV_STRING ? m->string : NULL;
}

long long jv_get_int(const struct jv *v, const char *key)
{
	const struct jv *m = jv_get(v, key);

	if (!m || m->type != JV_NUMBER || m->number < 0 || m->number > 9007199254740992.0 ||
	    m->number != (double)(long long)m->number)
		return -1;
	return (long long)m->number;
}

bool jv_get_bool(const struct jv *v, const char *key, bool *ok)
{
	const struct jv *m = jv_get(v, key);

	*ok = m && m->type == JV_BOOL;
	return *ok && m->boolean;
}

int json_unescape_bytes(const char *s, char **ret)
{
	struct strbuf sb = STRBUF_INIT;
	int r = 0;

	for (; *s && r >= 0; s++) {
		int hi, lo;

		if (*s != '\\') {
			r = strbuf_appendc(&sb, *s);
		} else if (s[1] == '\\') {
			r = strbuf_appendc(&sb, '\\');
			s++;
		} else if (s[1] == 'x' && (hi = hex_digit(s[2])) >= 8 &&
			   (lo = hex_digit(s[3])) >= 0) {
			r = strbuf_appendc(&sb, (char)(hi << 4 | lo));
			s += 3;
		} else {
			r = -EBADMSG;
		}
	}
	if (r >= 0 && !(*ret = strbuf_steal(&sb)))
		r = -ENOMEM;
	strbuf_release(&sb);
	return r;
}
