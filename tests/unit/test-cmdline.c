// SPDX-License-Identifier: GPL-2.0-only
/* The policy as kernel boot options. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

struct cmdline_case {
	const char *policy;
	const char *options;
};

/* Deny first, each option quoted whole: GRUB keeps ';' and blanks within quotes. */
static const struct cmdline_case cases[] = {
	{ "[filter]\ndefault = allow\n", "" },
	{ "[deny]\nusb = ALL\n", "\"filter_deny_drivers=usb:ALL\"" },
	{ "[filter]\ndefault = deny\n", "\"filter_deny_drivers=ALL:ALL\"" },
	{ "[filter]\ndefault = deny\n[allow]\npci = virtio-pci\nvirtio = virtio_net, virtio_blk\n"
	  "[deny]\nusb = ALL\n",
	  "\"filter_deny_drivers=ALL:ALL\" "
	  "\"filter_allow_drivers=pci:virtio-pci;virtio:virtio_net,virtio_blk\"" },
	{ "[allow]\npci = e1000\n[deny]\nALL = ALL\n",
	  "\"filter_deny_drivers=ALL:ALL\" \"filter_allow_drivers=pci:e1000\"" },
	{ "[allow]\nall = virtio*\n[deny]\npci = e1?00\nusb = ALL\n",
	  "\"filter_deny_drivers=pci:e1?00;usb:ALL\" \"filter_allow_drivers=ALL:virtio*\"" },
	{ "[filter]\ndefault = deny\n[allow]\npnp = i8042 kbd, serial\npci = virtio-pci\n",
	  "\"filter_deny_drivers=ALL:ALL\" "
	  "\"filter_allow_drivers=pnp:i8042 kbd,serial;pci:virtio-pci\"" },
	{ "[deny]\nPCI = e1000\n", "\"filter_deny_drivers=pci:e1000\"" },
	/* No allow option without a deny option: the kernel would deny every driver. */
	{ "[allow]\npnp = i8042 kbd\n",
	  "\"filter_deny_drivers=\" \"filter_allow_drivers=pnp:i8042 kbd\"" },
	{ "[deny]\npnp = i8042 aux\nusb = ALL\n[allow]\npci = virtio-pci\n",
	  "\"filter_deny_drivers=pnp:i8042 aux;usb:ALL\" \"filter_allow_drivers=pci:virtio-pci\"" },
	/* Device rules reach the kernel as DRIVER@ID, which limits the driver to those devices. */
	{ "[filter]\ndefault = deny\n[allow]\npci = virtio-pci@1af4:1041, virtio-pci@1af4:1042\n"
	  "virtio = virtio_net, virtio_blk\n",
	  "\"filter_deny_drivers=ALL:ALL\" "
	  "\"filter_allow_drivers=pci:virtio-pci@1af4:1041,virtio-pci@1af4:1042;"
	  "virtio:virtio_net,virtio_blk\"" },
	{ "[allow]\npci = e1000, virtio-pci @ 1AF4:10??:*:0001\nvirtio = virtio_net@1:1af4\n"
	  "pnp = i8042 kbd@PNP0303\n[deny]\nusb = ALL\n",
	  "\"filter_deny_drivers=usb:ALL\" "
	  "\"filter_allow_drivers=pci:e1000,virtio-pci@1AF4:10??:*:0001;"
	  "virtio:virtio_net@1:1af4;pnp:i8042 kbd@PNP0303\"" },
};

START_TEST(test_cmdline_table)
{
	struct df_policy *p = tu_load_ok(cases[_i].policy);
	char *options = NULL;

	ck_assert_int_eq(df_policy_kernel_options(p, &options), 0);
	ck_assert_str_eq(options, cases[_i].options);
	free(options);
	df_policy_free(p);
}
END_TEST

/* Too long for a kernel command line: refused, with the string still returned. */
START_TEST(test_cmdline_too_long)
{
	char *text = malloc(8192), *options = NULL;
	struct df_policy *p;
	size_t n = 0;

	n += (size_t)sprintf(text + n, "[deny]\n");
	for (int bus = 0; bus < 4; bus++) {
		n += (size_t)sprintf(text + n, "bus%d = ", bus);
		for (int d = 0; d < 60; d++)
			n += (size_t)sprintf(text + n, "%sdriver_%03d", d ? ", " : "", d);
		n += (size_t)sprintf(text + n, "\n");
	}
	p = tu_load_ok(text);
	ck_assert_int_eq(df_policy_kernel_options(p, &options), -E2BIG);
	ck_assert_ptr_nonnull(options);
	ck_assert_uint_gt(strlen(options), DF_KERNEL_CMDLINE_MAX - 1);
	free(options);
	df_policy_free(p);
	free(text);
}
END_TEST

