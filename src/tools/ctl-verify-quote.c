// SPDX-License-Identifier: GPL-2.0-only
/*
 * The signed quote itself (drvfilterctl verify --quote): what tpm2_quote
 * wrote with -m, a TPMS_ATTEST. Its signature is tpm2_checkquote's to check;
 * what the signature covers is read here, so that the PCR values verify
 * replays against are the quote's and not a label the quote's companion
 * files put on them: before tpm2-tools 5.7 (CVE-2024-29039), tpm2_checkquote
 * took the PCR selection from the unsigned quote.pcrs and printed one PCR's
 * value under another's number. The quote must be a quote (magic, type),
 * carry the verifier's nonce, select only the SHA-256 bank, and its digest
 * must be that of the values given, in the quote's order.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "ctl-verify.h"
#include "ctl.h"
#include "log.h"
#include "macro.h"
#include "sha256.h"

#define QUOTE_SIZE_MAX 4096
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

int verify_check_quote(const char *path, const char *nonce_hex, struct pcr_values *pv, char *why,
		       size_t whysize)
{
	_cleanup_free_ char *buf = NULL;
	struct reader r;
	const uint8_t *name, *extra, *digest;
	uint8_t nonce[64], want[32];
	bool selected[NPCRS] = { false };
	struct sha256 h;
	size_t len, n_extra, n_digest, n_nonce;
	uint32_t count;

	if (verify_read_file(path, QUOTE_SIZE_MAX, &buf, &len) < 0)
		return -EIO;
	r = (struct reader){ .p = (const uint8_t *)buf, .left = len };
	if (be(&r, 4) != TPM_GENERATED_VALUE || be(&r, 2) != TPM_ST_ATTEST_QUOTE || r.bad) {
		snprintf(why, whysize, "'%s' is not a TPM quote (TPMS_ATTEST of a quote)", path);
		return -EBADMSG;
	}
	(void)tpm2b(&r, &name); /* the signer's name */
	n_extra = tpm2b(&r, &extra);
	(void)take(&r, 17 + 8); /* clock info, firmware version */
	count = be(&r, 4);
	for (uint32_t i = 0; !r.bad && i < count; i++) {
		uint32_t alg = be(&r, 2);
		size_t size = be(&r, 1);
		const uint8_t *bits = take(&r, size);

		for (size_t k = 0; bits && k < size * 8; k++) {
			if (!(bits[k / 8] & (1u << (k % 8))))
				continue;
			if (alg != TPM_ALG_SHA256 || k >= NPCRS) {
				snprintf(why, whysize,
					 "the quote selects PCR %zu of the bank 0x%04x: verify "
					 "takes "
					 "quotes of the SHA-256 bank's PCRs 0-23 only",
					 k, (unsigned)alg);
				return -EBADMSG;
			}
			selected[k] = true;
		}
	}
	n_digest = tpm2b(&r, &digest);
	if (r.bad || n_digest != 32) {
		snprintf(why, whysize, "'%s' is cut short or holds no SHA-256 PCR digest", path);
		return -EBADMSG;
	}
	n_nonce = strlen(nonce_hex) / 2;
	if (n_nonce > sizeof(nonce) || strlen(nonce_hex) % 2 ||
	    df_unhex(nonce_hex, nonce, n_nonce) < 0) {
		snprintf(why, whysize, "the nonce is not hex digits (at most 64 bytes)");
		return -EINVAL;
	}
	if (n_extra != n_nonce || (n_nonce && memcmp(extra, nonce, n_nonce) != 0)) {
		snprintf(why, whysize, "the quote does not carry the nonce given: it is not fresh");
		return -EBADMSG;
	}
	/* The digest of the selected values, in the quote's order: PCR by PCR, upwards. */
	sha256_init(&h);
	for (int i = 0; i < NPCRS; i++) {
		if (!selected[i])
			continue;
		if (!pv->have[i]) {
			snprintf(
				why, whysize,
				"the quote covers PCR %d, but the PCR values give no SHA-256 value "
				"for it",
				i);
			return -EBADMSG;
		}
		sha256_update(&h, pv->v[i], 32);
	}
	sha256_final(&h, want);
	if (memcmp(want, digest, 32) != 0) {
		snprintf(why, whysize,
			 "the PCR values are not the quote's: their digest differs from the one "
			 "the quote signs (a PCR's value given under another's number?)");
		return -EBADMSG;
	}
	/* Only what the quote covers is evidence. */
	for (int i = 0; i < NPCRS; i++)
		pv->have[i] &= selected[i];
	return 0;
}
