// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fuzz target for df_policy_edit_list() (what allow and deny do to their
 * drop-in): names put into and taken out of lists of any text. Besides "no
 * crash, no sanitizer report" it checks that every refusal says why, that a
 * change hands back a text, that a name added is then found there (adding it
 * again changes nothing), and that taking it out again changes the text.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "drvfilter.h"
#include "fuzz.h"

_Noreturn static void fail(const char *what)
{
	fuzz_fail("fuzz-policy-edit", what);
}

/* One edit; 1 with the new text in *@out, 0, or a refusal that said why. */
static int edit(const char *text, size_t len, enum df_section section, const char *key,
		const char *name, bool add, char **out, size_t *out_len)
{
	struct df_diags d;
	int r;

	df_diags_init(&d);
	r = df_policy_edit_list(text, len, section, key, name, add, &d, out, out_len);
	if (r == -EINVAL && d.errors == 0)
		fail("an edit refused without an error message");
	if (r < 0 && r != -EINVAL && r != -ENOMEM)
		fail("an edit failed with an unexpected error");
	if ((r == 1) != (*out != NULL))
		fail("a change without a text, or a text without a change");
	df_diags_release(&d);
	return r;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct {
		enum df_section section;
		const char *key, *name;
	} edits[] = {
		{ DF_SECTION_ALLOW, "pci", "e1000" },
		{ DF_SECTION_DENY, "PCI", "virtio-pci" },
		{ DF_SECTION_ALLOW, "pnp", "i8042 kbd" },
		{ DF_SECTION_DENY, "usb", "ALL" },
	};
	char *text = fuzz_strndup(data, size);

	for (size_t i = 0; i < sizeof(edits) / sizeof(edits[0]); i++) {
		char *added = NULL, *again = NULL, *removed = NULL;
		size_t added_len = 0, again_len = 0, removed_len = 0;

		(void)edit(text, size, edits[i].section, edits[i].key, edits[i].name, false,
			   &removed, &removed_len);
		free(removed);
		removed = NULL;
		if (edit(text, size, edits[i].section, edits[i].key, edits[i].name, true, &added,
			 &added_len) != 1)
			continue;
		if (edit(added, added_len, edits[i].section, edits[i].key, edits[i].name, true,
			 &again, &again_len) == 1)
			fail("a name just added is not found in its list");
		if (edit(added, added_len, edits[i].section, edits[i].key, edits[i].name, false,
			 &removed, &removed_len) == 0)
			fail("a name just added cannot be taken out");
		free(again);
		free(removed);
		free(added);
	}
	free(text);
	return 0;
}
