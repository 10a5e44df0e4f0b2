// SPDX-License-Identifier: GPL-2.0-only
/*
 * Measurement (measure.c, tpm2.c, evlog.c): the event's exact text and its
 * grammar both ways, TPM2_PCR_Event's bytes and its answer, the event log
 * read back and replayed as a TPM extends.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "evidence/evidence-private.h"
#include "sha256.h"
#include "sha512.h"
#include "testutil.h"

static void hex(const uint8_t *d, size_t n, char *out)
{
	for (size_t i = 0; i < n; i++)
		snprintf(out + 2 * i, 3, "%02x", d[i]);
}

static struct df_report report(void)
{
	static char sha[] = "2ca0c947d80f144f72a8990be1f4904342d809ff76c4328c0090de2eb8bab940";
	struct df_report rep = { .mode = DF_MODE_KERNEL, .locked = true, .policy_sha256 = sha };

	rep.counts = (struct df_counts){ 11, 5, 6, 5, 0, 0, 0 };
	return rep;
}

START_TEST(test_event_text)
{
	struct df_report rep = report();
	char *s = df_event_text(&rep);

	ck_assert_str_eq(s,
			 "drvfilter-apply/1 "
			 "policy=2ca0c947d80f144f72a8990be1f4904342d809ff76c4328c0090de2eb8bab940 "
			 "mode=kernel fail-closed=no override=no locked=yes drivers=11 allowed=5 "
			 "denied=6 unbound=5 kept=0 blacklisted=0 errors=0");
	free(s);
	/* Audit mode is a mode of its own: a verifier must not read it as enforcement. */
	rep.audit = true;
	s = df_event_text(&rep);
	ck_assert_ptr_nonnull(strstr(s, " mode=audit "));
	free(s);
	/* Failed closed: no policy digest, and it says so. */
	rep = report();
	rep.fail_closed = true;
	rep.policy_sha256 = (char[]){ "" };
	s = df_event_text(&rep);
	ck_assert_ptr_nonnull(strstr(s, "policy=none mode=kernel fail-closed=yes "));
	free(s);
	rep = report();
	rep.override = true;
	rep.mode = DF_MODE_FALLBACK;
	rep.locked = false;
	s = df_event_text(&rep);
	ck_assert_ptr_nonnull(strstr(s, " mode=fallback fail-closed=no override=yes locked=no "));
	free(s);
}
END_TEST

START_TEST(test_event_parse_round_trip)
{
	struct df_report rep = report();
	char *s;
	struct df_event ev;

	rep.counts.errors = 3;
	rep.counts.blacklisted = 1234567;
	s = df_event_text(&rep);
	ck_assert_int_eq(df_event_parse(s, &ev), 0);
	ck_assert_str_eq(ev.policy, rep.policy_sha256);
	ck_assert_str_eq(ev.mode, "kernel");
	ck_assert(ev.locked && !ev.fail_closed && !ev.override);
	ck_assert_int_eq(ev.drivers, 11);
	ck_assert_int_eq(ev.blacklisted, 1234567);
	ck_assert_int_eq(ev.errors, 3);
	free(s);
	rep.fail_closed = true;
	rep.policy_sha256 = (char[]){ "" };
	s = df_event_text(&rep);
	ck_assert_int_eq(df_event_parse(s, &ev), 0);
	ck_assert_str_eq(ev.policy, "");
	ck_assert(ev.fail_closed);
	free(s);
}
END_TEST

