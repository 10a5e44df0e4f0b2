// SPDX-License-Identifier: GPL-2.0-only
/* What the state file rests on: SHA-256, the JSON reader, and the round trip. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "json-read.h"
#include "sha256.h"
#include "testutil.h"

START_TEST(test_sha256_vectors)
{
	/* FIPS 180-4 examples, plus a length that straddles the padding boundary. */
	static const struct {
		const char *in, *hex;
	} v[] = {
		{ "", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" },
		{ "abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" },
		{ "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
		  "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1" },
	};
	char hex[SHA256_HEX_SIZE];

	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		sha256_hex(v[i].in, strlen(v[i].in), hex);
		ck_assert_str_eq(hex, v[i].hex);
	}
}
END_TEST

START_TEST(test_sha256_million_a)
{
	static char a[1000000];
	char hex[SHA256_HEX_SIZE];
	struct sha256 s;
	unsigned char d[SHA256_DIGEST_SIZE];

	memset(a, 'a', sizeof(a));
	sha256_hex(a, sizeof(a), hex);
	ck_assert_str_eq(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
	/* Fed in uneven pieces, the digest is the same. */
	sha256_init(&s);
	for (size_t off = 0, step = 1; off < sizeof(a); off += step, step = step * 3 % 1000 + 1)
		sha256_update(&s, a + off, off + step > sizeof(a) ? sizeof(a) - off : step);
	sha256_final(&s, d);
	ck_assert_uint_eq(d[0], 0xcd);
	ck_assert_uint_eq(d[31], 0xd0);
}
END_TEST

START_TEST(test_json_accepts)
{
	const char *doc =
		"{\"a\": [1, -2.5e3, true, false, null], \"s\": \"x\\u00e9\\ud83d\\ude00\\n\","
		" \"o\": {\"k\": 42}}";
	struct jv v;

	ck_assert_int_eq(json_parse(doc, strlen(doc), &v, NULL), 0);
	ck_assert_int_eq(v.type, JV_OBJECT);
	ck_assert_uint_eq(jv_get(&v, "a")->count, 5);
	ck_assert_str_eq(jv_get_string(&v, "s"), "x\xc3\xa9\xf0\x9f\x98\x80\n");
	ck_assert_int_eq(jv_get_int(jv_get(&v, "o"), "k"), 42);
	ck_assert_int_eq(jv_get_int(&v, "missing"), -1);
	jv_release(&v);
}
END_TEST

START_TEST(test_json_refuses)
{
	static const char *const bad[] = {
		"",
		"{",
		"{\"a\":}",
		"[1,]",
		"{\"a\":1,}",
		"01",
		"1.",
		"+1",
		"0x10",
		"nan",
		"\"\\u0000\"",
		"\"a\nb\"",
		"\"\\ud800\"",
		"\"\\x41\"",
		"{} x",
		"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]",
	};
	struct jv v;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ck_assert_msg(json_parse(bad[i], strlen(bad[i]), &v, NULL) == -EINVAL,
			      "accepted %s", bad[i]);
}
END_TEST

/* What apply writes, status reads back: the fields it needs, intact. */
START_TEST(test_state_round_trip)
{
	char dir[] = "/tmp/drvfilter-state-XXXXXX", why[128], path[256];
	struct df_report rep = { 0 };
	struct df_state st;
	struct df_ctx *ctx;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/run", dir);
	ck_assert_int_eq(mkdir(path, 0755), 0);
	ck_assert_int_eq(df_ctx_new(dir, &ctx), 0);
	ck_assert_int_eq(df_state_read(ctx, &st, why, sizeof(why)), -ENOENT);

	rep.mode = DF_MODE_KERNEL;
	rep.fail_closed = true;
	rep.policy_path = "/etc/drvfilter.conf";
	rep.policy_sha256 = "00ff";
	rep.started_usec = 1234567;
	rep.duration_usec = 890;
	rep.counts.errors = 3;
	ck_assert_int_eq(df_state_write(ctx, &rep), 0);
	ck_assert_int_eq(df_state_read(ctx, &st, why, sizeof(why)), 0);
	ck_assert_str_eq(st.mode, "kernel");
	ck_assert(st.fail_closed);
	ck_assert(!st.override);
	ck_assert_str_eq(st.policy_path, "/etc/drvfilter.conf");
	ck_assert_str_eq(st.policy_sha256, "00ff");
	ck_assert_int_eq(st.applied_usec, 1234567);
	ck_assert_int_eq(st.duration_usec, 890);
	ck_assert_int_eq(st.errors, 3);
	df_state_release(&st);

	snprintf(path, sizeof(path), "%s/run/drvfilter/state.json", dir);
	ck_assert_int_eq(truncate(path, 40), 0);
	ck_assert_int_eq(df_state_read(ctx, &st, why, sizeof(why)), -EBADMSG);
	ck_assert_ptr_nonnull(strstr(why, "not valid JSON"));

	unlink(path);
	snprintf(path, sizeof(path), "%s/run/drvfilter", dir);
	rmdir(path);
	snprintf(path, sizeof(path), "%s/run", dir);
	rmdir(path);
	rmdir(dir);
	df_ctx_unref(ctx);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("state");
	TCase *tc = tcase_create("state");

	tcase_add_test(tc, test_sha256_vectors);
	tcase_add_test(tc, test_sha256_million_a);
	tcase_add_test(tc, test_json_accepts);
	tcase_add_test(tc, test_json_refuses);
	tcase_add_test(tc, test_state_round_trip);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
