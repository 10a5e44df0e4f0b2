// SPDX-License-Identifier: GPL-2.0-only
/*
 * drvfilter-bench: drvfilter-apply against two syscall floors and a POSIX-sh
 * loop on synthetic machines of growing size, run side by side (floor, audit
 * floor, apply, shell, floor, ...), so the ratios hold on a noisy machine.
 * The plain floor only writes each driver's bit; the audit floor also does
 * the audit trail's required work (finds the devices of each denied driver
 * and logs one line per denied driver that drives something), and must log
 * as many such lines as apply. Every run must leave each allowed file as
 * libdrvfilter decides (poisoned before it). Prints median and min-max wall
 * times, the ratios, peak RSS, the slopes per driver and per rule, and the
 * targets of DESIGN.md and issue 32 at the largest size of every shape.
 * Usage: drvfilter-bench APPLY FLOOR NAIVE-SH [--quick] [--dir DIR] [--shape NAME]
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "gen.h"

enum {
	FLOOR,
	AUDIT, /* the floor with the audit trail's work: bench-floor --audit */
	APPLY,
	SHELL,
	PROGRAMS
};

struct sample {
	double ms[PROGRAMS][16];
	long rss_kib[PROGRAMS];
	int n[PROGRAMS];
};

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/*
 * Run @argv with its output to /dev/null and its errors to @errlog: wall time
 * in ms, peak RSS in KiB; <0 on failure.
 */
