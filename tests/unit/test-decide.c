// SPDX-License-Identifier: GPL-2.0-only
/*
 * The decision of DESIGN.md against a table: every line of the precedence
 * rules, ALL on either side, globs, the case of keys, spaces in names, the
 * same driver in both lists, and which rule is reported.
 */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

struct decide_case {
	const char *policy;
	const char *bus;
	const char *driver;
	bool allowed;
	const char *rule; /* df_rule_describe() of the deciding rule */
	unsigned line;
};

static const struct decide_case cases[] = {
	/* 3. no rule: the default, implicit or written */
	{ "", "pci", "e1000", true, "[filter] default = allow (implicit)", 0 },
	{ "[filter]\ndefault = deny\n", "pci", "e1000", false, "[filter] default = deny", 2 },
	{ "[filter]\ndefault = allow\n[deny]\nusb = ALL\n", "pci", "e1000", true,
	  "[filter] default = allow", 2 },
	{ "[filter]\ndefault = DENY\n", "pci", "e1000", false, "[filter] default = deny", 2 },
	/* 1. an allow match allows */
	{ "[filter]\ndefault = deny\n[allow]\npci = e1000\n", "pci", "e1000", true,
	  "[allow] pci = e1000", 4 },
	{ "[filter]\ndefault = deny\n[allow]\npci = e1000\n", "pci", "e100", false,
	  "[filter] default = deny", 2 },
	{ "[filter]\ndefault = deny\n[allow]\npci = e1000\n", "usb", "e1000", false,
	  "[filter] default = deny", 2 },
	/* 2. a deny match denies, when no allow matches */
	{ "[deny]\npci = e1000\n", "pci", "e1000", false, "[deny] pci = e1000", 2 },
	{ "[deny]\npci = e1000\n", "pci", "e100", true, "[filter] default = allow (implicit)", 0 },
	/* allow wins over deny: the same driver in both lists, in either order */
	{ "[allow]\npci = e1000\n[deny]\npci = e1000\n", "pci", "e1000", true,
	  "[allow] pci = e1000", 2 },
	{ "[deny]\npci = e1000\n[allow]\npci = e1000\n", "pci", "e1000", true,
	  "[allow] pci = e1000", 4 },
	{ "[allow]\npci = e1000\n[deny]\npci = ALL\n", "pci", "e1000", true, "[allow] pci = e1000",
	  2 },
	{ "[allow]\npci = e1000\n[deny]\npci = ALL\n", "pci", "e100", false, "[deny] pci = ALL",
	  4 },
	/* ALL as the key */
	{ "[deny]\nALL = ALL\n[allow]\nvirtio = ALL\n", "virtio", "virtio_net", true,
	  "[allow] virtio = ALL", 4 },
	{ "[deny]\nALL = ALL\n[allow]\nvirtio = ALL\n", "pci", "e1000", false, "[deny] ALL = ALL",
	  2 },
	{ "[deny]\nALL = e1000\n", "usb", "e1000", false, "[deny] ALL = e1000", 2 },
	{ "[deny]\nALL = e1000\n", "usb", "e100", true, "[filter] default = allow (implicit)", 0 },
	{ "[filter]\ndefault = deny\n[allow]\nall = virtio_net\n", "virtio", "virtio_net", true,
	  "[allow] ALL = virtio_net", 4 },
	{ "[filter]\ndefault = deny\n[allow]\nAll = ALL\n", "usb", "usbhid", true,
	  "[allow] ALL = ALL", 4 },
	/* the bus's own key is reported before the ALL key */
	{ "[allow]\nALL = e1000\npci = e1000\n", "pci", "e1000", true, "[allow] pci = e1000", 3 },
	{ "[allow]\nALL = e1000\npci = e1000\n", "usb", "e1000", true, "[allow] ALL = e1000", 2 },
	/* bus names compare without regard to case (iniparser folds keys) */
	{ "[deny]\nPCI = e1000\n", "pci", "e1000", false, "[deny] pci = e1000", 2 },
	{ "[deny]\npci = e1000\n", "PCI", "e1000", false, "[deny] pci = e1000", 2 },
	/* driver names do not */
	{ "[deny]\npci = E1000\n", "pci", "e1000", true, "[filter] default = allow (implicit)", 0 },
	/* globs, and the most specific rule wins the report */
	{ "[filter]\ndefault = deny\n[allow]\npci = virtio*, e1?00\n", "pci", "virtio-pci", true,
	  "[allow] pci = virtio*", 4 },
	{ "[filter]\ndefault = deny\n[allow]\npci = virtio*, e1?00\n", "pci", "e1000", true,
	  "[allow] pci = e1?00", 4 },
	{ "[filter]\ndefault = deny\n[allow]\npci = virtio*, e1?00\n", "pci", "e10000", false,
	  "[filter] default = deny", 2 },
	{ "[filter]\ndefault = deny\n[allow]\npci = virtio*, e1?00\n", "pci", "virtio", true,
	  "[allow] pci = virtio*", 4 },
	{ "[allow]\npci = e1000\n[deny]\npci = e1*\n", "pci", "e1001", false, "[deny] pci = e1*",
	  4 },
	{ "[allow]\npci = e1*, e1000\n", "pci", "e1000", true, "[allow] pci = e1000", 2 },
	{ "[allow]\npci = ALL\nALL = e1000\n[deny]\nALL = ALL\n", "pci", "e1000", true,
	  "[allow] pci = ALL", 2 },
	{ "[deny]\npci = *\n", "pci", "anything", false, "[deny] pci = *", 2 },
	/* spaces inside names are part of the name */
	{ "[filter]\ndefault = deny\n[allow]\npnp = i8042 kbd, serial\n", "pnp", "i8042 kbd", true,
	  "[allow] pnp = i8042 kbd", 4 },
	{ "[filter]\ndefault = deny\n[allow]\npnp = i8042 kbd, serial\n", "pnp", "i8042", false,
	  "[filter] default = deny", 2 },
	{ "[filter]\ndefault = deny\n[allow]\npnp = i8042 kbd, serial\n", "pnp", "i8042  kbd",
	  false, "[filter] default = deny", 2 },
	{ "[filter]\ndefault = deny\n[allow]\npnp =   i8042 kbd  ,serial\n", "pnp", "serial", true,
	  "[allow] pnp = serial", 4 },
	/* quoted values and inline comments, as iniparser reads them */
	{ "[deny]\npci = \"e1000, e100\" ; both\n", "pci", "e100", false, "[deny] pci = e100", 2 },
	{ "[deny]\npci = e1000 # e100\n", "pci", "e100", true,
	  "[filter] default = allow (implicit)", 0 },
	/* a continued line is one entry, reported at its first line */
	{ "[deny]\npci = e1000, \\\n  e100\n", "pci", "e100", false, "[deny] pci = e100", 2 },
};

