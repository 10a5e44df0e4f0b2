// SPDX-License-Identifier: GPL-2.0-only
/*
 * status's table of drivers, lsblk's way: its columns are status-columns.c's;
 * libsmartcols aligns the cells, --noheadings and --raw are its own. Every
 * line fits the view's width: when the table is wider, cells fold onto more
 * lines, first where they break best (a built-in module's "(built-in)", a
 * rule's section), then at blanks, then anywhere; the DRIVER column last of
 * all, so that 'status | grep DRIVER' finds the driver's row. By default
 * only the drivers that matter are rows: violations first, then kernel bits
 * that disagree, then the allowed drivers and the rest of those with
 * devices; a line sums up the others (denied, no device), which --all lists
 * too, in bus and driver order.
 */
#include <errno.h>
#include <libsmartcols.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctl.h"
#include "log.h"
#include "macro.h"
#include "status.h"
#include "strbuf.h"

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
	if (d->mismatch)
		return 1;
	if (d->verdict.allowed || d->drv->ndevices || d->drv->nunknown || d->nchecks)
		return 2;
	return 3;
}

/* The rows of the view, in its order: *@n of them. NULL when out of memory. */
static const struct status_driver **view_rows(const struct status *s, const struct status_view *v,
					      size_t *n)
{
	const struct status_driver **rows = calloc(s->ndrivers + 1, sizeof(*rows));

	*n = 0;
	for (int want = v->all ? -1 : 0; rows && want <= (v->all ? -1 : 2); want++)
		for (size_t i = 0; i < s->ndrivers; i++)
			if (v->all || rank(&s->drivers[i]) == want)
				rows[(*n)++] = &s->drivers[i];
	return rows;
}

/* Words (at blanks) of @s, @n bytes, onto lines of @width: a word too long is cut. */
static void fold_words(struct strbuf *out, const char *s, size_t n, size_t width)
{
	size_t col = 0;

	while (n) {
		size_t w = strcspn(s, " ");

		w = w < n ? w : n;
		if (w && col && col + 1 + w <= width) {
			(void)strbuf_appendc(out, ' ');
			col++;
		} else if (w && col) {
			(void)strbuf_appendc(out, '\n');
			col = 0;
		}
		for (; w > width; s += width, n -= width, w -= width)
			(void)strbuf_appendf(out, "%.*s\n", (int)width, s);
		(void)strbuf_appendn(out, s, w);
		col += w;
		s += w + (w < n);
		n -= w + (w < n);
	}
}

/* One line of a cell onto lines of @width: whole, else at its preferred break, else at blanks. */
static void fold_line(struct strbuf *out, const char *s, size_t n, size_t width)
{
	const char *soft = memchr(s, STATUS_SOFT_BREAK, n);

	if (n <= width) {
		for (size_t i = 0; i < n; i++)
			(void)strbuf_appendc(out, s[i] == STATUS_SOFT_BREAK ? ' ' : s[i]);
	} else if (soft) {
		fold_line(out, s, (size_t)(soft - s), width);
		(void)strbuf_appendc(out, '\n');
		fold_line(out, soft + 1, n - (size_t)(soft - s) - 1, width);
	} else {
		fold_words(out, s, n, width);
	}
}

/* @cell folded for a column @width wide (0: not folded) into @out; its number of lines. */
static size_t fold(struct strbuf *out, const char *cell, size_t width)
{
	size_t lines = 1;

	strbuf_clear(out);
	for (const char *s = cell;;) {
		size_t n = strcspn(s, "\n");

		fold_line(out, s, n, width ? width : SIZE_MAX);
		if (!s[n])
			break;
		(void)strbuf_appendc(out, '\n');
		s += n + 1;
	}
	for (const char *s = strbuf_str(out); *s; s++)
		lines += *s == '\n';
	return lines;
}

/* The longest run of @s between any two of @seps. */
static size_t longest_run(const char *s, const char *seps)
{
	size_t max = 0;

	while (*s) {
		size_t n = strcspn(s, seps);

		max = n > max ? n : max;
		s += n + (s[n] != '\0');
	}
	return max;
}