static double run(char *const argv[], const char *errlog, long *rss_kib)
{
	struct rusage ru;
	double t0 = now_ms(), t;
	int status;
	pid_t pid = fork();

	if (pid == 0) {
		/* Standard error is kept: a broken run says why. */
		if (!freopen("/dev/null", "w", stdout) || !freopen(errlog, "w", stderr))
			_exit(127);
		execv(argv[0], argv);
		_exit(127);
	}
	if (pid < 0 || wait4(pid, &status, 0, &ru) < 0)
		return -1;
	t = now_ms() - t0;
	*rss_kib = ru.ru_maxrss;
	/* apply exits 0; the floor and the shell too. Anything else is a broken run. */
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		char cmd[4300];

		fprintf(stderr, "bench: %s %s exited with %d; its last errors:\n", argv[0], argv[1],
			WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
		snprintf(cmd, sizeof(cmd), "tail -n 5 '%s' >&2", errlog);
		if (system(cmd) != 0)
			fprintf(stderr, "bench: cannot show %s\n", errlog);
		return -1;
	}
	return t;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

struct row {
	struct bench_size size;
	struct bench_counts counts;
	int runs, shell_runs;
	long detach_lines; /* apply's and the audit floor's log lines with detached= */
	double med[PROGRAMS], min[PROGRAMS], max[PROGRAMS];
	long rss[PROGRAMS];
};

static int measure(const char *apply, const char *floor_prog, const char *naive, const char *dir,
		   struct row *row)
{
	char tree[4096], decisions[4200], errlog[4200];
	struct sample s = { 0 };

	snprintf(tree, sizeof(tree), "%s/%s-n%zu-r%zu", dir, bench_shape_name(row->size.shape),
		 row->size.drivers, row->size.rules);
	if (bench_generate(tree, &row->size, &row->counts) < 0)
		return -1;
	snprintf(decisions, sizeof(decisions), "%s/decisions", tree);
	snprintf(errlog, sizeof(errlog), "%s/stderr", tree);
	char *const argv[PROGRAMS][5] = {
		{ (char *)floor_prog, tree, decisions, NULL },
		{ (char *)floor_prog, (char *)"--audit", tree, decisions, NULL },
		{ (char *)apply, (char *)"--sysroot", tree, NULL },
		{ (char *)"/bin/sh", (char *)naive, tree, NULL },
	};
	/*
	 * One warm-up round: the tree in the page cache, the programs loaded
	 * (the shell's too, but not its run: at the largest sizes it takes a
	 * minute, and what it reads the others have read).
	 */
	for (int round = -1; round < row->runs; round++) {
		for (int p = 0; p < PROGRAMS; p++) {
			long rss;
			double t;

			if (p == SHELL && (round < 0 || round >= row->shell_runs))
				continue;
			if (bench_reset(tree) < 0)
				return -1;
			t = run(argv[p], errlog, &rss);
			if (t < 0)
				return -1;
			if (bench_verify(tree) < 0) {
				fprintf(stderr, "bench: %s left an allowed file wrong\n",
					argv[p][0]);
				return -1;
			}
			/* The audit floor does the audit trail's work: the same lines as apply. */
			if (p == AUDIT || p == APPLY) {
				long lines = bench_detach_lines(tree);

				if (lines < 0)
					return -1;
				if (p == AUDIT)
					row->detach_lines = lines;
				else if (lines != row->detach_lines) {
					fprintf(stderr,
						"bench: the audit floor logged %ld detach lines, "
						"apply %ld\n",
						row->detach_lines, lines);
					return -1;
				}
			}
			if (round < 0)
				continue;
			s.ms[p][s.n[p]++] = t;
			if (rss > s.rss_kib[p])
				s.rss_kib[p] = rss;
		}
	}
	for (int p = 0; p < PROGRAMS; p++) {
		row->med[p] = median(s.ms[p], s.n[p]);
		row->min[p] = s.ms[p][0];
		row->max[p] = s.ms[p][s.n[p] - 1];
		row->rss[p] = s.rss_kib[p];
	}
	return 0;
}

static void print_row(const struct row *r)
{
	char cell[PROGRAMS][64], machine[64];

	for (int p = 0; p < PROGRAMS; p++)
		snprintf(cell[p], sizeof(cell[p]), "%.2f [%.2f-%.2f]", r->med[p], r->min[p],
			 r->max[p]);
	snprintf(machine, sizeof(machine), "%zu/%zu/%zu", r->counts.allowed, r->counts.devices,
		 r->counts.bound);
	printf("%-10s %6zu %6zu %4d  %-24s %-24s %-24s %-28s %6.2fx %6.2fx %6.1fx %8ld %6ld  %s\n",
	       bench_shape_name(r->size.shape), r->size.drivers, r->size.rules, r->runs,
	       cell[FLOOR], cell[AUDIT], cell[APPLY], cell[SHELL], r->med[APPLY] / r->med[FLOOR],
	       r->med[APPLY] / r->med[AUDIT], r->med[SHELL] / r->med[APPLY], r->rss[APPLY],
	       r->detach_lines, machine);
}

#define BIG_N 20000
#define BIG_R 10000

int main(int argc, char **argv)
{
	const char *dir = "/dev/shm/drvfilter-bench", *only = NULL;
	bool quick = false;
	/*
	 * mixed: N at R = 10 gives the per-driver slope, R at N = 1,000 the
	 * per-rule one (rows 0-5). The other shapes: a small machine, many
	 * drivers with few rules, and the largest size.
	 */
	struct row rows[] = {
		{ .size = { 100, 10, 5, BENCH_MIXED }, .runs = 9, .shell_runs = 9 },
		{ .size = { 1000, 10, 20, BENCH_MIXED }, .runs = 9, .shell_runs = 9 },
		{ .size = { BIG_N, 10, 200, BENCH_MIXED }, .runs = 7, .shell_runs = 3 },
		{ .size = { 1000, 1000, 20, BENCH_MIXED }, .runs = 9, .shell_runs = 5 },
		{ .size = { 1000, BIG_R, 20, BENCH_MIXED }, .runs = 9, .shell_runs = 3 },
		{ .size = { BIG_N, BIG_R, 200, BENCH_MIXED }, .runs = 15, .shell_runs = 3 },
		{ .size = { 1000, 100, 20, BENCH_DENY_HEAVY }, .runs = 9, .shell_runs = 5 },
		{ .size = { BIG_N, 10, 200, BENCH_DENY_HEAVY }, .runs = 7, .shell_runs = 3 },
		{ .size = { BIG_N, BIG_R, 200, BENCH_DENY_HEAVY }, .runs = 15, .shell_runs = 2 },
		{ .size = { 81, 10, 0, BENCH_GUEST }, .runs = 9, .shell_runs = 9 },
		{ .size = { BIG_N, 10, 0, BENCH_GUEST }, .runs = 7, .shell_runs = 3 },
		{ .size = { BIG_N, BIG_R, 0, BENCH_GUEST }, .runs = 15, .shell_runs = 2 },
	};
	size_t nrows = sizeof(rows) / sizeof(rows[0]);
	bool done[sizeof(rows) / sizeof(rows[0])] = { 0 };
	double per_driver, per_rule, predicted;
	int fail = 0;

	if (argc < 4) {
		fprintf(stderr, "usage: drvfilter-bench APPLY FLOOR NAIVE-SH [--quick] [--dir DIR] "
				"[--shape NAME]\n");
		return 2;
	}
	for (int i = 4; i < argc; i++) {
		if (strcmp(argv[i], "--quick") == 0)
			quick = true;
		else if (strcmp(argv[i], "--dir") == 0 && i + 1 < argc)
			dir = argv[++i];
		else if (strcmp(argv[i], "--shape") == 0 && i + 1 < argc)
			only = argv[++i];
		else
			return 2;
	}
	if (quick)
		for (size_t i = 0; i < nrows; i++)
			rows[i].runs = 3, rows[i].shell_runs = 1;
	printf("drvfilter-apply against the syscall floor, the floor with the audit trail's\n"
	       "work and a POSIX-sh loop, kernel mode (%s; wall time, median of the\n"
	       "runs [min-max], programs alternated; detach lines: the log lines of denied\n"
	       "drivers that drive something, the audit floor's and apply's the same; the\n"
	       "machine: drivers allowed / devices / devices bound)\n\n",
	       dir);
	printf("%-10s %6s %6s %4s  %-24s %-24s %-24s %-28s %7s %7s %7s %8s %6s  %s\n", "shape", "N",
	       "R", "runs", "floor ms", "audit floor ms", "apply ms", "shell ms", "apply/",
	       "apply/", "shell/", "apply", "detach", "machine");
	printf("%-10s %6s %6s %4s  %-24s %-24s %-24s %-28s %7s %7s %7s %8s %6s\n", "", "", "", "",
	       "", "", "", "", "floor", "audit", "apply", "RSS KiB", "lines");
	for (size_t i = 0; i < nrows; i++) {
		if (only && strcmp(only, bench_shape_name(rows[i].size.shape)) != 0)
			continue;
		fflush(stdout);
		if (measure(argv[1], argv[2], argv[3], dir, &rows[i]) < 0)
			return 1;
		done[i] = true;
		print_row(&rows[i]);
	}
	if (done[0] && done[1] && done[2] && done[4] && done[5]) {
		per_driver = (rows[2].med[APPLY] - rows[0].med[APPLY]) / (BIG_N - 100) * 1e3;
		per_rule = (rows[4].med[APPLY] - rows[1].med[APPLY]) / (BIG_R - 10) * 1e3;
		predicted = rows[1].med[APPLY] + per_driver * (BIG_N - 1000) / 1e3 +
			    per_rule * (BIG_R - 10) / 1e3;
		printf("\nslopes (mixed): %.2f us per driver (N 100 -> 20,000 at R = 10), "
		       "%.3f us per rule (R 10 -> 10,000 at N = 1,000)\n",
		       per_driver, per_rule);
		printf("linear model at N = 20,000, R = 10,000: %.1f ms predicted, %.1f ms "
		       "measured "
		       "(%.2fx)\n",
		       predicted, rows[5].med[APPLY], rows[5].med[APPLY] / predicted);
		printf("floor slope: %.2f us per driver\n",
		       (rows[2].med[FLOOR] - rows[0].med[FLOOR]) / (BIG_N - 100) * 1e3);
	} else {
		predicted = 0;
	}

	printf("\ntargets at N = 20,000, R = 10,000, every shape (DESIGN.md, issue 32):\n");
#define TARGET(ok, fmt, ...)                                                    \
	do {                                                                    \
		printf("  %-4s " fmt "\n", (ok) ? "met" : "MISS", __VA_ARGS__); \
		fail |= !(ok);                                                  \
	} while (0)
	for (size_t i = 0; i < nrows; i++) {
		const struct row *big = &rows[i];
		const char *shape = bench_shape_name(big->size.shape);
		double ratio = big->med[APPLY] / big->med[FLOOR];
		double audit = big->med[APPLY] / big->med[AUDIT];

		if (!done[i] || big->size.drivers != BIG_N || big->size.rules != BIG_R)
			continue;
		TARGET(audit <= 1.2, "%-10s apply/audit floor %.2fx <= 1.2x", shape, audit);
		TARGET(ratio <= 1.5, "%-10s apply/floor %.2fx <= 1.5x (1.2x: %+.0f%%)", shape,
		       ratio, (ratio / 1.2 - 1) * 100);
		TARGET(big->med[SHELL] >= 30 * big->med[APPLY], "%-10s shell/apply %.1fx >= 30x",
		       shape, big->med[SHELL] / big->med[APPLY]);
		TARGET(big->rss[APPLY] <= 8192, "%-10s peak RSS %ld KiB <= 8192 KiB", shape,
		       big->rss[APPLY]);
		if (big->size.shape == BENCH_MIXED && predicted > 0)
			TARGET(big->med[APPLY] <= 1.25 * predicted,
			       "%-10s linear in N + R: %.2fx of the model <= 1.25x", shape,
			       big->med[APPLY] / predicted);
	}
	return fail;
}
