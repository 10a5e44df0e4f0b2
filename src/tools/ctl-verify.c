// SPDX-License-Identifier: GPL-2.0-only
/*
 * drvfilterctl verify: what a verifier runs on a guest's evidence. It
 * replays the event log, checks that the replay reproduces the PCR (or
 * RTMR) values the verifier trusts (read with tpm2_pcrread, or from a quote
 * tpm2_checkquote checked), and accounts for every record of each register it
 * replays: drvfilter's events are compared with the expected policy and mode,
 * any other record must carry the text its digest is the hash of. Exit 0
 * only when all of it holds; every difference is said. The files and the
 * register values are read by ctl-verify-values.c.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctl-verify.h"
#include "ctl.h"
#include "log.h"
#include "macro.h"
#include "strbuf.h"

static const char *arg_event_log;
static const char *arg_pcrs;
static const char *arg_base_pcrs;
static const char *arg_rtmr;
static const char *arg_base_rtmr;
static const char *arg_expect_policy;
static const char *arg_expect_mode;
static bool arg_expect_locked;
static int arg_pcr = -1;
static const char *arg_quote;
static const char *arg_aael;
static const char *arg_aael_rtmr;
static const char *arg_nonce;
static bool arg_base_checked;

#define LOG_SIZE_MAX (16 * 1024 * 1024)

static void tohex(const uint8_t *d, size_t n, char *out)
{
	for (size_t i = 0; i < n; i++)
		snprintf(out + 2 * i, 3, "%02x", d[i]);
}

struct verify {
	size_t problems;
	const char *expect_sha; /* the expected policy's digest */
	int expect_pcr; /* the PCR the expected policy measures into, -1 with measure = no */
	unsigned events; /* drvfilter events of registers whose values were given */
	bool ok[NPCRS]; /* PCRs whose replay reached the value given */
	bool image; /* PCR 11 replayed from the firmware log: a UKI's */
	const struct pcr_values *pv;
};

