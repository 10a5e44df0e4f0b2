// SPDX-License-Identifier: GPL-2.0-only
/*
 * The decision of DESIGN.md against a table: every line of the precedence
 * rules, ALL on either side, globs, the case of keys, spaces in names, the
 * same driver in both lists, and which rule is reported.
 */
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "macro.h"
#include "testutil.h"

struct decide_case {
	const char *policy;
	const char *bus;
	const char *driver;
	bool allowed;
	const char *rule; /* df_rule_describe() of the deciding rule */
	unsigned line;
};

/*
 * df_policy_decide(), checked against df_policy_decide_on() with the bus's
 * rules looked up once (the walk's way): the same verdict, the same rule.
 */
static void decide_both(const struct df_policy *p, const char *bus, const char *driver,
			struct df_verdict *v)
{
	struct df_policy_bus pb;
	struct df_verdict on;

	df_policy_decide(p, bus, driver, v);
	df_policy_bus_init(p, bus, &pb);
	df_policy_decide_on(&pb, driver, &on);
	ck_assert_msg(on.allowed == v->allowed && on.rule == v->rule &&
			      on.restricted == v->restricted,
		      "%s:%s decided otherwise with the bus's rules looked up once", bus, driver);
}

static const struct decide_case cases[] = {
	/* 3. no rule: the default, implicit or written */
	{ "[deny]\nusb = ALL\n", "pci", "e1000", true, "[filter] default = allow (implicit)", 0 },
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

	decide_both(p, c->bus, c->driver, &v);
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
	struct df_policy *p = tu_load_ok(
		"[filter]\nbound = keep\nmode = kernel\nlock = yes\n[deny]\nusb = ALL\n");

	ck_assert(df_policy_default_allows(p));
	ck_assert_int_eq(df_policy_bound(p), DF_BOUND_KEEP);
	ck_assert_int_eq(df_policy_mode(p), DF_MODE_KERNEL);
	ck_assert(df_policy_lock(p));
	df_policy_free(p);

	p = tu_load_ok("[filter]\nlock = off\nmode = fallback\n[deny]\nusb = ALL\n");
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
	decide_both(p, bus, "e1000", &v);
	ck_assert(!v.allowed);
	decide_both(p, bus, "e100", &v);
	ck_assert(v.allowed);
	df_policy_free(p);
}
END_TEST

/*
 * Generated policies against a reference that reads DESIGN.md literally: scan
 * every entry, match names with libc's fnmatch(), allow before deny before the
 * default. It shares no code with the library, so the parser, the compiled
 * tables and the matcher are all checked at once.
 */
static const char *const gen_buses[] = { "pci", "usb", "virtio", "pnp", "ALL" };
static const char *const gen_names[] = { "e1000",     "e1000e",	 "e100", "virtio_net", "virtio-pci",
					 "i8042 kbd", "usbhid",	 "e1*",	 "e1?00",      "virtio*",
					 "*",	      "i8042 *", "ALL" };
static const char *const gen_drivers[] = { "e1000",	 "e1000e",    "e100",	"virtio_net",
					   "virtio-pci", "i8042 kbd", "usbhid", "i8042" };

struct gen_entry {
	bool allow;
	int bus;
	int names[3];
	int nnames;
};

static bool ref_matches(const struct gen_entry *e, const char *bus, const char *driver)
{
	if (!streq(gen_buses[e->bus], "ALL") && !streq(gen_buses[e->bus], bus))
		return false;
	for (int i = 0; i < e->nnames; i++) {
		const char *n = gen_names[e->names[i]];

		if (streq(n, "ALL") || fnmatch(n, driver, 0) == 0)
			return true;
	}
	return false;
}

static unsigned rnd(unsigned *state)
{
	*state = *state * 1103515245u + 12345u;
	return (*state >> 16) & 0x7fff;
}

START_TEST(test_decide_generated)
{
	unsigned seed = 20261203u + (unsigned)_i;

	for (int round = 0; round < 50; round++) {
		struct gen_entry entries[10];
		int nentries = 0, def = (int)(rnd(&seed) % 3); /* unset, allow, deny */
		bool used[2][5] = { { false } };
		char text[4096];
		size_t len = 0;
		struct df_policy *p;

		len += (size_t)snprintf(text + len, sizeof(text) - len, "%s",
					def == 0   ? ""
					: def == 1 ? "[filter]\ndefault = allow\n"
						   : "[filter]\ndefault = deny\n");
		for (int sec = 0; sec < 2; sec++) {
			int n = (int)(rnd(&seed) % 4);

			len += (size_t)snprintf(text + len, sizeof(text) - len, "[%s]\n",
						sec == 0 ? "allow" : "deny");
			for (int k = 0; k < n; k++) {
				struct gen_entry *e = &entries[nentries];
				int bus = (int)(rnd(&seed) % 5);

				if (used[sec][bus])
					continue;
				used[sec][bus] = true;
				*e = (struct gen_entry){ .allow = sec == 0, .bus = bus };
				e->nnames = 1 + (int)(rnd(&seed) % 3);
				for (int j = 0; j < e->nnames; j++) {
					int name;

					do
						name = (int)(rnd(&seed) % 13);
					while (streq(gen_names[name], "ALL") && e->nnames > 1);
					/* A name twice is only a warning; keep lists distinct. */
					for (int m = 0; m < j; m++)
						if (e->names[m] == name)
							name = -1;
					if (name < 0) {
						e->nnames = j;
						break;
					}
					e->names[j] = name;
				}
				len += (size_t)snprintf(text + len, sizeof(text) - len,
							"%s = ", gen_buses[bus]);
				for (int j = 0; j < e->nnames; j++)
					len += (size_t)snprintf(text + len, sizeof(text) - len,
								"%s%s", j ? ", " : "",
								gen_names[e->names[j]]);
				len += (size_t)snprintf(text + len, sizeof(text) - len, "\n");
				nentries++;
			}
		}
		/* No rules and no default is refused (test-load): nothing to decide. */
		if (nentries == 0 && def == 0)
			continue;
		p = tu_load_ok(text);
		for (int b = 0; b < 4; b++) {
			for (size_t d = 0; d < sizeof(gen_drivers) / sizeof(gen_drivers[0]); d++) {
				const char *bus = gen_buses[b], *drv = gen_drivers[d];
				bool expect = def != 2, allowed = false, denied = false;
				struct df_verdict v;

				for (int k = 0; k < nentries; k++) {
					if (!ref_matches(&entries[k], bus, drv))
						continue;
					if (entries[k].allow)
						allowed = true;
					else
						denied = true;
				}
				if (allowed)
					expect = true;
				else if (denied)
					expect = false;
				decide_both(p, bus, drv, &v);
				ck_assert_msg(v.allowed == expect, "%s:%s: expected %s\n%s", bus,
					      drv, expect ? "allowed" : "denied", text);
				/* The reported rule is one that matches, in the list that decided. */
				if (v.rule->section != DF_SECTION_FILTER) {
					ck_assert(v.rule->section ==
						  (v.allowed ? DF_SECTION_ALLOW : DF_SECTION_DENY));
					ck_assert(streq(v.rule->key, "ALL") ||
						  streq(v.rule->key, bus));
					ck_assert(streq(v.rule->name, "ALL") ||
						  fnmatch(v.rule->name, drv, 0) == 0);
				}
			}
		}
		df_policy_free(p);
	}
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
	tc = tcase_create("generated");
	tcase_add_loop_test(tc, test_decide_generated, 0, 20);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_run(decide_suite());
}