/* How wide column @c is at its widest cell, its lines broken at any of @seps. */
static size_t column_width(const struct status_driver **rows, size_t n, enum status_col c,
			   const char *seps, struct strbuf *sb)
{
	size_t max = 0;

	for (size_t i = 0; i < n; i++) {
		status_cell(sb, rows[i], c, false);
		max = longest_run(strbuf_str(sb), seps) > max ? longest_run(strbuf_str(sb), seps)
							      : max;
	}
	return max;
}

/* How the columns are narrowed, one step after the other while the table is too wide. */
enum narrowing {
	NARROW_SOFT, /* cells folded at their preferred breaks */
	NARROW_WORDS, /* at blanks */
	NARROW_HINT, /* anywhere, down to the width hint; the DRIVER column last */
	NARROW_HEADER, /* anywhere, down to the header (one letter without headings) */
};

/* The narrowest column @c may be made at step @how. */
static size_t narrowest(const struct status_view *v, enum status_col c, enum narrowing how,
			const struct status_driver **rows, size_t n, struct strbuf *sb)
{
	const struct status_colinfo *ci = status_colinfo(c);
	size_t head = v->noheadings ? 1 : strlen(ci->name), want;

	if (how == NARROW_SOFT || how == NARROW_WORDS)
		want = column_width(rows, n, c, how == NARROW_SOFT ? "\n\t" : "\n\t ", sb);
	else
		want = how == NARROW_HINT ? ci->whint : head;
	return want > head ? want : head;
}

/*
 * Narrow the columns that fold, in their order (the STATUS_COL_LAST ones only when
 * @last), no narrower than step @how allows, while the table is wider than
 * the view: *@total is its width.
 */
static void narrow(const struct status_view *v, const struct status_driver **rows, size_t n,
		   size_t *width, size_t *total, enum narrowing how, bool last)
{
	struct strbuf sb = STRBUF_INIT;

	for (unsigned fold = 1; fold <= STATUS_NCOLS; fold++)
		for (size_t k = 0; k<v->ncols && * total> v->width; k++) {
			const struct status_colinfo *ci = status_colinfo(v->cols[k]);
			size_t excess = *total - v->width, want;

			if (ci->fold != fold || (!last && (ci->flags & STATUS_COL_LAST)))
				continue;
			want = narrowest(v, v->cols[k], how, rows, n, &sb);
			if (width[k] > excess && width[k] - excess > want)
				want = width[k] - excess;
			if (want < width[k]) {
				*total -= width[k] - want;
				width[k] = want;
			}
		}
	strbuf_release(&sb);
}

/*
 * The columns' widths for the view: as wide as their cells, else folded
 * where the cells break best (the preferred breaks), then at blanks, then
 * anywhere: each column down to its width hint, the DRIVER column last,
 * then down to the headers.
 */
static void layout(const struct status_view *v, const struct status_driver **rows, size_t n,
		   size_t *width)
{
	struct strbuf sb = STRBUF_INIT;
	size_t total = v->ncols ? v->ncols - 1 : 0;

	for (size_t k = 0; k < v->ncols; k++) {
		size_t head = v->noheadings ? 0 : strlen(status_colinfo(v->cols[k])->name);

		width[k] = column_width(rows, n, v->cols[k], "\n", &sb);
		width[k] = width[k] > head ? width[k] : head;
		total += width[k];
	}
	strbuf_release(&sb);
	if (v->raw)
		return;
	narrow(v, rows, n, width, &total, NARROW_SOFT, false);
	narrow(v, rows, n, width, &total, NARROW_WORDS, false);
	narrow(v, rows, n, width, &total, NARROW_HINT, false);
	narrow(v, rows, n, width, &total, NARROW_HINT, true);
	narrow(v, rows, n, width, &total, NARROW_HEADER, true);
}