START_TEST(test_event_parse_strict)
{
	static const char *const bad[] = {
		"",
		"drvfilter-apply/2 policy=none mode=kernel fail-closed=no override=no locked=no "
		"drivers=0 allowed=0 denied=0 unbound=0 kept=0 blacklisted=0 errors=0",
		/* a field missing, one too many, out of order, doubled blanks */
		"drvfilter-apply/1 policy=none mode=kernel fail-closed=no override=no locked=no "
		"drivers=0 allowed=0 denied=0 unbound=0 kept=0 blacklisted=0",
		"drvfilter-apply/1 policy=none mode=kernel fail-closed=no override=no locked=no "
		"drivers=0 allowed=0 denied=0 unbound=0 kept=0 blacklisted=0 errors=0 x=1",
		"drvfilter-apply/1 policy=none mode=kernel override=no fail-closed=no locked=no "
		"drivers=0 allowed=0 denied=0 unbound=0 kept=0 blacklisted=0 errors=0",
		"drvfilter-apply/1 policy=none mode=kernel  fail-closed=no override=no locked=no "
		"drivers=0 allowed=0 denied=0 unbound=0 kept=0 blacklisted=0 errors=0",
		/* values: a mode that does not exist, upper-case hex, a short digest, 01, -1, yes! */
		"drvfilter-apply/1 policy=none mode=off fail-closed=no override=no locked=no "
		"drivers=0 allowed=0 denied=0 unbound=0 kept=0 blacklisted=0 errors=0",
		"drvfilter-apply/1 "
		"policy=2CA0C947D80F144F72A8990BE1F4904342D809FF76C4328C0090DE2EB8BA"
		"B940 mode=kernel fail-closed=no override=no locked=no drivers=0 allowed=0 "
		"denied=0 "
		"unbound=0 kept=0 blacklisted=0 errors=0",
		"drvfilter-apply/1 policy=2ca0 mode=kernel fail-closed=no override=no locked=no "
		"drivers=0 allowed=0 denied=0 unbound=0 kept=0 blacklisted=0 errors=0",
		"drvfilter-apply/1 policy=none mode=kernel fail-closed=no override=no locked=no "
		"drivers=01 allowed=0 denied=0 unbound=0 kept=0 blacklisted=0 errors=0",
		"drvfilter-apply/1 policy=none mode=kernel fail-closed=no override=no locked=no "
		"drivers=0 allowed=0 denied=0 unbound=0 kept=0 blacklisted=0 errors=-1",
		"drvfilter-apply/1 policy=none mode=kernel fail-closed=yes! override=no locked=no "
		"drivers=0 allowed=0 denied=0 unbound=0 kept=0 blacklisted=0 errors=0",
		"drvfilter-apply/1 policy=none mode=kernel fail-closed=no override=no locked=no "
		"drivers=0 allowed=0 denied=0 unbound=0 kept=0 blacklisted=0 errors=0\n",
	};
	struct df_event ev;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ck_assert_msg(df_event_parse(bad[i], &ev) == -EINVAL, "accepted: %s", bad[i]);
}
END_TEST

START_TEST(test_tpm_command)
{
	uint8_t buf[DF_TPM_COMMAND_HEAD + 3];
	char h[2 * sizeof(buf) + 1];
	size_t n = df_tpm_pcr_event_command(8, "abc", 3, buf);

	ck_assert_uint_eq(n, sizeof(buf));
	hex(buf, n, h);
	/* TPM_ST_SESSIONS, size 32, TPM_CC_PCR_Event, PCR 8, a password session, "abc". */
	ck_assert_str_eq(h, "8002000000200000013c00000008000000094000000900000000000003616263");
}
END_TEST

/* A response: a SHA-256 bank, after a SHA-1 one and one of no known size if asked. */
static size_t response(uint8_t *b, uint32_t rc, bool sha1, bool unknown)
{
	uint8_t *p = b + 14;
	size_t params;

	memset(b, 0, 256);
	b[0] = 0x80, b[1] = 0x02;
	for (int i = 0; i < 4; i++)
		b[6 + i] = (uint8_t)(rc >> (24 - 8 * i));
	if (rc) {
		b[1] = 0x01, b[5] = 10;
		return 10;
	}
	p[3] = (uint8_t)(1 + sha1 + unknown);
	p += 4;
	if (sha1) {
		p[1] = 0x04;
		memset(p + 2, 0x11, 20);
		p += 22;
	}
	if (unknown) {
		p[0] = 0x12, p[1] = 0x34;
		p += 2 + 32;
	}
	p[1] = 0x0b;
	memset(p + 2, 0x22, 32);
	p += 34;
	params = (size_t)(p - (b + 14));
	b[13] = (uint8_t)params;
	p += 5; /* nonce, attributes, hmac */
	b[5] = (uint8_t)(p - b);
	return (size_t)(p - b);
}

START_TEST(test_tpm_response)
{
	uint8_t b[256];
	struct df_tpm_digests d;
	uint32_t rc;
	size_t n = response(b, 0, true, false);

	ck_assert_int_eq(df_tpm_pcr_event_response(b, n, &d, &rc), 0);
	ck_assert_uint_eq(d.n, 2);
	ck_assert_str_eq(d.d[0].name, "sha1");
	ck_assert_uint_eq(d.d[0].size, 20);
	ck_assert_str_eq(d.d[1].name, "sha256");
	ck_assert_uint_eq(d.d[1].digest[31], 0x22);
	/* The TPM's refusal, with its code. */
	n = response(b, 0x922, false, false);
	ck_assert_int_eq(df_tpm_pcr_event_response(b, n, &d, &rc), -EREMOTEIO);
	ck_assert_uint_eq(rc, 0x922);
	/* A bank of unknown size cannot be stepped over. */
	n = response(b, 0, true, true);
	ck_assert_int_eq(df_tpm_pcr_event_response(b, n, &d, &rc), -EPROTONOSUPPORT);
	/* Cut short anywhere, or its size field lying: malformed, never read past the end. */
	n = response(b, 0, true, false);
	for (size_t k = 0; k < n; k++)
		ck_assert_int_eq(df_tpm_pcr_event_response(b, k, &d, &rc), -EBADMSG);
	b[13] += 1;
	ck_assert_int_eq(df_tpm_pcr_event_response(b, n, &d, &rc), -EBADMSG);
}
END_TEST

