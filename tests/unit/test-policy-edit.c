// SPDX-License-Identifier: GPL-2.0-only
/*
 * df_policy_edit_list(): one name in or out of one list, every other byte of
 * the file as it was (what drvfilterctl allow/deny do to their drop-in), or
 * a refusal that leaves the text alone.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

/*
 * df_policy_edit_list() on @text returns @want_r: with 1, the new text is
 * @want; with 0 there is none; with -EINVAL there is none either, and the
 * first error holds @want.
 */
static void edit_is(const char *text, enum df_section section, const char *key, const char *name,
		    bool add, int want_r, const char *want)
{
	struct df_diags d;
	char *out = NULL;
	size_t len = 0;

	df_diags_init(&d);
	ck_assert_int_eq(
		df_policy_edit_list(text, strlen(text), section, key, name, add, &d, &out, &len),
		want_r);
	if (want_r == 1) {
		ck_assert_uint_eq(d.errors, 0);
		ck_assert_ptr_nonnull(out);
		ck_assert_uint_eq(len, strlen(out));
		ck_assert_str_eq(out, want);
	} else {
		ck_assert_ptr_null(out);
		ck_assert_uint_eq(d.errors, want_r < 0);
		if (want_r < 0)
			ck_assert_ptr_nonnull(strstr(d.items[0].message, want));
	}
	free(out);
	df_diags_release(&d);
}

#define edit_ok(text, section, key, name, add, want) edit_is(text, section, key, name, add, 1, want)
#define edit_none(text, section, key, name, add) edit_is(text, section, key, name, add, 0, NULL)
#define edit_refused(text, section, key, name, add, words) \
	edit_is(text, section, key, name, add, -EINVAL, words)

static const char dropin[] = "# virtio-pci only for the NIC and the disk\n"
			     "[filter]\n"
			     "default = deny   ; nothing else\n"
			     "\n"
			     "[allow]\n"
			     "pci = virtio-pci@1af4:1000, virtio-pci@1af4:1001  # NIC, disk\n"
			     "# the console\n"
			     "virtio = virtio_console\n"
			     "\n"
			     "# what never runs\n";

START_TEST(test_add_to_list)
{
	/* The name ends the list; the device rules and the comment after it stay. */
	edit_ok(dropin, DF_SECTION_ALLOW, "pci", "e1000", true,
		"# virtio-pci only for the NIC and the disk\n"
		"[filter]\n"
		"default = deny   ; nothing else\n"
		"\n"
		"[allow]\n"
		"pci = virtio-pci@1af4:1000, virtio-pci@1af4:1001, e1000  # NIC, disk\n"
		"# the console\n"
		"virtio = virtio_console\n"
		"\n"
		"# what never runs\n");
	/* A key is compared as iniparser folds it. */
	edit_ok("[allow]\nPCI = a\n", DF_SECTION_ALLOW, "pci", "b", true, "[allow]\nPCI = a, b\n");
	edit_ok("[allow]\npci = \"a, b\" ; q\n", DF_SECTION_ALLOW, "pci", "c", true,
		"[allow]\npci = \"a, b, c\" ; q\n");
	/* Listed already (blanks aside): nothing to do. */
	edit_none("[allow]\npci = a ,  b\n", DF_SECTION_ALLOW, "pci", "b", true);
	/* A device rule of the driver is not the driver. */
	edit_ok("[allow]\npci = b@8086:100e\n", DF_SECTION_ALLOW, "pci", "b", true,
		"[allow]\npci = b@8086:100e, b\n");
}
END_TEST

