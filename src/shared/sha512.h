/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * SHA-384 and SHA-512 (FIPS 180-4): a TDX RTMR is extended with a SHA-384
 * digest, and verify replays it.
 */
#ifndef DRVFILTER_SHA512_H
#define DRVFILTER_SHA512_H

#include <stddef.h>
#include <stdint.h>

#define SHA384_DIGEST_SIZE 48
#define SHA512_DIGEST_SIZE 64

struct sha512 {
	uint64_t h[8];
	uint64_t length; /* bytes hashed so far */
	unsigned char block[128];
	size_t used; /* bytes waiting in @block */
	size_t digest_size; /* 48 or 64 */
};

void sha384_init(struct sha512 *s);
void sha512_init(struct sha512 *s);
void sha512_update(struct sha512 *s, const void *data, size_t len);
/* The digest, s->digest_size bytes (SHA-384's is SHA-512's cut short, from its own start). */
void sha512_final(struct sha512 *s, unsigned char *digest);
void sha384(const void *data, size_t len, unsigned char digest[SHA384_DIGEST_SIZE]);

#endif
