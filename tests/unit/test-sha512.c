// SPDX-License-Identifier: GPL-2.0-only
/* SHA-384 and SHA-512 (shared/sha512.c): the FIPS 180-4 vectors, fed whole and in pieces. */
#include <stdio.h>
#include <string.h>

#include "sha512.h"
#include "testutil.h"

static void hex(const unsigned char *d, size_t n, char *out)
{
	for (size_t i = 0; i < n; i++)
		snprintf(out + 2 * i, 3, "%02x", d[i]);
}

START_TEST(test_sha384_vectors)
{
	/* FIPS 180-4 examples: empty, one block, two blocks (112 bytes: the padding spills). */
	static const struct {
		const char *in, *hex;
	} v[] = {
		{ "",
		  "38b060a751ac96384cd9327eb1b1e36a21fdb71114be07434c0cc7bf63f6e1da274edebfe76f65"
		  "fbd51ad2f14898b95b" },
		{ "abc",
		  "cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed8086072ba1e7"
		  "cc2358baeca134c825a7" },
		{ "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopq"
		  "kl"
		  "mnopqrlmnopqrsmnopqrstnopqrstu",
		  "09330c33f71147e83d192fc782cd1b4753111b173b3b05d22fa08086e3b0f712fcc7c71a557e2db9"
		  "66"
		  "c3e9fa91746039" },
	};
	unsigned char d[SHA384_DIGEST_SIZE];
	char h[2 * SHA384_DIGEST_SIZE + 1];

	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		sha384(v[i].in, strlen(v[i].in), d);
		hex(d, sizeof(d), h);
		ck_assert_str_eq(h, v[i].hex);
	}
}
END_TEST

START_TEST(test_sha512_abc)
{
	unsigned char d[SHA512_DIGEST_SIZE];
	char h[2 * SHA512_DIGEST_SIZE + 1];
	struct sha512 s;

	sha512_init(&s);
	sha512_update(&s, "abc", 3);
	sha512_final(&s, d);
	hex(d, sizeof(d), h);
	ck_assert_str_eq(h,
			 "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a"
			 "274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f");
}
END_TEST

START_TEST(test_sha384_million_a)
{
	static char a[1000000];
	unsigned char d[SHA384_DIGEST_SIZE];
	char h[2 * SHA384_DIGEST_SIZE + 1];
	struct sha512 s;

	memset(a, 'a', sizeof(a));
	/* Fed in uneven pieces, across every block boundary there is. */
	sha384_init(&s);
	for (size_t off = 0, step = 1; off < sizeof(a); off += step, step = step * 3 % 1000 + 1)
		sha512_update(&s, a + off, off + step > sizeof(a) ? sizeof(a) - off : step);
	sha512_final(&s, d);
	hex(d, sizeof(d), h);
	ck_assert_str_eq(h,
			 "9d0e1809716474cb086e834e310a4a1ced149e9c00f248527972cec5704c2a5b07b8b3dc"
			 "38ecc4ebae97ddd87f3d8985");
}
END_TEST

int main(void)
{
	Suite *s = suite_create("sha512");
	TCase *tc = tcase_create("sha512");

	tcase_add_test(tc, test_sha384_vectors);
	tcase_add_test(tc, test_sha512_abc);
	tcase_add_test(tc, test_sha384_million_a);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