/* The lists written to /sys/kernel/driver_filter carry device rules as the options do. */
START_TEST(test_cmdline_lists_device_rules)
{
	struct df_policy *p =
		tu_load_ok("[filter]\ndefault = deny\n"
			   "[allow]\npci = virtio-pci@1af4:1041, virtio-pci@1af4:1042\n"
			   "virtio = virtio_net@1\n[deny]\npci = e1000\n");
	char *allow = NULL, *deny = NULL;

	ck_assert_int_eq(df_policy_kernel_lists(p, &allow, &deny), 0);
	ck_assert_str_eq(allow,
			 "pci:virtio-pci@1af4:1041,virtio-pci@1af4:1042;virtio:virtio_net@1");
	ck_assert_str_eq(deny, "ALL:ALL");
	free(allow);
	free(deny);
	df_policy_free(p);
}
END_TEST

/* GRUB expands '$' within double quotes, and the kernel would not: refused. */
/* GRUB expands '$' even in double quotes: no policy name may hold one. */
START_TEST(test_cmdline_dollar)
{
	struct df_policy *p = NULL;
	struct df_diags d;

	ck_assert_int_eq(tu_load_text("[deny]\npci = e1000, a$b\n", &d, &p), -EINVAL);
	ck_assert_ptr_nonnull(strstr(d.items[0].message, "'$', which GRUB would expand"));
	df_diags_release(&d);
}
END_TEST

/* drvfilter=off is a parameter of its own, split as the kernel splits them. */
static const struct {
	const char *cmdline;
	int override;
} overrides[] = {
	{ "console=ttyS0 drvfilter=off panic=1", 1 },
	{ "drvfilter=off", 1 },
	{ "  drvfilter=off\n", 1 },
	{ "\"drvfilter=off\"", 1 },
	{ "drvfilter=\"off\" quiet", 1 },
	{ "quiet\tdrvfilter=off", 1 },
	{ "", 0 },
	{ "console=ttyS0 quiet", 0 },
	{ "drvfilter=offx drvfilter= drvfilter off", 0 },
	{ "foo=\"a drvfilter=off b\"", 0 },
	{ "\"a drvfilter=off\"", 0 },
	{ "console=ttyS0 -- drvfilter=off", 0 },
	{ "xdrvfilter=off Drvfilter=off", 0 },
	/* The last one counts, as for the kernel's own parameters. */
	{ "drvfilter=off drvfilter=on", 0 },
	{ "drvfilter=on drvfilter=off", 1 },
	{ "drvfilter=off drvfilter", 0 },
	{ "drvfilter=off quiet drvfilter=off", 1 },
	/*
	 * Quoted whole and in its value, the kernel's next_arg() drops one quote
	 * only: the value is 'off"', not "off" (the splitter drvfilter had
	 * before this one dropped both, and switched drvfilter off).
	 */
	{ "\"drvfilter=\"off\"\"", 0 },
	{ "quiet \"drvfilter=\"off\"\" panic=1", 0 },
};

START_TEST(test_cmdline_override)
{
	ck_assert_msg(df_cmdline_has_override(overrides[_i].cmdline) == overrides[_i].override,
		      "%s", overrides[_i].cmdline);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("cmdline");
	TCase *tc = tcase_create("options");

	tcase_add_loop_test(tc, test_cmdline_table, 0, (int)(sizeof(cases) / sizeof(cases[0])));
	tcase_add_test(tc, test_cmdline_too_long);
	tcase_add_test(tc, test_cmdline_lists_device_rules);
	tcase_add_test(tc, test_cmdline_dollar);
	suite_add_tcase(s, tc);
	tc = tcase_create("override");
	tcase_add_loop_test(tc, test_cmdline_override, 0,
			    (int)(sizeof(overrides) / sizeof(overrides[0])));
	suite_add_tcase(s, tc);
	return tu_run(s);
}
