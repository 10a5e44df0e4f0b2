/* SPDX-License-Identifier: GPL-2.0-only */
/* libdrvfilter: evidence, the event apply measures and its log read back. */
#ifndef DRVFILTER_EVIDENCE_H
#define DRVFILTER_EVIDENCE_H

#include "enforce/enforce.h"

/* ---- measurement: the event apply extends, and its log ---- */

/* The event's first word: its grammar's name and version (drvfilter-apply(8)). */
#define DF_EVENT_VERSION "drvfilter-apply/1"
/* systemd's log of userspace measurements (JSON-SEQ), which apply appends to. */
#define DF_EVENT_LOG_PATH "/run/log/systemd/tpm2-measure.log"
#define DF_TPM_PATH "/dev/tpmrm0"
#define DF_RTMR_PATH "/sys/devices/virtual/misc/tdx_guest/measurements/rtmr2:sha384"
/*
 * CoCo's attestation agent (AA) keeps its own log of RTMR 3 (AAEL): a first
 * line "INIT sha384/HEX" (the RTMR's value when AA started; AA extends the
 * line's SHA-384), then one line "DOMAIN OPERATION CONTENT" per event, each
 * written before the line's SHA-384 is extended (guest-components,
 * attestation-agent/src/eventlog). Where that log is there, apply adds its
 * event to it and to RTMR 3 the same way, so that Trustee sees it.
 */
#define DF_AAEL_PATH "/run/attestation-agent/eventlog"
#define DF_AAEL_RTMR_PATH "/sys/devices/virtual/misc/tdx_guest/measurements/rtmr3:sha384"
#define DF_AAEL_RTMR_INDEX 3
#define DF_AAEL_DOMAIN "github.com/drvfilter"
#define DF_AAEL_OPERATION "apply"
/* The AAEL line of @event: DOMAIN OPERATION {"event":"EVENT"} (RFC 8785 JSON). NULL without memory. */
char *df_aael_line(const char *event);
/* How long the TPM and the log's lock are waited for (the watchdog covers the whole run). */
#define DF_MEASURE_WAIT_USEC (10LL * 1000 * 1000)

/*
 * The canonical event of @rep: "drvfilter-apply/1 policy=SHA256 mode=MODE
 * fail-closed=yes|no override=yes|no locked=yes|no drivers=N ... errors=N"
 * (drvfilter-apply(8) has the grammar). A new string, NULL without memory.
 */
char *df_event_text(const struct df_report *rep);
/*
 * After an apply: extend the event of @rep into the TPM's PCR (every bank)
 * and the TDX RTMR, as @p's measure setting says, and append a record for
 * each to the event log, with systemd's record shape and lock. The outcome
 * goes into rep->measurement; a failure is logged at LOG_CRIT and counted in
 * rep->counts.errors. Returns 0, or -EIO when something failed.
 */
int df_measure(struct df_ctx *ctx, const struct df_policy *p, struct df_report *rep);

/* ---- verification: the event log read back and replayed (drvfilterctl verify) ---- */

/* One record of the log, as far as verify reads it. */
struct df_evlog_record {
	int pcr; /* -1: not a PCR's */
	int rtmr; /* -1: not an RTMR's */
	bool has_sha256, has_sha384;
	uint8_t sha256[32];
	uint8_t sha384[48];
	char *string; /* content.string, or NULL */
};

struct df_evlog {
	struct df_evlog_record *v;
	size_t n;
};

#define DF_EVLOG_RECORDS_MAX 100000
/*
 * Read a JSON-SEQ log of @len bytes: 0, -EBADMSG with the reason (and the
 * record) in @why, -E2BIG, -ENOMEM.
 */
int df_evlog_parse(const char *buf, size_t len, struct df_evlog *ret, char *why, size_t whysize);
void df_evlog_release(struct df_evlog *log);
/* Extend @value as the TPM does: value = H(value || digest). */
void df_replay_sha256(uint8_t value[32], const uint8_t digest[32]);
void df_replay_sha384(uint8_t value[48], const uint8_t digest[48]);
/* The record's digest for its register is the hash of its text (else it does not describe it). */
bool df_evlog_digest_matches(const struct df_evlog_record *rec);
/* @n bytes from 2 * @n hex digits: 0 or -EINVAL. */
int df_unhex(const char *s, uint8_t *out, size_t n);

/* ---- what else a verifier reads: a TPM quote, CoCo's AAEL ---- */

#define DF_QUOTE_PCRS 24
/* A quote (TPMS_ATTEST), as far as a verifier needs it. */
struct df_quote {
	uint8_t extra[64]; /* the nonce */
	size_t nextra;
	bool selected[DF_QUOTE_PCRS]; /* SHA-256 PCRs, the only bank read */
	uint8_t digest[32]; /* the digest of the selected PCRs' values, in order */
};

/* 0, or -EBADMSG with the reason in @why. */
int df_quote_parse(const uint8_t *buf, size_t len, struct df_quote *q, char *why, size_t whysize);

/* The AAEL, replayed: its INIT value, its value after every line, and drvfilter's events. */
struct df_aael {
	uint8_t init[48];
	uint8_t value[48];
	size_t nlines;
	char **events; /* the events' texts, and the line of each */
	size_t *lines;
	size_t n;
};

/* 0, -ENOMEM, or -EBADMSG with the reason in @why. */
int df_aael_parse(const char *buf, size_t len, struct df_aael *ret, char *why, size_t whysize);
void df_aael_release(struct df_aael *a);

/* A drvfilter event, parsed by its grammar. */
struct df_event {
	char policy[65]; /* "" for a fail-closed one ("none") */
	char mode[16]; /* kernel, fallback or audit */
	bool fail_closed, override, locked;
	long long drivers, allowed, denied, unbound, kept, blacklisted, errors;
};

/* 0, or -EINVAL when @text is not a DF_EVENT_VERSION event. */
int df_event_parse(const char *text, struct df_event *ev);

#endif
