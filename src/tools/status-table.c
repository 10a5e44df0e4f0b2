// SPDX-License-Identifier: GPL-2.0-only
/*
 * status's table of drivers, laid out by util-linux's libsmartcols (as lsblk
 * and findmnt are): aligned columns that fit the width, a cell too long for
 * its column wrapped, never cut, a driver's devices one per line; --output,
 * --noheadings and --raw as lsblk has them. By default only the drivers that
 * matter are rows: violations first, then kernel bits that disagree, then the
 * allowed drivers and the rest of those with devices; a line sums up the
 * others (denied, no device), which --all lists too, in bus and driver order.
 */
#include <errno.h>
#include <libsmartcols.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ctl.h"
#include "log.h"
#include "macro.h"
#include "status.h"
#include "strbuf.h"

/* The module, the rule and the devices (one per line) may take several lines. */
static const char *const columns[] = {
	[STATUS_COL_BUS] = "BUS",	  [STATUS_COL_DRIVER] = "DRIVER",
	[STATUS_COL_MODULE] = "MODULE",	  [STATUS_COL_DECISION] = "DECISION",
	[STATUS_COL_BIT] = "BIT",	  [STATUS_COL_RULE] = "RULE",
	[STATUS_COL_DEVICES] = "DEVICES",
};

int status_view_columns(struct status_view *v, const char *spec)
{
	_cleanup_free_ char *copy = strdup(spec);
	char *save = NULL;

	if (!copy)
		return log_oom(), EXIT_ERROR;
	v->ncols = 0;
	for (char *name = strtok_r(copy, ",", &save); name; name = strtok_r(NULL, ",", &save)) {
		size_t c = 0;

		while (c < ARRAY_SIZE(columns) && strcasecmp(name, columns[c]) != 0)
			c++;
		if (c == ARRAY_SIZE(columns))
			return ctl_usage_error("unknown column '%s' for --output: use BUS, DRIVER, "
					       "MODULE, DECISION, BIT, RULE or DEVICES",
					       name);
		if (v->ncols == ARRAY_SIZE(v->cols))
			return ctl_usage_error("--output: at most %zu columns",
					       ARRAY_SIZE(v->cols));
		v->cols[v->ncols++] = (enum status_col)c;
	}
	if (!v->ncols)
		return ctl_usage_error("--output needs at least one column");
	return EXIT_FINE;
}

void status_view_default_columns(struct status_view *v, bool kernel)
{
	v->ncols = 0;
	for (size_t c = 0; c < ARRAY_SIZE(columns); c++)
		/* The bit exists on the patched kernel only: elsewhere the column says "-". */
		if (c != STATUS_COL_BIT || kernel)
			v->cols[v->ncols++] = (enum status_col)c;
}

static bool bit_disagrees(const struct status_driver *d)
{
	return d->drv->allowed >= 0 && d->drv->allowed != (int)d->verdict.allowed;
}

static bool refuses_bound(const struct status_driver *d)
{
	for (size_t k = 0; k < d->nchecks; k++)
		if (d->checks[k].bound && !d->checks[k].verdict.allowed)
			return true;
	return false;
}

/* The default view's order: 0 violations, 1 bits that disagree, 2 the rest shown, 3 not shown. */
static int rank(const struct status_driver *d)
{
	if ((!d->verdict.allowed && (d->drv->ndevices || d->drv->nunknown)) || refuses_bound(d))
		return 0;
	if (bit_disagrees(d))
		return 1;
	if (d->verdict.allowed || d->drv->ndevices || d->drv->nunknown || d->nchecks)
		return 2;
	return 3;
}

/*
 * How much a row's cells are folded to fit the width: not at all, a built-in
 * module's "(built-in)" on a line of its own, and the rule's section too.
 */
enum fold {
	FOLD_NONE,
	FOLD_MODULE,
	FOLD_RULE,
};

static void cell(struct strbuf *sb, const struct status_driver *d, enum status_col c, bool raw,
		 enum fold fold)
{
	const struct df_driver *drv = d->drv;

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
		if (drv->builtin)
			(void)strbuf_append(sb, !drv->module	      ? "(built-in)"
						: fold >= FOLD_MODULE ? "\n(built-in)"
								      : " (built-in)");
		else if (!drv->module)
			(void)strbuf_append(sb, "-");
		break;
	case STATUS_COL_DECISION:
		(void)strbuf_append(sb, d->verdict.allowed ? "allowed" : "denied");
		break;
	case STATUS_COL_BIT:
		(void)strbuf_append(sb, drv->allowed < 0 ? "-" : drv->allowed ? "1" : "0");
		break;
	case STATUS_COL_RULE: {
		/* "[allow] pci = virtio-pci": the section over the rule. */
		const char *end =
			fold >= FOLD_RULE && d->rule[0] == '[' ? strstr(d->rule, "] ") : NULL;

		if (end) {
			(void)strbuf_appendn(sb, d->rule, (size_t)(end - d->rule) + 1);
			(void)strbuf_appendf(sb, "\n%s", end + 2);
		} else {
			(void)strbuf_append(sb, d->rule);
		}
		break;
	}
	case STATUS_COL_DEVICES:
		for (size_t k = 0; k < drv->ndevices; k++) {
			if (k)
				(void)strbuf_appendc(sb, raw ? ',' : '\n');
			/* Raw: the list's commas are the only ones (as in the kernel log). */
			for (const char *n = drv->devices[k]; raw && *n; n++)
				(void)(*n == ',' ? strbuf_append(sb, "\\x2c")
						 : strbuf_append_escaped_max(sb, (char[]){ *n, 0 },
									     1));
			if (!raw)
				(void)strbuf_append_escaped(sb, drv->devices[k]);
		}
		if (drv->nunknown)
			(void)strbuf_appendf(sb, "%s? (%zu unreadable)",
					     drv->ndevices ? (raw ? "," : "\n") : "",
					     drv->nunknown);
		else if (!drv->ndevices)
			(void)strbuf_append(sb, "-");
		break;
	case STATUS_NCOLS:
		break;
	}
}