static const char *const ev1 = "drvfilter-apply/1 policy=none mode=kernel";

/* A JSON-SEQ record of @text for PCR @pcr, its SHA-256 digest @digest (NULL: the text's). */
static void record(char *out, size_t size, const char *reg, const char *text, const char *digest)
{
	char h[65];

	sha256_hex(text, strlen(text), h);
	snprintf(out, size,
		 "\x1e{\"%s\":8,\"digests\":[{\"hashAlg\":\"sha1\",\"digest\":\"00\"},{\"hashAlg\":"
		 "\"sha256\",\"digest\":\"%s\"}],\"content_type\":\"systemd\",\"content\":{"
		 "\"string\":\"%s\",\"timestamp\":1}}\n",
		 reg, digest ? digest : h, text);
}

START_TEST(test_evlog_replay)
{
	char a[512], b[512], log[1024];
	uint8_t pcr[32] = { 0 }, d[32];
	char h[65];
	struct df_evlog l;
	char why[128];
	struct sha256 s;

	record(a, sizeof(a), "pcr", ev1, NULL);
	record(b, sizeof(b), "pcr", "phase", NULL);
	snprintf(log, sizeof(log), "%s%s", b, a);
	ck_assert_int_eq(df_evlog_parse(log, strlen(log), &l, why, sizeof(why)), 0);
	ck_assert_uint_eq(l.n, 2);
	ck_assert_int_eq(l.v[1].pcr, 8);
	ck_assert_int_eq(l.v[1].rtmr, -1);
	ck_assert_str_eq(l.v[1].string, ev1);
	ck_assert(df_evlog_digest_matches(&l.v[0]) && df_evlog_digest_matches(&l.v[1]));
	for (size_t i = 0; i < l.n; i++)
		df_replay_sha256(pcr, l.v[i].sha256);
	/* By hand: H(H(0 || H("phase")) || H(event)). */
	{
		uint8_t v[32] = { 0 };
		const char *texts[] = { "phase", ev1 };

		for (int i = 0; i < 2; i++) {
			sha256_init(&s);
			sha256_update(&s, texts[i], strlen(texts[i]));
			sha256_final(&s, d);
			sha256_init(&s);
			sha256_update(&s, v, 32);
			sha256_update(&s, d, 32);
			sha256_final(&s, v);
		}
		ck_assert_mem_eq(v, pcr, 32);
	}
	df_evlog_release(&l);
	/* A record whose digest is not its text's is read, and said not to match. */
	sha256_hex("another", 7, h);
	record(a, sizeof(a), "pcr", ev1, h);
	ck_assert_int_eq(df_evlog_parse(a, strlen(a), &l, why, sizeof(why)), 0);
	ck_assert(!df_evlog_digest_matches(&l.v[0]));
	df_evlog_release(&l);
}
END_TEST

START_TEST(test_evlog_rtmr)
{
	const char *text = "drvfilter-apply/1 x";
	uint8_t d[48], v[48] = { 0 }, want[48];
	char h[97], log[512];
	struct df_evlog l;
	char why[128];

	sha384(text, strlen(text), d);
	hex(d, 48, h);
	snprintf(log, sizeof(log),
		 "\x1e{\"rtmr\":2,\"digests\":[{\"hashAlg\":\"sha384\",\"digest\":\"%s\"}],"
		 "\"content_type\":\"systemd\",\"content\":{\"string\":\"%s\"}}\n",
		 h, text);
	ck_assert_int_eq(df_evlog_parse(log, strlen(log), &l, why, sizeof(why)), 0);
	ck_assert_int_eq(l.v[0].rtmr, 2);
	ck_assert_int_eq(l.v[0].pcr, -1);
	ck_assert(df_evlog_digest_matches(&l.v[0]));
	df_replay_sha384(v, l.v[0].sha384);
	{
		uint8_t in[96] = { 0 };

		memcpy(in + 48, d, 48);
		sha384(in, 96, want);
	}
	ck_assert_mem_eq(v, want, 48);
	df_evlog_release(&l);
}
END_TEST

/* A SHA-256 digest's 64 hex digits. */
#define Z64 "0000000000000000000000000000000000000000000000000000000000000000"

