// SPDX-License-Identifier: GPL-2.0-only
/*
 * A TPM quote as tpm2_quote -m writes it: a TPMS_ATTEST, read as far as a
 * verifier needs (drvfilterctl verify --quote): that it is a quote, its
 * extra data (the nonce), the PCRs it selects and the digest it signs. The
 * signature is tpm2_checkquote's to check. Every length is the quote's own
 * and is checked against what is left.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "evidence/evidence-private.h"

#define TPM_GENERATED_VALUE 0xff544347u
#define TPM_ST_ATTEST_QUOTE 0x8018u
#define TPM_ALG_SHA256 0x000bu

struct reader {
	const uint8_t *p;
	size_t left;
	bool bad;
};

static const uint8_t *take(struct reader *r, size_t n)
{
	const uint8_t *at = r->p;

	if (r->bad || n > r->left) {
		r->bad = true;
		return NULL;
	}
	r->p += n;
	r->left -= n;
	return at;
}

static uint32_t be(struct reader *r, size_t n)
{
	const uint8_t *b = take(r, n);
	uint32_t v = 0;

	for (size_t i = 0; b && i < n; i++)
		v = v << 8 | b[i];
	return v;
}

/* A TPM2B: its size, then its bytes (in *@data). */
static size_t tpm2b(struct reader *r, const uint8_t **data)
{
	size_t n = be(r, 2);

	*data = take(r, n);
	return r->bad ? 0 : n;
}

int df_quote_parse(const uint8_t *buf, size_t len, struct df_quote *q, char *why, size_t whysize)
{
	struct reader r = { .p = buf, .left = len };
	const uint8_t *name, *extra, *digest;
	size_t n_digest;
	uint32_t count;

	*q = (struct df_quote){ 0 };
	if (be(&r, 4) != TPM_GENERATED_VALUE || be(&r, 2) != TPM_ST_ATTEST_QUOTE || r.bad) {
		snprintf(why, whysize, "not a TPM quote (TPMS_ATTEST of a quote)");
		return -EBADMSG;
	}
	(void)tpm2b(&r, &name); /* the signer's name */
	q->nextra = tpm2b(&r, &extra);
	if (q->nextra > sizeof(q->extra)) {
		snprintf(why, whysize, "its extra data is longer than a nonce (%zu bytes)",
			 q->nextra);
		return -EBADMSG;
	}
	if (extra)
		memcpy(q->extra, extra, q->nextra);
	(void)take(&r, 17 + 8); /* clock info, firmware version */
	count = be(&r, 4);
	for (uint32_t i = 0; !r.bad && i < count; i++) {
		uint32_t alg = be(&r, 2);
		size_t size = be(&r, 1);
		const uint8_t *bits = take(&r, size);

		for (size_t k = 0; bits && k < size * 8; k++) {
			if (!(bits[k / 8] & (1u << (k % 8))))
				continue;
			if (alg != TPM_ALG_SHA256 || k >= DF_QUOTE_PCRS) {
				snprintf(why, whysize,
					 "it selects PCR %zu of the bank 0x%04x: only the SHA-256 "
					 "bank's PCRs 0-23 are read",
					 k, (unsigned)alg);
				return -EBADMSG;
			}
			q->selected[k] = true;
		}
	}
	n_digest = tpm2b(&r, &digest);
	if (r.bad || n_digest != sizeof(q->digest)) {
		snprintf(why, whysize, "it is cut short or holds no SHA-256 PCR digest");
		return -EBADMSG;
	}
	memcpy(q->digest, digest, sizeof(q->digest));
	return 0;
}
