/* SPDX-License-Identifier: GPL-2.0-only */
/* SHA-256 (FIPS 180-4), to name a policy file by its contents. */
#ifndef DRVFILTER_SHA256_H
#define DRVFILTER_SHA256_H

#include <stddef.h>
#include <stdint.h>

#define SHA256_DIGEST_SIZE 32
#define SHA256_HEX_SIZE (2 * SHA256_DIGEST_SIZE + 1)

struct sha256 {
	uint32_t h[8];
	uint64_t length; /* bytes hashed so far */
	unsigned char block[64];
	size_t used; /* bytes waiting in @block */
};

void sha256_init(struct sha256 *s);
void sha256_update(struct sha256 *s, const void *data, size_t len);
void sha256_final(struct sha256 *s, unsigned char digest[SHA256_DIGEST_SIZE]);
/* The digest of @len bytes at @data as 64 lower-case hex digits. */
void sha256_hex(const void *data, size_t len, char hex[SHA256_HEX_SIZE]);

#endif