static int add_columns(struct libscols_table *tb, const struct status_view *v)
{
	for (size_t i = 0; i < v->ncols; i++) {
		enum status_col c = v->cols[i];
		bool lines = !v->raw && c != STATUS_COL_BUS && c != STATUS_COL_DRIVER &&
			     c != STATUS_COL_DECISION && c != STATUS_COL_BIT;
		struct libscols_column *cl =
			scols_table_new_column(tb, columns[c], 0, lines ? SCOLS_FL_WRAP : 0);
		int r;

		if (!cl)
			return -ENOMEM;
		/*
		 * The cells hold names escaped already (\xNN): libsmartcols is not to
		 * escape their backslashes again; nor, in a cell of lines, the
		 * newlines, which are the cell's own.
		 */
		r = scols_column_set_safechars(cl, lines ? "\n\\" : "\\");
		if (r >= 0 && lines)
			r = scols_column_set_wrapfunc(cl, scols_wrapnl_chunksize,
						      scols_wrapnl_nextchunk, NULL);
		if (r < 0)
			return r;
	}
	return 0;
}

/* In the view: every driver with --all (@want < 0), else those of rank @want. */
static bool shown(const struct status_view *v, const struct status_driver *d, int want)
{
	return v->all ? want < 0 : rank(d) == want;
}

/* The widest line of @s. */
static size_t widest(const char *s)
{
	size_t max = 0;

	while (*s) {
		size_t n = strcspn(s, "\n");

		if (n > max)
			max = n;
		s += n + (s[n] == '\n');
	}
	return max;
}

/*
 * Whether the table, its cells folded so, is wider than the view. The cells
 * are folded at their blanks, least first; libsmartcols aligns the columns,
 * the lines are decided here, so that no cell is ever cut.
 */
static bool too_wide(const struct status *s, const struct status_view *v, struct strbuf *sb,
		     enum fold fold)
{
	size_t width[ARRAY_SIZE(v->cols)] = { 0 }, total = 0;

	for (size_t k = 0; k < v->ncols; k++)
		width[k] = v->noheadings ? 0 : strlen(columns[v->cols[k]]);
	for (int want = v->all ? -1 : 0; want <= (v->all ? -1 : 2); want++)
		for (size_t i = 0; i < s->ndrivers; i++) {
			if (!shown(v, &s->drivers[i], want))
				continue;
			for (size_t k = 0; k < v->ncols; k++) {
				cell(sb, &s->drivers[i], v->cols[k], false, fold);
				if (widest(strbuf_str(sb)) > width[k])
					width[k] = widest(strbuf_str(sb));
			}
		}
	for (size_t k = 0; k < v->ncols; k++)
		total += width[k] + (k > 0);
	return total > v->width;
}

static int add_row(struct libscols_table *tb, const struct status_view *v,
		   const struct status_driver *d, struct strbuf *sb, enum fold fold)
{
	struct libscols_line *ln = scols_table_new_line(tb, NULL);

	if (!ln)
		return -ENOMEM;
	for (size_t i = 0; i < v->ncols; i++) {
		cell(sb, d, v->cols[i], v->raw, fold);
		if (!strbuf_str(sb) || scols_line_set_data(ln, i, strbuf_str(sb)) < 0)
			return -ENOMEM;
	}
	return 0;
}

size_t status_print_table(const struct status *s, const struct status_view *v, size_t *builtin)
{
	struct libscols_table *tb = scols_new_table();
	struct strbuf sb = STRBUF_INIT;
	size_t hidden = 0;
	enum fold fold = FOLD_NONE;
	int r = tb ? add_columns(tb, v) : -ENOMEM;

	while (!v->raw && fold < FOLD_RULE && too_wide(s, v, &sb, fold))
		fold++;
	if (r >= 0) {
		scols_table_enable_noheadings(tb, v->noheadings);
		scols_table_enable_raw(tb, v->raw);
		/* Never narrowed by libsmartcols: a terminal or a pipe gets the same lines. */
		scols_table_set_termforce(tb, SCOLS_TERMFORCE_NEVER);
	}
	for (int want = v->all ? -1 : 0; r >= 0 && want <= (v->all ? -1 : 2); want++)
		for (size_t i = 0; i < s->ndrivers && r >= 0; i++)
			if (shown(v, &s->drivers[i], want))
				r = add_row(tb, v, &s->drivers[i], &sb, fold);
	*builtin = 0;
	for (size_t i = 0; !v->all && i < s->ndrivers; i++)
		if (rank(&s->drivers[i]) == 3) {
			hidden++;
			*builtin += s->drivers[i].drv->builtin;
		}
	if (r >= 0 && scols_table_get_nlines(tb) > 0)
		r = scols_print_table(tb);
	if (r < 0)
		log_error("cannot print the table of drivers: %s",
			  strerror(r == -ENOMEM ? ENOMEM : -r));
	scols_unref_table(tb);
	strbuf_release(&sb);
	return hidden;
}