START_TEST(test_add_key_and_section)
{
	/* A new key ends its section, before the comments that lead to the next. */
	edit_ok(dropin, DF_SECTION_ALLOW, "usb", "usbhid", true,
		"# virtio-pci only for the NIC and the disk\n"
		"[filter]\n"
		"default = deny   ; nothing else\n"
		"\n"
		"[allow]\n"
		"pci = virtio-pci@1af4:1000, virtio-pci@1af4:1001  # NIC, disk\n"
		"# the console\n"
		"virtio = virtio_console\n"
		"usb = usbhid\n"
		"\n"
		"# what never runs\n");
	/* A new section ends the file, after one blank line. */
	edit_ok(dropin, DF_SECTION_DENY, "USB", "usb", true,
		"# virtio-pci only for the NIC and the disk\n"
		"[filter]\n"
		"default = deny   ; nothing else\n"
		"\n"
		"[allow]\n"
		"pci = virtio-pci@1af4:1000, virtio-pci@1af4:1001  # NIC, disk\n"
		"# the console\n"
		"virtio = virtio_console\n"
		"\n"
		"# what never runs\n"
		"\n"
		"[deny]\n"
		"usb = usb\n");
	edit_ok("# header\n", DF_SECTION_ALLOW, "pci", "e1000", true,
		"# header\n\n[allow]\npci = e1000\n");
	edit_ok("# header\n\n", DF_SECTION_ALLOW, "pci", "e1000", true,
		"# header\n\n[allow]\npci = e1000\n");
	/* No newline at the end, CRLF line ends: kept as the file has them. */
	edit_ok("[deny]\r\nusb = ALL", DF_SECTION_DENY, "pci", "e1000", true,
		"[deny]\r\nusb = ALL\r\npci = e1000\r\n");
	edit_ok("[deny]\nusb = ALL", DF_SECTION_ALLOW, "pci", "e1000", true,
		"[deny]\nusb = ALL\n\n[allow]\npci = e1000\n");
	edit_ok("[allow]\n", DF_SECTION_ALLOW, "pci", "e1000", true, "[allow]\npci = e1000\n");
}
END_TEST

START_TEST(test_remove)
{
	const char *three = "[deny]\npci = a, b, c  ; why\n";

	edit_ok(three, DF_SECTION_DENY, "pci", "a", false, "[deny]\npci = b, c  ; why\n");
	edit_ok(three, DF_SECTION_DENY, "pci", "b", false, "[deny]\npci = a, c  ; why\n");
	edit_ok(three, DF_SECTION_DENY, "pci", "c", false, "[deny]\npci = a, b  ; why\n");
	edit_none(three, DF_SECTION_DENY, "pci", "d", false);
	edit_none(three, DF_SECTION_ALLOW, "pci", "a", false);
	/* A device rule is never taken out with its driver's name. */
	edit_ok("[allow]\npci = e1000, e1000@8086:100e\n", DF_SECTION_ALLOW, "pci", "e1000", false,
		"[allow]\npci = e1000@8086:100e\n");
	edit_none("[allow]\npci = e1000@8086:100e\n", DF_SECTION_ALLOW, "pci", "e1000", false);
	/* The last name: the line goes; the section too when nothing else is in it. */
	edit_ok("# W\n\n[allow]\npci = e1000\n\n[deny]\nusb = usb\n", DF_SECTION_ALLOW, "pci",
		"e1000", false, "# W\n\n[deny]\nusb = usb\n");
	edit_ok("# W\n\n[allow]\npci = e1000\nvirtio = x\n", DF_SECTION_ALLOW, "pci", "e1000",
		false, "# W\n\n[allow]\nvirtio = x\n");
	/* A comment keeps its section. */
	edit_ok("[allow]\n# keep me\npci = e1000\n", DF_SECTION_ALLOW, "pci", "e1000", false,
		"[allow]\n# keep me\n");
	edit_ok("[allow]\npci = e1000 ; why\n[filter]\ndefault = deny\n", DF_SECTION_ALLOW, "pci",
		"e1000", false, "[filter]\ndefault = deny\n");
}
END_TEST

START_TEST(test_refused)
{
	char *line;

	edit_refused("[allow]\npci = a, \\\n  b\n", DF_SECTION_ALLOW, "pci", "c", true,
		     "over several lines");
	edit_refused("[allow]\npci = a, \\\n  b\n", DF_SECTION_ALLOW, "pci", "a", false,
		     "over several lines");
	/* A file the scan refuses is not edited at all. */
	edit_refused("[allow]\npci = a\npci = b\n", DF_SECTION_ALLOW, "virtio", "c", true,
		     "given twice");
	/* A line iniparser would cut. */
	line = malloc(1100);
	ck_assert_ptr_nonnull(line);
	strcpy(line, "[allow]\npci = ");
	memset(line + strlen(line), 'a', 1000);
	line[14 + 1000] = '\0';
	strcat(line, "\n");
	edit_refused(line, DF_SECTION_ALLOW, "pci", "e1000_long_name", true, "is full");
	free(line);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("policy-edit");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_add_to_list);
	tcase_add_test(tc, test_add_key_and_section);
	tcase_add_test(tc, test_remove);
	tcase_add_test(tc, test_refused);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
