// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "strmap.h"

uint32_t strmap_hash(const char *key)
{
	uint32_t h = 2166136261u;

	for (; *key; key++) {
		h ^= (unsigned char)*key;
		h *= 16777619u;
	}
	return h;
}

static struct strmap_slot *strmap_find(const struct strmap *m, const char *key, uint32_t hash)
{
	size_t mask = m->cap - 1;

	for (size_t i = hash & mask;; i = (i + 1) & mask) {
		struct strmap_slot *s = &m->slots[i];

		if (!s->key || (s->hash == hash && strcmp(s->key, key) == 0))
			return s;
	}
}

static int strmap_grow(struct strmap *m)
{
	size_t cap = m->cap ? m->cap * 2 : 16;
	struct strmap old = *m;

	if (cap > SIZE_MAX / sizeof(*m->slots))
		return -ENOMEM;
	m->slots = calloc(cap, sizeof(*m->slots));
	if (!m->slots) {
		*m = old;
		return -ENOMEM;
	}
	m->cap = cap;
	for (size_t i = 0; i < old.cap; i++)
		if (old.slots[i].key)
			*strmap_find(m, old.slots[i].key, old.slots[i].hash) = old.slots[i];
	free(old.slots);
	return 0;
}

int strmap_put(struct strmap *m, const char *key, void *value, void **old)
{
	uint32_t hash = strmap_hash(key);
	struct strmap_slot *s;

	/* Keep the load factor under 3/4 so probing stays short and always ends. */
	if ((m->count + 1) * 4 > m->cap * 3) {
		int r = strmap_grow(m);

		if (r < 0)
			return r;
	}
	s = strmap_find(m, key, hash);
	if (s->key) {
		if (old)
			*old = s->value;
		return -EEXIST;
	}
	s->key = key;
	s->value = value;
	s->hash = hash;
	m->count++;
	return 0;
}

void *strmap_get(const struct strmap *m, const char *key)
{
	if (m->count == 0)
		return NULL;
	return strmap_find(m, key, strmap_hash(key))->value;
}

void strmap_release(struct strmap *m)
{
	free(m->slots);
	m->slots = NULL;
	m->cap = m->count = 0;
}