static int add_columns(struct libscols_table *tb, const struct status_view *v)
{
	for (size_t i = 0; i < v->ncols; i++) {
		struct libscols_column *cl = scols_table_new_column(
			tb, status_colinfo(v->cols[i])->name, 0, SCOLS_FL_WRAP);
		int r;

		if (!cl)
			return -ENOMEM;
		/*
		 * The cells hold names escaped already (\xNN): libsmartcols is not to
		 * escape their backslashes again; nor the newlines, which are the
		 * cell's own lines.
		 */
		r = scols_column_set_safechars(cl, v->raw ? "\\" : "\n\\");
		if (r >= 0 && !v->raw)
			r = scols_column_set_wrapfunc(cl, scols_wrapnl_chunksize,
						      scols_wrapnl_nextchunk, NULL);
		if (r < 0)
			return r;
	}
	return 0;
}

/* One row, its cells folded for @width: how many lines it takes (*@lines). */
static int add_row(struct libscols_table *tb, const struct status_view *v,
		   const struct status_driver *d, const size_t *width, size_t *lines)
{
	struct libscols_line *ln = scols_table_new_line(tb, NULL);
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;
	int r = ln ? 0 : -ENOMEM;

	*lines = 1;
	for (size_t i = 0; r >= 0 && i < v->ncols; i++) {
		size_t k;

		status_cell(&a, d, v->cols[i], v->raw);
		k = v->raw ? 1 : fold(&b, strbuf_str(&a), width[i]);
		*lines = k > *lines ? k : *lines;
		r = scols_line_set_data(ln, i, strbuf_str(v->raw ? &a : &b));
	}
	strbuf_release(&a);
	strbuf_release(&b);
	return r;
}

/*
 * The table as libsmartcols wrote it, each line without its trailing
 * blanks; the @lines[i] lines of row @i in red where @rows[i] is a violation.
 */
static void print_lines(const char *text, const struct status_view *v,
			const struct status_driver **rows, const size_t *lines)
{
	size_t row = 0, left = v->noheadings ? lines[0] : 1;
	bool header = !v->noheadings;

	for (const char *s = text; *s;) {
		size_t n = strcspn(s, "\n"), len = n;
		bool red = v->colour && !header && rows[row] && rank(rows[row]) == 0;

		while (len && s[len - 1] == ' ')
			len--;
		printf("%s%.*s%s\n", red ? STATUS_RED : "", (int)len, s, red ? STATUS_RESET : "");
		s += n + (s[n] == '\n');
		if (--left == 0) {
			row += !header;
			header = false;
			left = lines[row];
		}
	}
}

/* The rows into @tb, their cells folded for the view; @lines[i]: how many lines row @i takes. */
static int fill(struct libscols_table *tb, const struct status_view *v,
		const struct status_driver **rows, size_t n, size_t *lines)
{
	size_t width[ARRAY_SIZE(v->cols)];
	int r = add_columns(tb, v);

	layout(v, rows, n, width);
	for (size_t i = 0; r >= 0 && i < n; i++)
		r = add_row(tb, v, rows[i], width, &lines[i]);
	return r;
}

size_t status_print_table(const struct status *s, const struct status_view *v, size_t *builtin)
{
	struct libscols_table *tb = scols_new_table();
	size_t n = 0, hidden = 0;
	_cleanup_free_ const struct status_driver **rows = view_rows(s, v, &n);
	_cleanup_free_ size_t *lines = calloc(s->ndrivers + 1, sizeof(*lines));
	_cleanup_free_ char *text = NULL;
	int r = tb && rows && lines ? 0 : -ENOMEM;

	if (r >= 0) {
		scols_table_enable_noheadings(tb, v->noheadings);
		scols_table_enable_raw(tb, v->raw);
		/* Never narrowed by libsmartcols: the lines are decided here. */
		scols_table_set_termforce(tb, SCOLS_TERMFORCE_NEVER);
		r = fill(tb, v, rows, n, lines);
	}
	if (r >= 0 && n > 0)
		r = scols_print_table_to_string(tb, &text);
	if (r < 0)
		log_error("cannot print the table of drivers: %s",
			  strerror(r == -ENOMEM ? ENOMEM : -r));
	else if (text)
		print_lines(text, v, rows, lines);
	*builtin = 0;
	for (size_t i = 0; !v->all && i < s->ndrivers; i++)
		if (rank(&s->drivers[i]) == 3) {
			hidden++;
			*builtin += s->drivers[i].drv->builtin;
		}
	scols_unref_table(tb);
	return hidden;
}
