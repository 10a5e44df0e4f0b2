/* SPDX-License-Identifier: GPL-2.0-only */
/* The benchmark's synthetic machine: a sysroot tree, a policy, the floor's decisions. */
#ifndef DRVFILTER_BENCH_GEN_H
#define DRVFILTER_BENCH_GEN_H

#include <stddef.h>

/* Buses the policy's keys spread over: iniparser caps a value at 1023 bytes. */
#define BENCH_POLICY_BUSES 200

/*
 * The machine's shape. mixed: one device per driver, half of them bound, a
 * policy whose globs allow most drivers. deny-heavy: devices for one driver
 * in ten, a fifth of them bound, a policy that allows one rule in ten (a
 * few percent of the drivers) and denies the rest, globs included. guest:
 * the main job's guest as recorded (81 drivers, 117 devices, 23 bound, on
 * 26 buses), each bus scaled, and a policy that allows one rule in seven.
 */
enum bench_shape {
	BENCH_MIXED,
	BENCH_DENY_HEAVY,
	BENCH_GUEST,
};

struct bench_size {
	size_t drivers; /* N */
	size_t rules; /* R */
	size_t buses; /* B, at most BENCH_POLICY_BUSES (guest: its own) */
	enum bench_shape shape;
};

const char *bench_shape_name(enum bench_shape shape);

/* What was generated, counted from the decisions. */
struct bench_counts {
	size_t allowed, devices, bound;
};

/*
 * Under @dir: sys/bus/B/drivers/D/allowed for N drivers on the buses, their
 * devices in sys/devices with bus/B/devices links (bound ones linked both
 * ways, as the kernel does), /sys/kernel/driver_filter, proc/cmdline,
 * dev/kmsg, run/, and etc/drvfilter.conf with R rules (exact names, globs and
 * ALL, in [allow] and [deny]; default deny, no lock so that every run
 * writes). Then @dir/decisions ("BUS DRIVER 0|1" per line, as libdrvfilter
 * decides: the floor's input and the check of every run).
 * 0, or -errno with a message on stderr.
 */
int bench_generate(const char *dir, const struct bench_size *size, struct bench_counts *counts);

/* Before a run: every allowed file poisoned ("x"), the log emptied. */
int bench_reset(const char *dir);

/*
 * After a run: every allowed file holds the decision ("0" or "1"). 0, or
 * -EBADMSG naming the first wrong file on stderr.
 */
int bench_verify(const char *dir);

/* After a run: the lines of @dir/dev/kmsg with " detached=", or -errno. */
long bench_detach_lines(const char *dir);

#endif
