// SPDX-License-Identifier: GPL-2.0-only
/*
 * status's columns: one table, as util-linux's colinfo, feeds --output,
 * --list-columns, the help and the completion, and the table's layout
 * (status-table.c); and what each cell of a driver's row reads.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ctl.h"
#include "log.h"
#include "macro.h"
#include "status.h"
#include "strbuf.h"
#include "suggest.h"

/* The columns, in their default order (struct status_colinfo says what each field is). */
static const struct status_colinfo infos[] = {
	[STATUS_COL_BUS] = { "BUS", 8, 4, 0, "the bus the driver is registered on" },
	[STATUS_COL_DRIVER] = { "DRIVER", 12, 5, STATUS_COL_LAST,
				"the driver's name (folded last: grep finds its row)" },
	[STATUS_COL_MODULE] = { "MODULE", 10, 2, 0,
				"its module, \"(built-in)\" after it or alone, or \"-\"" },
	[STATUS_COL_DECISION] = { "DECISION", 8, 0, 0, "allowed or denied, by the policy" },
	[STATUS_COL_BIT] = { "BIT", 3, 0, STATUS_COL_KERNEL,
			     "the kernel's allowed bit, or \"-\" (by default in kernel mode)" },
	[STATUS_COL_RULE] = { "RULE", 10, 1, 0, "the rule that decided" },
	[STATUS_COL_DEVICES] = { "DEVICES", 12, 3, 0, "the devices it drives, one per line" },
};

const struct status_colinfo *status_colinfo(enum status_col c)
{
	return &infos[c];
}

void status_list_columns(void)
{
	for (size_t c = 0; c < ARRAY_SIZE(infos); c++)
		printf("%8s  %s\n", infos[c].name, infos[c].help);
}

int status_view_columns(struct status_view *v, const char *spec)
{
	_cleanup_free_ char *copy = strdup(spec + (spec[0] == '+'));
	const char *names[ARRAY_SIZE(infos)];
	char *save = NULL;

	if (!copy)
		return ctl_oom();
	v->plus = spec[0] == '+';
	v->nextra = 0;
	for (size_t c = 0; c < ARRAY_SIZE(infos); c++)
		names[c] = infos[c].name;
	for (char *name = strtok_r(copy, ",", &save); name; name = strtok_r(NULL, ",", &save)) {
		size_t c = 0;
		const char *s;

		while (c < ARRAY_SIZE(infos) && strcasecmp(name, infos[c].name) != 0)
			c++;
		s = c == ARRAY_SIZE(infos) ? suggest(name, names, ARRAY_SIZE(names)) : NULL;
		if (s)
			return ctl_usage_error("unknown column '%s'; did you mean '%s'? "
					       "(--list-columns lists them)",
					       name, s);
		if (c == ARRAY_SIZE(infos))
			return ctl_usage_error("unknown column '%s' (--list-columns lists them)",
					       name);
		if (v->nextra == ARRAY_SIZE(v->extra))
			return ctl_usage_error("--output: at most %zu columns",
					       ARRAY_SIZE(v->extra));
		v->extra[v->nextra++] = (enum status_col)c;
	}
	if (!v->nextra)
		return ctl_usage_error("--output needs at least one column");
	return EXIT_FINE;
}

void status_view_finish(struct status_view *v, bool kernel)
{
	v->ncols = 0;
	for (size_t c = 0; (v->plus || !v->nextra) && c < ARRAY_SIZE(infos); c++)
		/* The bit exists on the patched kernel only: elsewhere the column says "-". */
		if (!(infos[c].flags & STATUS_COL_KERNEL) || kernel)
			v->cols[v->ncols++] = (enum status_col)c;
	for (size_t i = 0; i < v->nextra && v->ncols < ARRAY_SIZE(v->cols); i++)
		v->cols[v->ncols++] = v->extra[i];
}

/* The devices, one per line; raw: joined by commas, the only ones (as in the kernel log). */
static void devices_cell(struct strbuf *sb, const struct df_driver *drv, bool raw)
{
	for (size_t k = 0; k < drv->ndevices; k++) {
		if (k)
			(void)strbuf_appendc(sb, raw ? ',' : '\n');
		for (const char *n = drv->devices[k]; raw && *n; n++)
			(void)(*n == ',' ? strbuf_append(sb, "\\x2c")
					 : strbuf_append_escaped_max(sb, (char[]){ *n, 0 }, 1));
		if (!raw)
			(void)strbuf_append_escaped(sb, drv->devices[k]);
	}
	if (drv->nunknown)
		(void)strbuf_appendf(sb, "%s? (%zu unreadable)",
				     drv->ndevices ? (raw ? "," : "\n") : "", drv->nunknown);
	else if (!drv->ndevices)
		(void)strbuf_append(sb, "-");
}

void status_cell(struct strbuf *sb, const struct status_driver *d, enum status_col c, bool raw)
{
	const struct df_driver *drv = d->drv;
	char soft = raw ? ' ' : STATUS_SOFT_BREAK;
	const char *end;

	strbuf_clear(sb);
	switch (c) {
	case STATUS_COL_BUS:
		(void)strbuf_append_escaped(sb, d->bus->name);
		break;
	case STATUS_COL_DRIVER:
		(void)strbuf_append_escaped(sb, drv->name);
		break;
	case STATUS_COL_MODULE:
		if (drv->module)
			(void)strbuf_append_escaped(sb, drv->module);
		if (drv->module && drv->builtin)
			(void)strbuf_appendc(sb, soft);
		(void)strbuf_append(sb, drv->builtin ? "(built-in)" : drv->module ? "" : "-");
		break;
	case STATUS_COL_DECISION:
		(void)strbuf_append(sb, d->verdict.allowed ? "allowed" : "denied");
		break;
	case STATUS_COL_BIT:
		(void)strbuf_append(sb, drv->allowed < 0 ? "-" : drv->allowed ? "1" : "0");
		break;
	case STATUS_COL_RULE:
		/* "[allow] pci = virtio-pci": the section may go over the rule. */
		end = d->rule[0] == '[' ? strstr(d->rule, "] ") : NULL;
		if (end) {
			(void)strbuf_appendn(sb, d->rule, (size_t)(end - d->rule) + 1);
			(void)strbuf_appendc(sb, soft);
			end += 2;
		}
		(void)strbuf_append(sb, end ? end : d->rule);
		break;
	case STATUS_COL_DEVICES:
		devices_cell(sb, drv, raw);
		break;
	case STATUS_NCOLS:
		break;
	}
}
