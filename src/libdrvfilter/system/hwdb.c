// SPDX-License-Identifier: GPL-2.0-only
/*
 * Readable names for devices from udev's hardware database, by modalias. The
 * hwdb describes vendor and model IDs, not this machine, so the same lookup
 * serves a fixture tree.
 */
#include <errno.h>
#include <stdio.h>

#include <libudev.h>

#include "system/system-private.h"
#include "strbuf.h"

static char *label_for(struct udev_hwdb *hwdb, const char *modalias)
{
	struct udev_list_entry *e;
	const char *vendor = NULL, *model = NULL;
	struct strbuf sb = STRBUF_INIT;

	udev_list_entry_foreach(e, udev_hwdb_get_properties_list_entry(hwdb, modalias, 0))
	{
		if (streq(udev_list_entry_get_name(e), "ID_VENDOR_FROM_DATABASE"))
			vendor = udev_list_entry_get_value(e);
		else if (streq(udev_list_entry_get_name(e), "ID_MODEL_FROM_DATABASE"))
			model = udev_list_entry_get_value(e);
	}
	if (!vendor && !model)
		return NULL;
	/* The database is text from outside: keep it printable. */
	if (vendor)
		(void)strbuf_append_escaped_max(&sb, vendor, 80);
	if (vendor && model)
		(void)strbuf_appendc(&sb, ' ');
	if (model)
		(void)strbuf_append_escaped_max(&sb, model, 80);
	return strbuf_steal(&sb);
}

int df_inventory_add_labels(struct df_inventory *inv)
{
	struct udev *udev = udev_new();
	struct udev_hwdb *hwdb;

	if (!udev)
		return -ENOMEM;
	hwdb = udev_hwdb_new(udev);
	if (!hwdb) {
		udev_unref(udev);
		return -ENOENT;
	}
	for (size_t i = 0; i < inv->nbuses; i++)
		for (size_t j = 0; j < inv->buses[i].ndevices; j++) {
			struct df_device *dev = &inv->buses[i].devices[j];

			if (dev->modalias && !dev->label)
				dev->label = label_for(hwdb, dev->modalias);
		}
	udev_hwdb_unref(hwdb);
	udev_unref(udev);
	return 0;
}
