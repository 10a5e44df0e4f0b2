/* SPDX-License-Identifier: GPL-2.0-only */
/* The benchmark's synthetic machine: a sysroot tree, a policy, the floor's decisions. */
#ifndef DRVFILTER_BENCH_GEN_H
#define DRVFILTER_BENCH_GEN_H

#include <stddef.h>

/* Buses the policy's keys spread over: iniparser caps a value at 1023 bytes. */
#define BENCH_POLICY_BUSES 200

struct bench_size {
	size_t drivers; /* N */
	size_t rules; /* R */
	size_t buses; /* B, at most BENCH_POLICY_BUSES */
	unsigned bound_percent; /* share of drivers with a bound device */
};

/*
 * Under @dir: sys/bus/B/drivers/D/allowed for N drivers on B buses, one
 * device per driver in sys/devices (bound to it for bound_percent of them),
 * /sys/kernel/driver_filter, proc/cmdline, dev/kmsg, run/, and
 * etc/drvfilter.conf with R rules (exact names, globs and ALL, in [allow] and
 * [deny]; default deny, no lock so that every run writes). Then
 * @dir/decisions ("BUS DRIVER 0|1" per line, as libdrvfilter decides: the
 * floor's input).
 * 0, or -errno with a message on stderr.
 */
int bench_generate(const char *dir, const struct bench_size *size);

/* Reset what a run changes: allowed bits, the kernel's lists, the log. */
int bench_reset(const char *dir);

#endif
