/* SPDX-License-Identifier: GPL-2.0-only */
/* The block buffering that SHA-256 and SHA-512 share: bytes in, whole blocks out. */
#ifndef DRVFILTER_HASH_FEED_H
#define DRVFILTER_HASH_FEED_H

#include <stddef.h>
#include <string.h>

/*
 * Append @len bytes of @data to the partial block @block (@size bytes,
 * @used of them filled), handing each block filled to @compress(@state).
 */
static inline void hash_feed(void *state, unsigned char *block, size_t size, size_t *used,
			     const void *data, size_t len,
			     void (*compress)(void *state, const unsigned char *block))
{
	const unsigned char *p = data;

	while (len > 0) {
		size_t n = size - *used;

		if (n > len)
			n = len;
		memcpy(block + *used, p, n);
		*used += n;
		p += n;
		len -= n;
		if (*used == size) {
			compress(state, block);
			*used = 0;
		}
	}
}

#endif
