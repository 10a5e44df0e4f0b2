/* SPDX-License-Identifier: GPL-2.0-only */
/* What measure.c needs from tpm2.c: TPM2_PCR_Event, marshalled, sent and read back. */
#ifndef DRVFILTER_EVIDENCE_PRIVATE_H
#define DRVFILTER_EVIDENCE_PRIVATE_H

#include <stdint.h>

#include "enforce/enforce-private.h"
#include "evidence/evidence.h"

/* The command without the event: header 10, handle 4, auth size 4, session 9, event size 2. */
#define DF_TPM_COMMAND_HEAD 29
/* TPM2B_EVENT holds at most 1024 bytes. */
#define DF_TPM_EVENT_MAX 1024
#define DF_TPM_BANKS_MAX 8
#define DF_TPM_DIGEST_MAX 64

struct df_tpm_digest {
	uint16_t alg;
	const char *name; /* "sha256", ... (static) */
	size_t size;
	uint8_t digest[DF_TPM_DIGEST_MAX];
};

/* The digests the TPM extended, one per allocated bank. */
struct df_tpm_digests {
	struct df_tpm_digest d[DF_TPM_BANKS_MAX];
	size_t n;
};

/* TPM2_PCR_Event(@pcr, @event) into @buf (DF_TPM_COMMAND_HEAD + @len bytes): its length. */
size_t df_tpm_pcr_event_command(unsigned pcr, const char *event, size_t len, uint8_t *buf);
/*
 * Its response: 0 and the digests; -EREMOTEIO with the TPM's response code
 * in @rc; -EBADMSG when it is malformed; -EPROTONOSUPPORT for a bank of an
 * algorithm whose digest size is not known.
 */
int df_tpm_pcr_event_response(const uint8_t *rsp, size_t len, struct df_tpm_digests *ret,
			      uint32_t *rc);
/*
 * Send @cmd to the TPM at @path (absolute, already under the sysroot) and
 * read the response into @rsp: its length, or -errno (-ETIMEDOUT after
 * @timeout_usec, -ENOTTY when @path is not a character device).
 */
int df_tpm_transact(const struct df_ctx *ctx, const char *path, const uint8_t *cmd, size_t len,
		    uint8_t *rsp, size_t size, long long timeout_usec);

#endif