START_TEST(test_evlog_malformed)
{
	static const char *const bad[] = {
		"{\"pcr\":8}\n", /* no record separator */
		"\x1e{\"pcr\":8,\"digests\":[]}\n", /* no digest */
		"\x1e{\"digests\":[{\"hashAlg\":\"sha256\",\"digest\":"
		"\"00\"}]}\n", /* no register */
		"\x1e{\"pcr\":8,\"rtmr\":2,\"digests\":[{\"hashAlg\":"
		"\"sha1\",\"digest\":\"00\"}]}\n",
		"\x1e{\"pcr\":24,\"digests\":[{\"hashAlg\":\"sha1\","
		"\"digest\":\"00\"}]}\n",
		"\x1e{\"pcr\":8,\"digests\":[{\"hashAlg\":\"sha256\","
		"\"digest\":\"00\"}]}\n", /* short */
		"\x1e{\"pcr\":8,\"digests\":[{\"hashAlg\":\"sha256\"}]}\n",
		"\x1e{\"pcr\":8,\"digests\":[{\"hashAlg\":\"sha1\","
		"\"digest\":\"00\"}]\n", /* cut */
		/* Said twice: the first to verify, the last to another reader. */
		"\x1e{\"pcr\":8,\"pcr\":9,\"digests\":[{\"hashAlg\":\"sha1\","
		"\"digest\":\"00\"}]}\n",
		"\x1e{\"pcr\":8,\"digests\":[{\"hashAlg\":\"sha1\",\"digest\":\"00\","
		"\"digest\":\"01\"}]}\n",
		"\x1e{\"pcr\":8,\"digests\":[{\"hashAlg\":\"sha1\",\"digest\":\"00\"}],"
		"\"content\":{\"string\":\"a\",\"string\":\"b\"}}\n",
		"\x1e{\"rtmr\":2,\"digests\":[{\"hashAlg\":\"sha1\",\"digest\":\"00\"}],"
		"\"content\":{},\"content\":{\"string\":\"b\"}}\n",
		"\x1e{\"pcr\":8,\"digests\":[{\"hashAlg\":\"sha256\",\"digest\":\"" Z64
		"\"},{\"hashAlg\":\"sha256\",\"digest\":\"" Z64 "\"}]}\n",
	};
	struct df_evlog l;
	char why[128];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ck_assert_msg(df_evlog_parse(bad[i], strlen(bad[i]), &l, why, sizeof(why)) ==
				      -EBADMSG,
			      "accepted: %s", bad[i]);
	/* Empty is a log with no record. */
	ck_assert_int_eq(df_evlog_parse("", 0, &l, why, sizeof(why)), 0);
	ck_assert_uint_eq(l.n, 0);
}
END_TEST

START_TEST(test_policy_measure_setting)
{
	static const char *const bad[] = { "pcr:7", "pcr:10", "pcr:11", "pcr:16", "pcr:08",
					   "pcr:",  "pcr",    "yes",	"pcr:8x", "PCR:8" };
	struct df_policy *p;
	struct df_diags d;
	unsigned pcr;
	char text[128];

	p = tu_load_ok("[allow]\npci = virtio-pci\n");
	ck_assert_int_eq(df_policy_measure(p, &pcr), DF_MEASURE_AUTO);
	ck_assert_uint_eq(pcr, 15);
	df_policy_free(p);
	p = tu_load_ok("[filter]\nmeasure = no\n[allow]\npci = virtio-pci\n");
	ck_assert_int_eq(df_policy_measure(p, NULL), DF_MEASURE_NO);
	df_policy_free(p);
	p = tu_load_ok("[filter]\nmeasure = pcr:15\n[allow]\npci = virtio-pci\n");
	ck_assert_int_eq(df_policy_measure(p, &pcr), DF_MEASURE_PCR);
	ck_assert_uint_eq(pcr, 15);
	df_policy_free(p);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(text, sizeof(text), "[filter]\nmeasure = %s\n[allow]\npci = virtio-pci\n",
			 bad[i]);
		p = NULL;
		ck_assert_msg(tu_load_text(text, &d, &p) == -EINVAL, "accepted: %s", bad[i]);
		ck_assert_uint_eq(d.errors, 1);
		df_diags_release(&d);
	}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("measure");
	TCase *tc = tcase_create("measure");

	tcase_add_test(tc, test_event_text);
	tcase_add_test(tc, test_event_parse_round_trip);
	tcase_add_test(tc, test_event_parse_strict);
	tcase_add_test(tc, test_tpm_command);
	tcase_add_test(tc, test_tpm_response);
	tcase_add_test(tc, test_evlog_replay);
	tcase_add_test(tc, test_evlog_rtmr);
	tcase_add_test(tc, test_evlog_malformed);
	tcase_add_test(tc, test_policy_measure_setting);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
