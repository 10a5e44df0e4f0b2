/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * drvfilterctl verify: the replay and its checks (ctl-verify.c), and the
 * files and register values it reads (ctl-verify-values.c).
 */
#ifndef DRVFILTER_CTL_VERIFY_H
#define DRVFILTER_CTL_VERIFY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "drvfilter.h"

#define NPCRS 24

/* The SHA-256 bank's values a file gives, by PCR. */
struct pcr_values {
	bool have[NPCRS];
	uint8_t v[NPCRS][32];
};

/* @path whole ('-': standard input), at most @max bytes; errors are said: 0, or a negative errno. */
int verify_read_file(const char *path, size_t max, char **buf, size_t *len);
/*
 * tpm2_pcrread's output, and tpm2_checkquote's: a bank's name on a line
 * ("sha256:"), then "N : 0xHEX" lines. Only the SHA-256 bank is used.
 */
int verify_parse_pcrs(const char *path, struct pcr_values *pv);
/* An RTMR's value: its 48 bytes as sysfs gives them, or 96 hex digits (0x and blanks allowed). */
int verify_parse_rtmr(const char *path, uint8_t v[48]);
/*
 * The quote tpm2_quote -m wrote (ctl-verify-quote.c): a quote, over the
 * nonce @nonce_hex, of SHA-256 PCRs whose digest is that of @pv's values for
 * the PCRs it selects; @pv is then cut down to those. 0, or a negative errno
 * with the reason in @why.
 */
int verify_check_quote(const char *path, const char *nonce_hex, struct pcr_values *pv, char *why,
		       size_t whysize);

#endif
