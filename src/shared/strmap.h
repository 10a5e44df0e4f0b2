/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A map from C strings to pointers: open addressing, linear probing, FNV-1a.
 * Keys are not copied; they must outlive the map. No removal (policies are
 * built once and then only read).
 */
#ifndef DRVFILTER_STRMAP_H
#define DRVFILTER_STRMAP_H

#include <stddef.h>
#include <stdint.h>

struct strmap_slot {
	const char *key;
	void *value;
	uint32_t hash;
};

struct strmap {
	struct strmap_slot *slots;
	size_t cap; /* a power of two, or 0 */
	size_t count;
};

#define STRMAP_INIT        \
	{                  \
		NULL, 0, 0 \
	}

uint32_t strmap_hash(const char *key);
/* Insert @key, or return -EEXIST with *@old (if given) set to the value present. */
int strmap_put(struct strmap *m, const char *key, void *value, void **old);
void *strmap_get(const struct strmap *m, const char *key);
void strmap_release(struct strmap *m);

#endif