START_TEST(test_decide_table)
{
	const struct decide_case *c = &cases[_i];
	struct df_policy *p = tu_load_ok(c->policy);
	struct df_verdict v;
	char *rule;

	df_policy_decide(p, c->bus, c->driver, &v);
	rule = df_rule_describe(v.rule);
	ck_assert_msg(v.allowed == c->allowed, "case %d %s:%s: expected %s, got %s by %s", _i,
		      c->bus, c->driver, c->allowed ? "allowed" : "denied",
		      v.allowed ? "allowed" : "denied", rule);
	ck_assert_str_eq(rule, c->rule);
	ck_assert_uint_eq(v.rule->line, c->line);
	free(rule);
	df_policy_free(p);
}
END_TEST

START_TEST(test_decide_settings)
{
	struct df_policy *p = tu_load_ok("[filter]\nbound = keep\nmode = kernel\nlock = yes\n");

	ck_assert(df_policy_default_allows(p));
	ck_assert_int_eq(df_policy_bound(p), DF_BOUND_KEEP);
	ck_assert_int_eq(df_policy_mode(p), DF_MODE_KERNEL);
	ck_assert(df_policy_lock(p));
	df_policy_free(p);

	p = tu_load_ok("[filter]\nlock = off\nmode = fallback\n");
	ck_assert(!df_policy_lock(p));
	ck_assert_int_eq(df_policy_bound(p), DF_BOUND_UNBIND);
	ck_assert_int_eq(df_policy_mode(p), DF_MODE_FALLBACK);
	df_policy_free(p);
}
END_TEST

/* A name longer than any key can be still meets the ALL-key rules. */
START_TEST(test_decide_long_bus)
{
	struct df_policy *p = tu_load_ok("[deny]\nALL = e1000\n");
	char bus[400];
	struct df_verdict v;

	memset(bus, 'b', sizeof(bus) - 1);
	bus[sizeof(bus) - 1] = '\0';
	df_policy_decide(p, bus, "e1000", &v);
	ck_assert(!v.allowed);
	df_policy_decide(p, bus, "e100", &v);
	ck_assert(v.allowed);
	df_policy_free(p);
}
END_TEST

static Suite *decide_suite(void)
{
	Suite *s = suite_create("decide");
	TCase *tc = tcase_create("table");

	tcase_add_loop_test(tc, test_decide_table, 0, (int)(sizeof(cases) / sizeof(cases[0])));
	tcase_add_test(tc, test_decide_settings);
	tcase_add_test(tc, test_decide_long_bus);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_run(decide_suite());
}
