// SPDX-License-Identifier: GPL-2.0-only
/* Device rules: the ID patterns of each bus, matching, and the decision for a device. */
#include <errno.h>
#include <string.h>

#include "testutil.h"

START_TEST(test_patterns)
{
	static const struct {
		const char *bus, *pattern;
		bool ok;
	} t[] = {
		{ "pci", "1af4:1041", true },
		{ "pci", "1AF4:1041", true },
		{ "pci", "1af4:104?", true },
		{ "pci", "1af4:*", true },
		{ "pci", "1af4:1041:1af4:0001", true },
		{ "pci", "*:*:1af4:*", true },
		{ "pci", "1af4", false },
		{ "pci", "1af4:104", false },
		{ "pci", "1af4:10411", false },
		{ "pci", "1af4:1041:1af4", false },
		{ "pci", "1af4:1041:1af4:0001:0", false },
		{ "pci", "1af4:g041", false },
		{ "pci", "1af4:10*1", false },
		{ "virtio", "1", true },
		{ "virtio", "16", true },
		{ "virtio", "1:1af4", true },
		{ "virtio", "*", true },
		{ "virtio", "0x1", false },
		{ "virtio", "net", false },
		{ "virtio", "1:1af", false },
		{ "virtio", "123456", false },
		{ "pnp", "PNP0501", true },
		{ "pnp", "PNP05??", true },
		{ "acpi", "ACPI0013", true },
		{ "platform", "*", true },
		{ "pnp", "pnp0501", false },
		{ "pnp", "PNP050", false },
		{ "pnp", "PNP0501:00", false },
		{ "usb", "1d6b:0002", false },
	};
	const char *why;

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		ck_assert_msg((df_device_pattern_check(t[i].bus, t[i].pattern, &why) == 0) ==
				      t[i].ok,
			      "%s %s: expected %s", t[i].bus, t[i].pattern,
			      t[i].ok ? "valid" : "invalid");
}
END_TEST

START_TEST(test_match)
{
	struct df_device_id legacy = { "pci", { "1af4:1000:1af4:0001" }, 1 };
	struct df_device_id modern = { "pci", { "1af4:1041:1af4:1100" }, 1 };
	struct df_device_id net = { "virtio", { "1:1af4" }, 1 };
	struct df_device_id kbd = { "pnp", { "PNP0303", "PNP030B" }, 2 };
	struct df_device_id none = { "pci", { { 0 } }, 0 };

	ck_assert(df_device_match("1af4:1041", &modern));
	ck_assert(!df_device_match("1af4:1041", &legacy));
	ck_assert(df_device_match("1AF4:10??", &legacy));
	ck_assert(df_device_match("1af4:*", &legacy));
	ck_assert(df_device_match("1af4:1041:1af4:1100", &modern));
	ck_assert(!df_device_match("1af4:1041:1af4:0001", &modern));
	ck_assert(df_device_match("*:*:1af4:*", &modern));
	ck_assert(df_device_match("1", &net));
	ck_assert(df_device_match("1:1af4", &net));
	ck_assert(!df_device_match("2", &net));
	ck_assert(!df_device_match("1:8086", &net));
	ck_assert(df_device_match("PNP030B", &kbd));
	ck_assert(df_device_match("PNP03??", &kbd));
	ck_assert(!df_device_match("PNP0501", &kbd));
	ck_assert(!df_device_match("*:*", &none));
}
END_TEST

/* An allowed driver with device rules takes only the devices they name; others are untouched. */
START_TEST(test_decide_device)
{
	struct df_policy *p =
		tu_load_ok("[filter]\ndefault = deny\n"
			   "[allow]\npci = virtio-pci@1af4:1041, virtio-pci@1af4:1042, e1000\n"
			   "virtio = virtio_net@1\n[deny]\npci = ALL\n");
	struct df_device_id legacy = { "pci", { "1af4:1000:1af4:0001" }, 1 };
	struct df_device_id blk = { "pci", { "1af4:1042:1af4:1100" }, 1 };
	struct df_device_id vnet = { "virtio", { "1:1af4" }, 1 };
	struct df_verdict v;

	ck_assert(df_policy_has_device_rules(p));
	/* By driver: allowed (allow wins over [deny] pci = ALL), restricted to its devices. */
	df_policy_decide(p, "pci", "virtio-pci", &v);
	ck_assert(v.allowed);
	ck_assert(v.restricted);
	ck_assert_str_eq(v.rule->device, "1af4:1041");
	df_policy_decide_device(p, "pci", "virtio-pci", &blk, &v);
	ck_assert(v.allowed);
	ck_assert_str_eq(v.rule->device, "1af4:1042");
	df_policy_decide_device(p, "pci", "virtio-pci", &legacy, &v);
	ck_assert(!v.allowed);
	ck_assert(v.restricted);
	/* A device whose IDs cannot be read is refused to a restricted driver. */
	df_policy_decide_device(p, "pci", "virtio-pci", NULL, &v);
	ck_assert(!v.allowed);
	/* A driver without device rules is decided as before, whatever the device. */
	df_policy_decide_device(p, "pci", "e1000", &legacy, &v);
	ck_assert(v.allowed);
	ck_assert(!v.restricted);
	df_policy_decide_device(p, "pci", "xhci_hcd", &legacy, &v);
	ck_assert(!v.allowed);
	ck_assert(!v.restricted);
	df_policy_decide_device(p, "virtio", "virtio_net", &vnet, &v);
	ck_assert(v.allowed);
	df_policy_free(p);
}
END_TEST

START_TEST(test_rule_errors)
{
	static const struct {
		const char *text, *message;
	} t[] = {
		{ "[deny]\npci = e1000@8086:100e\n",
		  "a device rule (DRIVER@ID) belongs in [allow]" },
		{ "[allow]\nALL = virtio-pci@1af4:1041\n", "a device rule needs its bus" },
		{ "[allow]\npci = virtio*@1af4:1041\n", "a device rule names one driver" },
		{ "[allow]\npci = @1af4:1041\n", "a device rule names one driver" },
		{ "[allow]\npci = virtio-pci@1af4:104\n", "invalid device ID '1af4:104' for pci" },
		{ "[allow]\nusb = usbhid@1d6b:0002\n", "invalid device ID '1d6b:0002' for usb" },
	};

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		struct df_policy *p;
		struct df_diags d;

		ck_assert_int_eq(tu_load_text(t[i].text, &d, &p), -EINVAL);
		ck_assert_msg(strstr(d.items[0].message, t[i].message), "%s: %s", t[i].text,
			      d.items[0].message);
		df_diags_release(&d);
	}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("devices");
	TCase *tc = tcase_create("devices");

	tcase_add_test(tc, test_patterns);
	tcase_add_test(tc, test_match);
	tcase_add_test(tc, test_decide_device);
	tcase_add_test(tc, test_rule_errors);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