_printf_(2, 3) static void problem(struct verify *v, const char *fmt, ...)
{
	va_list ap;

	v->problems++;
	fputs("FAIL: ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	fputc('\n', stdout);
}

/* One drvfilter event of an evidenced register, against what is expected. */
static void check_event(struct verify *v, const char *where, const char *text)
{
	struct df_event ev;
	struct strbuf sb = STRBUF_INIT;

	(void)strbuf_append_escaped(&sb, text);
	printf("event: %s: %s\n", where, strbuf_str(&sb));
	strbuf_release(&sb);
	v->events++;
	if (df_event_parse(text, &ev) < 0) {
		problem(v,
			"%s: the event does not follow the grammar of " DF_EVENT_VERSION
			" (drvfilter-apply(8))",
			where);
		return;
	}
	if (ev.override)
		problem(v, "%s: drvfilter=off was on the kernel command line: nothing was enforced",
			where);
	if (ev.fail_closed)
		problem(v,
			"%s: the boot failed closed: its policy could not be used (every driver "
			"not bound was denied)",
			where);
	if (!ev.fail_closed && !streq(ev.policy, v->expect_sha))
		problem(v, "%s: the policy applied has sha256 %s, the expected policy %s", where,
			ev.policy, v->expect_sha);
	if (!streq(ev.mode, arg_expect_mode))
		problem(v, "%s: the mode was %s, expected %s%s", where, ev.mode, arg_expect_mode,
			streq(ev.mode, "audit") ? " (audit mode enforces nothing)" : "");
	if (arg_expect_locked && !ev.locked)
		problem(v, "%s: the kernel policy was not locked", where);
	if (ev.errors > 0)
		problem(v, "%s: %lld actions of the apply failed: the policy is not fully enforced",
			where, ev.errors);
}

static bool is_ours(const struct df_evlog_record *rec)
{
	return rec->string && startswith(rec->string, "drvfilter-apply/");
}

/*
 * One record of a register whose replay matched: every one is accounted for.
 * A drvfilter event is compared with what is expected; any other record must
 * still say what was measured (its digest is the hash of its text), else
 * whoever holds the log could give a drvfilter event another text, or none,
 * keep its digests, and have it pass unexamined.
 */
static void check_record(struct verify *v, const struct df_evlog_record *rec, size_t i,
			 const char *reg, const char *alg)
{
	struct strbuf text = STRBUF_INIT;
	char where[64];

	snprintf(where, sizeof(where), "record %zu (%s)", i + 1, reg);
	if (!rec->string) {
		problem(v, "%s: it carries no text: what it measured cannot be checked", where);
		return;
	}
	(void)strbuf_append_quoted(&text, rec->string);
	if (!df_evlog_digest_matches(rec))
		problem(v,
			"%s: its digest is not the %s of its text %s: the record does not say what "
			"was measured",
			where, alg, strbuf_str(&text));
	else if (is_ours(rec))
		check_event(v, where, rec->string);
	else
		printf("event: %s: other: %s\n", where, strbuf_str(&text));
	strbuf_release(&text);
}

#define IMAGE_PCR 11

/*
 * What a verifier that pins register values takes from a verified boot:
 * the UKI's PCR 11 and drvfilter's PCR, as Keylime's tpm_policy takes them.
 * Only once every check held.
 */
static void print_pins(const struct verify *v)
{
	const char *sep = "";
	char hex[65];

	if (v->image) {
		tohex(v->pv->v[IMAGE_PCR], 32, hex);
		printf("image: PCR %d (sha256) %s: the unified kernel image as systemd-stub "
		       "measured it (its kernel, command line and initrd): pin it to pin the "
		       "image\n",
		       IMAGE_PCR, hex);
	}
	fputs("tpm_policy: {", stdout);
	for (int i = 0; i < NPCRS; i++) {
		if (!v->ok[i] || (i != v->expect_pcr && !(i == IMAGE_PCR && v->image)))
			continue;
		tohex(v->pv->v[i], 32, hex);
		printf("%s\"%d\":[\"%s\"]", sep, i, hex);
		sep = ",";
	}
	fputs("}\n", stdout);
}

/*
 * Replay the PCRs from the log onto the base values (the firmware log's
 * replay), compare, and check every record. Every PCR the logs describe and
 * the values give is compared: drvfilter's, any a userspace record extends,
 * and every one the firmware log replays (its boot loader, the UKI's PCR
 * 11). drvfilter's PCR (and any with a drvfilter event) must replay; any
 * other that does not is said, not judged: systemd-pcrphase of systemd 252
 * extends PCR 11 without a log.
 */
static void verify_pcrs(struct verify *v, const struct df_evlog *log, const struct pcr_values *pv,
			const struct pcr_values *base)
{
	uint8_t acc[NPCRS][32] = { { 0 } };
	bool ours[NPCRS] = { false }, replay[NPCRS] = { false }, ok[NPCRS] = { false },
	     unreplayable[NPCRS] = { false }, logged[NPCRS] = { false };

	/*
	 * drvfilter's PCR is replayed even when no record there claims to be
	 * drvfilter's: a log whose every event of it was given another text
	 * (or dropped) must not leave it unchecked.
	 */
	if (v->expect_pcr >= 0)
		replay[v->expect_pcr] = true;
	for (int i = 0; i < NPCRS; i++)
		if (base && base->have[i]) {
			memcpy(acc[i], base->v[i], 32);
			replay[i] |= pv->have[i];
		}
	for (size_t i = 0; i < log->n; i++) {
		const struct df_evlog_record *rec = &log->v[i];

		if (rec->pcr < 0)
			continue;
		if (!rec->has_sha256)
			unreplayable[rec->pcr] = true;
		else
			df_replay_sha256(acc[rec->pcr], rec->sha256);
		ours[rec->pcr] |= is_ours(rec);
		logged[rec->pcr] = true;
		replay[rec->pcr] |= is_ours(rec) || pv->have[rec->pcr];
	}
	for (int i = 0; i < NPCRS; i++) {
		const char *by;
		char a[65], b[65];
		bool judged;

		if (!replay[i])
			continue;
		if (!pv->have[i] && ours[i]) {
			problem(v,
				"PCR %d holds drvfilter's events, but the PCR values give no "
				"SHA-256 value for it",
				i);
			continue;
		}
		if (!pv->have[i]) {
			problem(v,
				"the expected policy measures into PCR %d, but the PCR values give "
				"no SHA-256 value for it",
				i);
			continue;
		}
		judged = i == v->expect_pcr || ours[i];
		if (unreplayable[i]) {
			if (judged)
				problem(v,
					"PCR %d: a record of the log has no SHA-256 digest: it "
					"cannot be replayed",
					i);
			continue;
		}
		/*
		 * No firmware or boot loader extends PCR 15: an event of the firmware
		 * log there would stand before drvfilter's records unexamined, and
		 * could be a drvfilter event moved out of sight.
		 */
		if (judged && i == DF_MEASURE_PCR_DEFAULT && base && base->have[i]) {
			problem(v,
				"the firmware log extends PCR %d, drvfilter's, which no firmware "
				"or boot loader does: its events there are not examined and could "
				"hide a drvfilter event",
				i);
			continue;
		}
		/* Elsewhere (8 after GRUB) only a verifier that checked those events may say so. */
		if (judged && base && base->have[i] && !arg_base_checked) {
			problem(v,
				"the firmware log gives PCR %d, drvfilter's, a value: verify does "
				"not examine its events, which could hide a drvfilter event (check "
				"them, then give --base-checked)",
				i);
			continue;
		}
		tohex(acc[i], 32, a);
		tohex(pv->v[i], 32, b);
		if (!base || !base->have[i])
			by = "the log replays";
		else
			by = logged[i] ? "the firmware log and the log replay"
				       : "the firmware log replays";
		if (memcmp(acc[i], pv->v[i], 32) != 0 && !judged) {
			/* Not drvfilter's: said, not judged (Debian 12's pcrphase extends PCR 11 unlogged). */
			printf("note: PCR %d (sha256): %s to %s, the TPM holds %s: something the "
			       "logs do not show extended it; not drvfilter's PCR, not judged\n",
			       i, by, a, b);
			continue;
		}
		if (memcmp(acc[i], pv->v[i], 32) != 0) {
			problem(v,
				"PCR %d (sha256): %s to %s, the TPM holds %s: the log is not the "
				"one of these measurements",
				i, by, a, b);
			continue;
		}
		printf("ok: PCR %d (sha256) %s: %s to the TPM's value\n", i, b, by);
		ok[i] = true;
	}
	for (size_t i = 0; i < log->n; i++) {
		const struct df_evlog_record *rec = &log->v[i];
		char reg[16];

		if (rec->pcr < 0 || !ok[rec->pcr])
			continue;
		snprintf(reg, sizeof(reg), "PCR %d", rec->pcr);
		check_record(v, rec, i, reg, "SHA-256");
	}
	/* The image: systemd-stub measures a UKI's sections, its command line and initrd among them. */
	v->image = ok[IMAGE_PCR] && base && base->have[IMAGE_PCR];
	memcpy(v->ok, ok, sizeof(ok));
	v->pv = pv;
}

/*
 * RTMR 2 is replayed whenever its value is given, drvfilter's records there or
 * not, for the same reason as its PCR: drvfilter measures into it whenever
 * the guest has it (any measure setting but no).
 */
static void verify_rtmr(struct verify *v, const struct df_evlog *log, const uint8_t want[48],
			const uint8_t *base)
{
	uint8_t acc[48] = { 0 };
	char a[97], b[97], reg[16];

	if (base && !arg_base_checked) {
		problem(v,
			"--base-rtmr gives RTMR %d a value: verify does not examine the CC event "
			"log's events, which could hide a drvfilter event (check them, then give "
			"--base-checked)",
			DF_RTMR_INDEX);
		return;
	}
	if (base)
		memcpy(acc, base, 48);
	for (size_t i = 0; i < log->n; i++) {
		const struct df_evlog_record *rec = &log->v[i];

		if (rec->rtmr < 0)
			continue;
		if (rec->rtmr != DF_RTMR_INDEX) {
			/* Not a register drvfilter extends: an event there is one no quote covers. */
			if (is_ours(rec))
				problem(v,
					"record %zu (RTMR %d): drvfilter measures into RTMR %d "
					"only: this event cannot be checked",
					i + 1, rec->rtmr, DF_RTMR_INDEX);
			continue;
		}
		if (!rec->has_sha384) {
			problem(v,
				"record %zu (RTMR %d) has no SHA-384 digest: it cannot be replayed",
				i + 1, DF_RTMR_INDEX);
			return;
		}
		df_replay_sha384(acc, rec->sha384);
	}
	tohex(acc, 48, a);
	tohex(want, 48, b);
	if (memcmp(acc, want, 48) != 0) {
		problem(v,
			"RTMR %d: the log replays to %s, the quote holds %s: the log is not the "
			"one of these measurements",
			DF_RTMR_INDEX, a, b);
		return;
	}
	printf("ok: RTMR %d (sha384) %s: the log replays to the quoted value\n", DF_RTMR_INDEX, b);
	snprintf(reg, sizeof(reg), "RTMR %d", DF_RTMR_INDEX);
	for (size_t i = 0; i < log->n; i++)
		if (log->v[i].rtmr == DF_RTMR_INDEX)
			check_record(v, &log->v[i], i, reg, "SHA-384");
}

/*
 * CoCo's AAEL against RTMR 3's value: every line replays (each is its own
 * digest's text, so none can be given another), and each of drvfilter's
 * lines is judged as an event of a register is.
 */
static void verify_aael(struct verify *v, const uint8_t want[48])
{
	_cleanup_free_ char *buf = NULL;
	struct df_aael a;
	char why[256], got[97], held[97], where[64];
	size_t len;
	int r;

	if (verify_read_file(arg_aael, LOG_SIZE_MAX, &buf, &len) < 0) {
		problem(v, "'%s' cannot be read", arg_aael);
		return;
	}
	r = df_aael_parse(buf, len, &a, why, sizeof(why));
	if (r == -ENOMEM) {
		problem(v, "out of memory reading %s", arg_aael);
		return;
	}
	if (r < 0) {
		problem(v, "'%s' is not an attestation agent's event log: %s", arg_aael, why);
		return;
	}
	tohex(a.value, 48, got);
	tohex(want, 48, held);
	/*
	 * The INIT line's value is the log's own word for what RTMR 3 held
	 * before it: root can extend RTMR 3, so a log begun afresh from a value
	 * that already holds a drvfilter event would replay and hide it. Nothing
	 * but the agent extends RTMR 3 before the agent starts: only zero is
	 * taken, unless the verifier checked what came before.
	 */
	if (!arg_base_checked && memcmp(a.init, (const uint8_t[48]){ 0 }, 48) != 0) {
		problem(v,
			"'%s' begins from a RTMR %d value that is not zero: what extended it "
			"before "
			"the agent's log is not examined and could hide a drvfilter event (check "
			"it, then give --base-checked)",
			arg_aael, DF_AAEL_RTMR_INDEX);
	} else if (memcmp(a.value, want, 48) != 0) {
		problem(v,
			"RTMR %d: the attestation agent's log replays to %s, the quote holds %s: "
			"the log is not the one of these measurements",
			DF_AAEL_RTMR_INDEX, got, held);
	} else {
		printf("ok: RTMR %d (sha384) %s: the attestation agent's log (%zu lines) replays "
		       "to the quoted value\n",
		       DF_AAEL_RTMR_INDEX, held, a.nlines);
		for (size_t i = 0; i < a.n; i++) {
			snprintf(where, sizeof(where), "AAEL line %zu (RTMR %d)", a.lines[i],
				 DF_AAEL_RTMR_INDEX);
			check_event(v, where, a.events[i]);
		}
	}
	df_aael_release(&a);
}

/* The expected policy's digest, and the PCR it measures into (-1: none). */
static int expected_digest(char sha[65], int *pcr)
{
	_cleanup_(df_policy_freep) struct df_policy *p = NULL;
	struct df_diags d;
	int r;

	df_diags_init(&d);
	/* The verifier's copy: any owner; drop-ins in FILE.d join it as they do on the guest. */
	r = df_policy_load(ctl_ctx, arg_expect_policy, DF_LOAD_ANY_OWNER | DF_LOAD_DROPINS, &d, &p);
	if (r < 0) {
		ctl_print_diags(&d, stderr, true);
		log_error("the expected policy '%s' cannot be used", arg_expect_policy);
	} else {
		unsigned n;

		snprintf(sha, 65, "%s", df_policy_sha256(p));
		*pcr = df_policy_measure(p, &n) == DF_MEASURE_NO ? -1 : (int)n;
	}
	df_diags_release(&d);
	return r;
}

static int run(int argc, char **argv)
{
	_cleanup_free_ char *logpath = NULL, *buf = NULL;
	struct pcr_values pv, base;
	uint8_t rtmr[48], base_rtmr[48], aael_rtmr[48];
	struct df_evlog log;
	struct verify v = { 0 };
	char sha[65], why[256];
	size_t len;
	int r;

	if (!arg_expect_policy || !arg_expect_mode)
		return ctl_usage_error(
			"'verify' needs --expect-policy FILE and --expect-mode MODE");
	if (!arg_pcrs && !arg_rtmr && !arg_aael)
		return ctl_usage_error("'verify' needs the values to check the log against: --pcrs "
				       "FILE, --rtmr FILE, --aael FILE, or more");
	if (!arg_aael != !arg_aael_rtmr)
		return ctl_usage_error("--aael and --aael-rtmr go together");
	if (arg_base_pcrs && !arg_pcrs)
		return ctl_usage_error("--base-pcrs goes with --pcrs");
	if (arg_base_rtmr && !arg_rtmr)
		return ctl_usage_error("--base-rtmr goes with --rtmr");
	if (!arg_quote != !arg_nonce)
		return ctl_usage_error("--quote and --nonce go together");
	if (arg_quote && !arg_pcrs)
		return ctl_usage_error(
			"--quote goes with --pcrs, the values tpm2_checkquote printed");
	if (expected_digest(sha, &v.expect_pcr) < 0)
		return EXIT_ERROR;
	/* A guest measured into another PCR (before 2026-12, PCR 8 by default). */
	if (arg_pcr >= 0)
		v.expect_pcr = arg_pcr;
	v.expect_sha = sha;
	logpath = arg_event_log ? strdup(arg_event_log) : df_ctx_path(ctl_ctx, DF_EVENT_LOG_PATH);
	if (!logpath)
		return ctl_oom();
	/* The AAEL alone is its own log. */
	if (!arg_pcrs && !arg_rtmr && !arg_event_log) {
		buf = strdup("");
		len = 0;
	} else if (verify_read_file(logpath, LOG_SIZE_MAX, &buf, &len) < 0)
		return EXIT_ERROR;
	if (!buf)
		return ctl_oom();
	if (memchr(buf, '\0', len)) {
		log_error("'%s' is not an event log: it holds a NUL byte", logpath);
		return EXIT_ERROR;
	}
	r = df_evlog_parse(buf, len, &log, why, sizeof(why));
	if (r == -ENOMEM)
		return ctl_oom();
	if (r < 0) {
		log_error("'%s' is not a valid event log: %s", logpath, why);
		return EXIT_ERROR;
	}
	if ((arg_pcrs && verify_parse_pcrs(arg_pcrs, &pv) < 0) ||
	    (arg_base_pcrs && verify_parse_pcrs(arg_base_pcrs, &base) < 0) ||
	    (arg_rtmr && verify_parse_rtmr(arg_rtmr, rtmr) < 0) ||
	    (arg_base_rtmr && verify_parse_rtmr(arg_base_rtmr, base_rtmr) < 0) ||
	    (arg_aael_rtmr && verify_parse_rtmr(arg_aael_rtmr, aael_rtmr) < 0)) {
		df_evlog_release(&log);
		return EXIT_ERROR;
	}
	printf("expected: policy %s (sha256 %s), mode %s%s\n", arg_expect_policy, sha,
	       arg_expect_mode, arg_expect_locked ? ", locked" : "");
	if (arg_quote) {
		r = verify_check_quote(arg_quote, arg_nonce, &pv, why, sizeof(why));
		if (r == -EIO) {
			df_evlog_release(&log);
			return EXIT_ERROR;
		}
		if (r < 0)
			problem(&v, "%s", why);
		else
			printf("ok: the quote covers the PCR values given, over the nonce\n");
	}
	if (arg_pcrs)
		verify_pcrs(&v, &log, &pv, arg_base_pcrs ? &base : NULL);
	if (arg_rtmr)
		verify_rtmr(&v, &log, rtmr, arg_base_rtmr ? base_rtmr : NULL);
	if (arg_aael)
		verify_aael(&v, aael_rtmr);
	if (v.events == 0 && v.problems == 0)
		problem(&v,
			"no drvfilter event in %s for the registers given: the policy was not "
			"measured",
			logpath);
	df_evlog_release(&log);
	if (v.problems == 0 && v.pv && v.expect_pcr >= 0 && v.ok[v.expect_pcr])
		print_pins(&v);
	if (v.problems) {
		printf("not verified: %zu difference%s\n", v.problems, v.problems == 1 ? "" : "s");
		return EXIT_ERROR;
	}
	printf("verified: %u drvfilter event%s, each as expected\n", v.events,
	       v.events == 1 ? "" : "s");
	return EXIT_FINE;
}

enum {
	ARG_EVENT_LOG = CTL_ARG_VERB,
	ARG_PCRS,
	ARG_BASE_PCRS,
	ARG_RTMR,
	ARG_BASE_RTMR,
	ARG_EXPECT_POLICY,
	ARG_EXPECT_MODE,
	ARG_EXPECT_LOCKED,
	ARG_PCR,
	ARG_QUOTE,
	ARG_NONCE,
	ARG_BASE_CHECKED,
	ARG_AAEL,
	ARG_AAEL_RTMR,
};

static const struct option options[] = {
	{ "event-log", required_argument, NULL, ARG_EVENT_LOG },
	{ "pcrs", required_argument, NULL, ARG_PCRS },
	{ "base-pcrs", required_argument, NULL, ARG_BASE_PCRS },
	{ "rtmr", required_argument, NULL, ARG_RTMR },
	{ "base-rtmr", required_argument, NULL, ARG_BASE_RTMR },
	{ "expect-policy", required_argument, NULL, ARG_EXPECT_POLICY },
	{ "expect-mode", required_argument, NULL, ARG_EXPECT_MODE },
	{ "expect-locked", no_argument, NULL, ARG_EXPECT_LOCKED },
	{ "pcr", required_argument, NULL, ARG_PCR },
	{ "quote", required_argument, NULL, ARG_QUOTE },
	{ "nonce", required_argument, NULL, ARG_NONCE },
	{ "base-checked", no_argument, NULL, ARG_BASE_CHECKED },
	{ "aael", required_argument, NULL, ARG_AAEL },
	{ "aael-rtmr", required_argument, NULL, ARG_AAEL_RTMR },
	{},
};

static int parse(int opt, const char *arg)
{
	switch (opt) {
	case ARG_EVENT_LOG:
		arg_event_log = arg;
		break;
	case ARG_PCRS:
		arg_pcrs = arg;
		break;
	case ARG_BASE_PCRS:
		arg_base_pcrs = arg;
		break;
	case ARG_RTMR:
		arg_rtmr = arg;
		break;
	case ARG_BASE_RTMR:
		arg_base_rtmr = arg;
		break;
	case ARG_EXPECT_POLICY:
		arg_expect_policy = arg;
		break;
	case ARG_EXPECT_MODE:
		if (!streq(arg, "kernel") && !streq(arg, "fallback") && !streq(arg, "audit"))
			return ctl_usage_error("unknown mode '%s': use kernel, fallback or audit",
					       arg);
		arg_expect_mode = arg;
		break;
	case ARG_PCR: {
		char *end;
		long n;

		errno = 0;
		n = strtol(arg, &end, 10);
		/* The PCRs measure = pcr:N takes (drvfilter.conf(5)). */
		if (errno || end == arg || *end || !(n == 8 || n == 9 || (n >= 12 && n <= 15)))
			return ctl_usage_error("--pcr takes 8, 9, 12, 13, 14 or 15: '%s'", arg);
		arg_pcr = (int)n;
		break;
	}
	case ARG_QUOTE:
		arg_quote = arg;
		break;
	case ARG_NONCE:
		arg_nonce = arg;
		break;
	case ARG_BASE_CHECKED:
		arg_base_checked = true;
		break;
	case ARG_AAEL:
		arg_aael = arg;
		break;
	case ARG_AAEL_RTMR:
		arg_aael_rtmr = arg;
		break;
	default:
		arg_expect_locked = true;
		break;
	}
	return EXIT_FINE;
}

static const char help[] =
	"      --event-log FILE   the guest's event log (default:\n"
	"                         " DF_EVENT_LOG_PATH ")\n"
	"      --pcrs FILE        PCR values, as tpm2_pcrread or tpm2_checkquote print\n"
	"                         them ('-': standard input)\n"
	"      --base-pcrs FILE   what the PCRs held before user space (the firmware\n"
	"                         log's replay, as tpm2_eventlog prints it)\n"
	"      --rtmr FILE        the TDX RTMR 2 value (48 bytes, or hex)\n"
	"      --base-rtmr FILE   what RTMR 2 held before user space\n"
	"      --expect-policy FILE\n"
	"                         the policy the guest must run\n"
	"      --expect-mode MODE kernel, fallback or audit\n"
	"      --expect-locked    the kernel policy must be locked\n"
	"      --pcr N            drvfilter's PCR, if not the expected policy's\n"
	"                         (guests measured before 2026-12: 8)\n"
	"      --quote FILE       the quote (tpm2_quote -m) the --pcrs values must be\n"
	"                         the values of: its selection, digest and nonce\n"
	"      --nonce HEX        the verifier's nonce, which the quote must carry\n"
	"      --base-checked     the verifier checked the firmware (or CC) log's\n"
	"                         events on drvfilter's register itself\n"
	"      --aael FILE        CoCo's attestation agent's event log\n"
	"      --aael-rtmr FILE   the TDX RTMR 3 value it must replay to\n";

const struct ctl_verb ctl_verb_verify = {
	.name = "verify",
	.summary = "check a guest's event log against its PCRs and an expected policy",
	.common = CTL_SYSROOT,
	.options = options,
	.parse = parse,
	.help = help,
	.run = run,
};
