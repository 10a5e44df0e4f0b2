// SPDX-License-Identifier: GPL-2.0-only
/*
 * The signed quote itself (drvfilterctl verify --quote): what tpm2_quote
 * wrote with -m, read by df_quote_parse(). Its signature is tpm2_checkquote's
 * to check; what the signature covers is checked here, so that the PCR
 * values verify replays against are the quote's and not a label the quote's
 * companion files put on them: before tpm2-tools 5.7 (CVE-2024-29039),
 * tpm2_checkquote took the PCR selection from the unsigned quote.pcrs and
 * printed one PCR's value under another's number. The quote must carry the
 * verifier's nonce, select only SHA-256 PCRs, and sign the digest of the
 * values given, in the quote's order.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "ctl-verify.h"
#include "ctl.h"
#include "macro.h"
#include "sha256.h"

#define QUOTE_SIZE_MAX 4096

int verify_check_quote(const char *path, const char *nonce_hex, struct pcr_values *pv, char *why,
		       size_t whysize)
{
	_cleanup_free_ char *buf = NULL;
	struct df_quote q;
	uint8_t nonce[64], want[32];
	struct sha256 h;
	size_t len, n_nonce = strlen(nonce_hex) / 2;
	char reason[200];

	if (verify_read_file(path, QUOTE_SIZE_MAX, &buf, &len) < 0)
		return -EIO;
	if (df_quote_parse((const uint8_t *)buf, len, &q, reason, sizeof(reason)) < 0) {
		snprintf(why, whysize, "'%s': %s", path, reason);
		return -EBADMSG;
	}
	if (n_nonce > sizeof(nonce) || strlen(nonce_hex) % 2 ||
	    df_unhex(nonce_hex, nonce, n_nonce) < 0) {
		snprintf(why, whysize, "the nonce is not hex digits (at most 64 bytes)");
		return -EINVAL;
	}
	if (q.nextra != n_nonce || memcmp(q.extra, nonce, n_nonce) != 0) {
		snprintf(why, whysize, "the quote does not carry the nonce given: it is not fresh");
		return -EBADMSG;
	}
	/* The digest of the selected values, in the quote's order: PCR by PCR, upwards. */
	sha256_init(&h);
	for (int i = 0; i < NPCRS; i++) {
		if (!q.selected[i])
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
	if (memcmp(want, q.digest, 32) != 0) {
		snprintf(why, whysize,
			 "the PCR values are not the quote's: their digest differs from the one "
			 "the quote signs (a PCR's value given under another's number?)");
		return -EBADMSG;
	}
	/* Only what the quote covers is evidence. */
	for (int i = 0; i < NPCRS; i++)
		pv->have[i] &= q.selected[i];
	return 0;
}
