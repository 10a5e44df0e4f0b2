// SPDX-License-Identifier: GPL-2.0-only
/* SHA-256 (shared/sha256.c): the FIPS 180-4 vectors, fed whole and in pieces. */
#include <string.h>

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

int main(void)
{
	Suite *s = suite_create("sha256");
	TCase *tc = tcase_create("sha256");

	tcase_add_test(tc, test_sha256_vectors);
	tcase_add_test(tc, test_sha256_million_a);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
