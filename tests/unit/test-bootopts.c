// SPDX-License-Identifier: GPL-2.0-only
/*
 * Boot options for any kernel (bootopts.c, initcalls.c): the kallsyms names
 * of init calls, the init-call trace, command lines split as the kernel
 * splits them, module init functions from ELF, and the choice of what
 * initcall_blacklist= and module_blacklist= name on a small tree made here,
 * one rule per module of it. The recorded Debian guest is the fixture tests'.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check/check-private.h"
#include "strv.h"
#include "testutil.h"

static char root[64];

/* @fmt under the tree, made with its parent directories (a trailing '/' makes a directory). */
_printf_(2, 3) static void put(const char *content, const char *fmt, ...)
{
	char rel[256], path[512];
	va_list ap;
	FILE *f;

	va_start(ap, fmt);
	vsnprintf(rel, sizeof(rel), fmt, ap);
	va_end(ap);
	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (char *s = path + strlen(root) + 1; (s = strchr(s, '/')); s++) {
		*s = '\0';
		ck_assert(mkdir(path, 0755) == 0 || errno == EEXIST);
		*s = '/';
	}
	if (!content)
		return;
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(content, f);
	ck_assert_int_eq(fclose(f), 0);
}

static void link_to(const char *target, const char *rel)
{
	char path[512];

	put(NULL, "%s", rel);
	snprintf(path, sizeof(path), "%s/%s", root, rel);
	ck_assert_int_eq(symlink(target, path), 0);
}

static void remove_tree(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	ck_assert_int_eq(system(cmd), 0);
}

/* ---- kallsyms names ---- */

static const struct {
	const char *symbol, *module, *fn, *level;
} initcalls[] = {
	{ "__initcall__kmod_i8042__416_1674_i8042_init6", "i8042", "i8042_init", "6" },
	{ "__initcall__kmod_8250_pci__336_6164_serial_pci_driver_init6", "8250_pci",
	  "serial_pci_driver_init", "6" },
	{ "__initcall__kmod_core__391_2229_init_hw_perf_eventsearly", "core", "init_hw_perf_events",
	  "early" },
	{ "__initcall__kmod_x__1_2_foo_init26", "x", "foo_init2", "6" },
	{ "__initcall__kmod_x__1_2_foo_init6s", "x", "foo_init", "6s" },
	{ "__initcall__kmod_x__1_2_populate_rootfsrootfs", "x", "populate_rootfs", "rootfs" },
	{ "__initcall__kmod_tty_io__1_2_con_initcon", "tty_io", "con_init", "con" },
	/* A module name with "__" in it: the first "__<digits>_<digits>_" ends it. */
	{ "__initcall__kmod_a__b__1_2_f4", "a__b", "f", "4" },
};

START_TEST(test_initcall_parse)
{
	char *module, *fn, level[8];

	ck_assert_int_eq(df_initcall_parse(initcalls[_i].symbol, &module, &fn, level), 0);
	ck_assert_str_eq(module, initcalls[_i].module);
	ck_assert_str_eq(fn, initcalls[_i].fn);
	ck_assert_str_eq(level, initcalls[_i].level);
	free(module);
	free(fn);
}
END_TEST

START_TEST(test_initcall_parse_bad)
{
	static const char *const bad[] = {
		"__initcall_start",
		"__initcall__kmod_x",
		"__initcall__kmod_x__1_2_f", /* no level */
		"__initcall__kmod_x__1_2_f9", /* no level 9 */
		"__initcall__kmod___1_2_f6", /* no module */
		"__initcall__kmod_x-y__1_2_f6", /* not a name for a command line */
		"__initcall__kmod_x__1_2_f,g6", /* nor this */
		"__initcall__kmod_x__1_2_6", /* no function */
	};
	char *module, *fn, level[8];

	for (size_t i = 0; i < ARRAY_SIZE(bad); i++)
		ck_assert_msg(df_initcall_parse(bad[i], &module, &fn, level) == -EINVAL, "%s",
			      bad[i]);
}
END_TEST

START_TEST(test_cmdline_name_ok)
{
	ck_assert(df_cmdline_name_ok("i8042_init"));
	ck_assert(df_cmdline_name_ok("8250_pci"));
	ck_assert(!df_cmdline_name_ok(""));
	ck_assert(!df_cmdline_name_ok("virtio-pci"));
	ck_assert(!df_cmdline_name_ok("a,b"));
	ck_assert(!df_cmdline_name_ok("a b"));
	ck_assert(!df_cmdline_name_ok("a\"b"));
	ck_assert(!df_cmdline_name_ok("a;reboot"));
}
END_TEST

/* ---- the trace ---- */

START_TEST(test_trace_parse)
{
	char buf[] = "6,0,0,-;Linux version 6.1.0\n"
		     "7,1,10,-;bus: 'platform': registered\n"
		     "7,2,11,-;calling  i8042_init+0x0/0x618 @ 1\n"
		     "7,3,12,-;bus: 'pnp': add driver i8042 kbd\n"
		     " SUBSYSTEM=pnp\n"
		     "7,4,13,-;bus: 'platform': add driver i8042\n"
		     "7,5,14,-;initcall i8042_init+0x0/0x618 returned 0 after 9018 usecs\n"
		     "7,6,15,-;bus: 'pci': add driver stray\n"
		     "7,7,16,-;calling  usb_init+0x0/0x1a @ 1\n"
		     "7,8,17,-;bus: 'usb': registered\n"
		     "7,9,18,-;device class 'usbmisc': registering\n"
		     "7,10,19,-;initcall usb_init+0x0/0x1a returned 0 after 1 usecs\n"
		     "7,11,20,-;calling  e1000_init_module+0x0/0x1000 [e1000] @ 300\n"
		     "7,12,21,-;bus: 'pci': add driver e1000\n"
		     "7,13,22,-;initcall e1000_init_module+0x0/0x1000 [e1000] returned 0\n"
		     "7,14,23,-;calling  twice_init+0x0/0x10 @ 1\n"
		     "7,15,24,-;calling  twice_init+0x0/0x10 @ 1\n"
		     "not a record\n";
	struct df_trace t;
	const struct df_trace_call *c;

	ck_assert_int_eq(df_trace_parse(&t, buf), 0);
	ck_assert(t.from_start);
	ck_assert_uint_eq(t.records, 16);
	ck_assert_uint_eq(t.ncalls_seen, 4);
	ck_assert_uint_eq(t.registrations, 4);
	c = strmap_get(&t.by_fn, "i8042_init");
	ck_assert_ptr_nonnull(c);
	ck_assert(c->returned);
	ck_assert_uint_eq(c->drivers.n, 2);
	ck_assert_str_eq(c->drivers.v[0], "pnp:i8042 kbd");
	ck_assert_str_eq(c->drivers.v[1], "platform:i8042");
	c = strmap_get(&t.by_fn, "usb_init");
	ck_assert_uint_eq(c->drivers.n, 0);
	ck_assert_str_eq(c->buses.v[0], "usb");
	ck_assert_str_eq(c->classes.v[0], "usbmisc");
	/* A module's init is not a built-in init call: nothing is tied to it. */
	ck_assert_ptr_null(strmap_get(&t.by_fn, "e1000_init_module"));
	ck_assert(((struct df_trace_call *)strmap_get(&t.by_fn, "twice_init"))->ambiguous);
	df_trace_release(&t);
}
END_TEST

START_TEST(test_trace_cut)
{
	char buf[] = "7,5000,0,-;calling  i8042_init+0x0/0x618 @ 1\n";
	struct df_trace t;

	ck_assert_int_eq(df_trace_parse(&t, buf), 0);
	ck_assert(!t.from_start);
	df_trace_release(&t);
}
END_TEST

/* ---- command lines ---- */

START_TEST(test_cmdline_opts)
{
	struct df_cmdline_opts o;

	ck_assert_int_eq(
		df_cmdline_opts_parse(
			"BOOT_IMAGE=/vmlinuz initcall_blacklist=a,b module_blacklist=x "
			"\"initcall_blacklist=c\" module_blacklist=\"y,z\" "
			"initcall_blacklist=bad-name,d "
			"filter_allow_drivers=\"pnp:i8042 kbd,serial;pci:virtio-pci\" quiet -- "
			"module_blacklist=q initcall_blacklist=e",
			&o),
		0);
	ck_assert_uint_eq(o.ninitcalls, 4);
	ck_assert_str_eq(o.initcalls[0], "a");
	ck_assert_str_eq(o.initcalls[2], "c");
	ck_assert_str_eq(o.initcalls[3], "d");
	/* The kernel keeps only the last module_blacklist=; after "--" it is init's. */
	ck_assert_uint_eq(o.nmodules, 2);
	ck_assert_str_eq(o.modules[0], "y");
	ck_assert_str_eq(o.modules[1], "z");
	ck_assert_str_eq(o.filter_allow, "pnp:i8042 kbd,serial;pci:virtio-pci");
	ck_assert_ptr_null(o.filter_deny);
	ck_assert(df_cmdline_opts_has(o.initcalls, o.ninitcalls, "b"));
	ck_assert(!df_cmdline_opts_has(o.initcalls, o.ninitcalls, "e"));
	df_cmdline_opts_release(&o);
}
END_TEST

/* The kernel's parameq(): '-' and '_' are the same in a parameter's name. */
START_TEST(test_cmdline_opts_dashes)
{
	struct df_cmdline_opts o;

	ck_assert_int_eq(df_cmdline_opts_parse(
				 "module_blacklist=e1000,pcnet32 initcall-blacklist=i8042_init "
				 "module-blacklist=floppy filter-deny-drivers=pci:e1000 "
				 "-- module_blacklist=q",
				 &o),
			 0);
	/* The later module-blacklist= is the one the kernel keeps. */
	ck_assert_uint_eq(o.nmodules, 1);
	ck_assert_str_eq(o.modules[0], "floppy");
	ck_assert_uint_eq(o.ninitcalls, 1);
	ck_assert_str_eq(o.initcalls[0], "i8042_init");
	ck_assert_str_eq(o.filter_deny, "pci:e1000");
	df_cmdline_opts_release(&o);
}
END_TEST

/* ---- module init functions ---- */

START_TEST(test_module_init_names)
{
	char dir[] = "/tmp/drvfilter-elf-XXXXXX", src[64], obj[64], path[64], cmd[256];
	struct strv names = STRV_INIT;
	FILE *f;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(src, sizeof(src), "%s/m.c", dir);
	snprintf(obj, sizeof(obj), "%s/m.ko", dir);
	f = fopen(src, "w");
	ck_assert_ptr_nonnull(f);
	/* What module_init(foo_init) makes: init_module an alias of the function. */
	fputs("static int helper(void) { return 1; }\n"
	      "static int foo_init(void) { return helper() - 1; }\n"
	      "int init_module(void) __attribute__((alias(\"foo_init\")));\n",
	      f);
	ck_assert_int_eq(fclose(f), 0);
	snprintf(cmd, sizeof(cmd), "${CC:-cc} -c -fno-sanitize=all -o %s %s", obj, src);
	ck_assert_int_eq(system(cmd), 0);
	ck_assert_int_eq(df_module_init_names(obj, &names), 0);
	ck_assert_uint_eq(names.n, 1);
	ck_assert_str_eq(names.v[0], "foo_init");
	strv_release(&names);
	/* An xz-compressed module (Debian's 6.12 kernels) is decoded first. */
	snprintf(cmd, sizeof(cmd), "xz --check=crc32 -k %s", obj);
	ck_assert_int_eq(system(cmd), 0);
	snprintf(path, sizeof(path), "%s/m.ko.xz", dir);
	ck_assert_int_eq(df_module_init_names(path, &names), 0);
	ck_assert_uint_eq(names.n, 1);
	ck_assert_str_eq(names.v[0], "foo_init");
	strv_release(&names);
	/* One cut short, or not xz past its magic, is not a module. */
	snprintf(cmd, sizeof(cmd), "truncate -s 100 %s", path);
	ck_assert_int_eq(system(cmd), 0);
	ck_assert_int_eq(df_module_init_names(path, &names), -EBADMSG);
	f = fopen(obj, "w");
	fputs("\xfd"
	      "7zXZ",
	      f);
	fputc('\0', f);
	fputs("garbage", f);
	fclose(f);
	ck_assert_int_eq(df_module_init_names(obj, &names), -EBADMSG);
	ck_assert_uint_eq(names.n, 0);
	/* Other compressions (zstd, gzip) are not read: they are not ELF. */
	f = fopen(obj, "w");
	fputs("\x28\xb5\x2f\xfd", f);
	fclose(f);
	ck_assert_int_eq(df_module_init_names(obj, &names), -EPROTONOSUPPORT);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	ck_assert_int_eq(system(cmd), 0);
}
END_TEST

/* ---- what the options name: one rule per module of a small tree ---- */

static const char kallsyms[] =
	"0000000000000000 d __initcall__kmod_i8042__416_1674_i8042_init6\n"
	"0000000000000000 d __initcall__kmod_8250__300_1200_serial8250_init6\n"
	"0000000000000000 d __initcall__kmod_8250_pci__336_6164_serial_pci_driver_init6\n"
	"0000000000000000 d __initcall__kmod_usbcore__10_20_usb_init4\n"
	"0000000000000000 d __initcall__kmod_busy__1_2_busy_init6\n"
	"0000000000000000 d __initcall__kmod_classy__1_2_classy_init6\n"
	"0000000000000000 d __initcall__kmod_twin_a__1_2_twin_init6\n"
	"0000000000000000 d __initcall__kmod_twin_b__3_4_twin_init6\n"
	"0000000000000000 d __initcall__kmod_alarmtimer__1_2_alarmtimer_init6\n"
	"0000000000000000 d __initcall__kmod_processor__1_2_acpi_processor_driver_init6\n"
	"0000000000000000 d __initcall__kmod_collide__1_2_dup_init6\n"
	"0000000000000000 d __initcall__kmod_quiet__1_2_quiet_init6\n"
	"0000000000000000 d __initcall__kmod_bad\n";

/* A call registering @what (each "bus:driver", "bus:B" for a bus, "class:C"). */
static void trace_call(FILE *f, int *seq, const char *fn, const char *what)
{
	char copy[256], *save = NULL;

	fprintf(f, "7,%d,0,-;calling  %s+0x0/0x10 @ 1\n", (*seq)++, fn);
	snprintf(copy, sizeof(copy), "%s", what);
	for (char *w = strtok_r(copy, "|", &save); w; w = strtok_r(NULL, "|", &save)) {
		char *colon = strchr(w, ':');

		*colon++ = '\0';
		if (streq(w, "bus"))
			fprintf(f, "7,%d,0,-;bus: '%s': registered\n", (*seq)++, colon);
		else if (streq(w, "class"))
			fprintf(f, "7,%d,0,-;device class '%s': registering\n", (*seq)++, colon);
		else
			fprintf(f, "7,%d,0,-;bus: '%s': add driver %s\n", (*seq)++, w, colon);
	}
	fprintf(f, "7,%d,0,-;initcall %s+0x0/0x10 returned 0 after 1 usecs\n", (*seq)++, fn);
}

static void driver(const char *bus, const char *name, const char *device, const char *devpath)
{
	char rel[256], target[256];

	put("", "sys/bus/%s/drivers/%s/uevent", bus, name);
	if (!device)
		return;
	put(NULL, "sys/devices/%s/", devpath);
	snprintf(rel, sizeof(rel), "sys/bus/%s/devices/%s", bus, device);
	snprintf(target, sizeof(target), "../../../devices/%s", devpath);
	link_to(target, rel);
	snprintf(rel, sizeof(rel), "sys/bus/%s/drivers/%s/%s", bus, name, device);
	snprintf(target, sizeof(target), "../../../../devices/%s", devpath);
	link_to(target, rel);
}

static void make_tree(void)
{
	char path[512];
	int seq = 0;
	FILE *f;

	snprintf(root, sizeof(root), "/tmp/drvfilter-bootopts-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(root));
	put("6.1.0-test\n", "proc/sys/kernel/osrelease");
	put("console=ttyS0 initcall_blacklist=old drvfilter=off root=/dev/vda\n", "proc/cmdline");
	put(kallsyms, "proc/kallsyms");
	put(NULL, "dev/");
	snprintf(path, sizeof(path), "%s/dev/kmsg", root);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fprintf(f, "6,%d,0,-;Linux version 6.1.0-test\n", seq++);
	trace_call(f, &seq, "i8042_init", "pnp:i8042 kbd|platform:i8042");
	trace_call(f, &seq, "serial8250_init", "pnp:serial|platform:serial8250");
	trace_call(f, &seq, "serial_pci_driver_init", "pci:serial");
	trace_call(f, &seq, "usb_init", "bus:usb|usb:usb");
	trace_call(f, &seq, "busy_init", "bus:busy|platform:busydrv");
	trace_call(f, &seq, "classy_init", "class:classy|platform:classydrv");
	trace_call(f, &seq, "twin_init", "platform:twindrv");
	trace_call(f, &seq, "twin_init", "");
	trace_call(f, &seq, "alarmtimer_init", "platform:alarmtimer");
	trace_call(f, &seq, "acpi_processor_driver_init", "cpu:processor");
	trace_call(f, &seq, "dup_init", "pci:dupdrv");
	trace_call(f, &seq, "quiet_init", "");
	ck_assert_int_eq(fclose(f), 0);
	/* i8042's pnp driver drives a device the host offers; alarmtimer one the kernel makes. */
	driver("pnp", "i8042 kbd", "00:00", "pnp0/00:00");
	driver("platform", "i8042", "i8042", "platform/i8042");
	driver("pnp", "serial", "00:03", "pnp0/00:03");
	driver("platform", "serial8250", "serial8250", "platform/serial8250");
	driver("pci", "serial", NULL, NULL);
	driver("pci", "dupdrv", NULL, NULL);
	driver("usb", "usb", NULL, NULL);
	driver("platform", "busydrv", NULL, NULL);
	driver("platform", "classydrv", NULL, NULL);
	driver("platform", "twindrv", NULL, NULL);
	driver("platform", "alarmtimer", "alarmtimer.0.auto", "platform/alarmtimer.0.auto");
	driver("cpu", "processor", "cpu0", "system/cpu/cpu0");
	driver("platform", "orphan", NULL, NULL);
	/* A loadable module whose init function is dup_init, and one whose file is missing. */
	put("", "lib/modules/6.1.0-test/modules.alias");
	put("kernel/foo.ko:\n", "lib/modules/6.1.0-test/modules.dep");
	put("foo dup_init\n", "lib/modules/6.1.0-test/modules.initfn");
}

static const char tree_policy[] = "[filter]\ndefault = deny\n[allow]\nplatform = serial8250\n";

static const struct df_uncovered *uncovered(const struct df_bootopts *b, const char *subject)
{
	for (size_t i = 0; i < b->nuncovered; i++)
		if (streq(b->uncovered[i].subject, subject))
			return &b->uncovered[i];
	return NULL;
}

#define ck_assert_uncovered(b, subject, why)                                                       \
	do {                                                                                       \
		const struct df_uncovered *_u = uncovered(b, subject);                             \
		ck_assert_msg(_u, "%s is not listed as not coverable", subject);                   \
		ck_assert_msg(strstr(_u->reason, why), "%s: '%s' lacks '%s'", subject, _u->reason, \
			      why);                                                                \
	} while (0)

START_TEST(test_selection)
{
	struct df_policy *p = tu_load_ok(tree_policy);
	struct df_bootopts *b;
	struct df_ctx *ctx;

	make_tree();
	ck_assert_int_eq(df_ctx_new(root, &ctx), 0);
	ck_assert_int_eq(df_bootopts_compute(ctx, p, NULL, NULL, 0, &b), 0);
	ck_assert(b->trace);
	ck_assert(!b->filter); /* a tree with /sys and no driver filter: a stock kernel */
	/* The options this tree's own ones aside: "old" and drvfilter=off are not the rest. */
	ck_assert_str_eq(b->rest, "console=ttyS0 root=/dev/vda");
	/* What the rest leaves, less the tenth kept free for options added later. */
	ck_assert_uint_eq(b->max_bytes, 2047 - DF_KERNEL_CMDLINE_HEADROOM -
						strlen("console=ttyS0 root=/dev/vda") - 1);
	ck_assert_uint_eq(b->headroom, DF_KERNEL_CMDLINE_HEADROOM);
	/* That boot skipped "old" itself: what it skipped is not in its trace, and said so. */
	ck_assert_uint_eq(b->trace_skipped, 1);
	/* Bound to a device the host offers first, then by bus: host's, then the others. */
	ck_assert_uint_eq(b->nentries, 3);
	ck_assert_str_eq(b->entries[0].name, "i8042_init");
	ck_assert_int_eq(b->entries[0].tier, DF_TIER_BOUND);
	ck_assert_uint_eq(b->entries[0].ndrivers, 2);
	ck_assert_str_eq(b->entries[1].name, "serial_pci_driver_init");
	ck_assert_int_eq(b->entries[1].tier, DF_TIER_HOST_BUS);
	ck_assert_str_eq(b->entries[2].name, "acpi_processor_driver_init");
	ck_assert_int_eq(b->entries[2].tier, DF_TIER_OTHER_BUS);
	ck_assert_str_eq(b->line, "initcall_blacklist=i8042_init,serial_pci_driver_init,"
				  "acpi_processor_driver_init");
	ck_assert_uncovered(b, "pnp:serial",
			    "also registers the allowed driver platform:serial8250");
	ck_assert_uncovered(b, "usb:usb", "at init level 4");
	ck_assert_uncovered(b, "platform:busydrv", "registers the bus busy");
	ck_assert_uncovered(b, "platform:classydrv", "registers the device class classy");
	ck_assert_uncovered(b, "platform:twindrv", "another init call is named twin_init");
	ck_assert_uncovered(b, "platform:alarmtimer", "devices the kernel creates itself");
	ck_assert_uncovered(b, "pci:dupdrv", "the loadable module foo is named dup_init");
	ck_assert_uncovered(b, "platform:orphan", "no built-in init call of the trace");
	/* Allowed drivers are never listed; a call that registered nothing is not a driver's. */
	ck_assert_ptr_null(uncovered(b, "platform:serial8250"));
	ck_assert_str_eq(df_bootopts_initcall_module(b, "quiet_init"), "quiet");
	df_bootopts_free(b);
	df_ctx_unref(ctx);
	df_policy_free(p);
	remove_tree();
}
END_TEST

/* Strictly in rank order: after the first option that does not fit, none. */
START_TEST(test_budget)
{
	struct df_policy *p = tu_load_ok(tree_policy);
	struct df_bootopts *b;
	struct df_ctx *ctx;

	make_tree();
	ck_assert_int_eq(df_ctx_new(root, &ctx), 0);
	ck_assert_int_eq(df_bootopts_compute(ctx, p, NULL, NULL, 70, &b), 0);
	ck_assert_str_eq(b->line, "initcall_blacklist=i8042_init,serial_pci_driver_init");
	ck_assert(b->entries[0].fits && b->entries[1].fits && !b->entries[2].fits);
	ck_assert_uint_eq(b->left[DF_TIER_OTHER_BUS], 1);
	df_bootopts_free(b);
	ck_assert_int_eq(df_bootopts_compute(ctx, p, NULL, NULL, 10, &b), 0);
	ck_assert_str_eq(b->line, "");
	df_bootopts_free(b);
	df_ctx_unref(ctx);
	df_policy_free(p);
	remove_tree();
}
END_TEST

/* No trace: no init call is named, and every denied built-in says why. */
START_TEST(test_no_trace)
{
	struct df_policy *p = tu_load_ok(tree_policy);
	struct df_bootopts *b;
	struct df_ctx *ctx;

	make_tree();
	put("6,0,0,-;Linux version 6.1.0-test\n", "dev/kmsg");
	ck_assert_int_eq(df_ctx_new(root, &ctx), 0);
	ck_assert_int_eq(df_bootopts_compute(ctx, p, NULL, NULL, 0, &b), 0);
	ck_assert(!b->trace);
	ck_assert_uint_eq(b->nentries, 0);
	ck_assert_uncovered(b, "pnp:i8042 kbd", "no init-call trace");
	ck_assert_uncovered(b, "platform:orphan", "no init-call trace");
	df_bootopts_free(b);
	df_ctx_unref(ctx);
	df_policy_free(p);
	remove_tree();
}
END_TEST

/* A module file that cannot be read may share a name: nothing is named then. */
START_TEST(test_unreadable_module)
{
	struct df_policy *p = tu_load_ok(tree_policy);
	char path[512];
	struct df_bootopts *b;
	struct df_ctx *ctx;

	make_tree();
	put("kernel/foo.ko:\nkernel/bar.ko.xz:\n", "lib/modules/6.1.0-test/modules.dep");
	snprintf(path, sizeof(path), "%s/lib/modules/6.1.0-test/modules.initfn", root);
	ck_assert_int_eq(unlink(path), 0);
	ck_assert_int_eq(df_ctx_new(root, &ctx), 0);
	ck_assert_int_eq(df_bootopts_compute(ctx, p, NULL, NULL, 0, &b), 0);
	ck_assert_uint_eq(b->unreadable, 2);
	ck_assert_uint_eq(b->nentries, 0);
	ck_assert_uncovered(b, "pnp:i8042 kbd", "2 module files could not be read");
	df_bootopts_free(b);
	/* A recording's index says which module's init function it could not read. */
	put("kernel/foo.ko:\n", "lib/modules/6.1.0-test/modules.dep");
	put("foo -\n", "lib/modules/6.1.0-test/modules.initfn");
	ck_assert_int_eq(df_bootopts_compute(ctx, p, NULL, NULL, 0, &b), 0);
	ck_assert_uint_eq(b->unreadable, 1);
	ck_assert_uint_eq(b->nentries, 0);
	df_bootopts_free(b);
	df_ctx_unref(ctx);
	df_policy_free(p);
	remove_tree();
}
END_TEST

/*
 * modules.alias as depmod writes it, read into the blacklist: each alias's
 * bus is its own line's prefix, whatever the spacing and however long the
 * line (one past getline's first 120 bytes moves its buffer). A bus taken
 * from an earlier line read virtio_blk as bus "irtio" and blacklisted it.
 */
START_TEST(test_alias_buses)
{
	struct df_policy *p = tu_load_ok("[filter]\ndefault = deny\n"
					 "[allow]\nvirtio = virtio_net, virtio_blk, virtio_rng\n"
					 "pci = e1000e\n");
	char alias[4096] = "", pad[200];
	struct df_modules *m;
	struct df_ctx *ctx;
	char **mods = NULL;
	size_t n = 0;

	memset(pad, 'f', sizeof(pad) - 1);
	pad[sizeof(pad) - 1] = '\0';
	snprintf(alias, sizeof(alias),
		 "# Aliases extracted from modules themselves.\n"
		 "alias pci:v00008086d0000100Esv*sd*bc*sc*i* e1000\n"
		 "alias  pci:v00008086d000010D3sv*sd*bc*sc*i* e1000e\n"
		 "alias  virtio:d00000001v* virtio_net\n"
		 "alias virtio:d00000002v* virtio_blk\n"
		 "alias virtio:d00000004v%s* virtio_rng\n"
		 "alias\tvirtio:d00000005v* virtio_balloon\n"
		 "alias virtio:d00000006v* virtio_rng\n",
		 pad);
	snprintf(root, sizeof(root), "/tmp/drvfilter-bootopts-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(root));
	put("6.1.0-test\n", "proc/sys/kernel/osrelease");
	put(alias, "lib/modules/6.1.0-test/modules.alias");
	put("", "lib/modules/6.1.0-test/modules.dep");
	ck_assert_int_eq(df_ctx_new(root, &ctx), 0);
	ck_assert_int_eq(df_modules_open(ctx, &m), 0);
	ck_assert_int_eq(df_modules_blacklist(m, p, &mods, &n), 0);
	ck_assert_uint_eq(n, 2);
	ck_assert_str_eq(mods[0], "e1000");
	ck_assert_str_eq(mods[1], "virtio_balloon");
	strv_free_array(mods, n);
	df_modules_free(m);
	df_ctx_unref(ctx);
	df_policy_free(p);
	remove_tree();
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("bootopts");
	TCase *tc = tcase_create("bootopts");

	tcase_add_loop_test(tc, test_initcall_parse, 0, ARRAY_SIZE(initcalls));
	tcase_add_test(tc, test_initcall_parse_bad);
	tcase_add_test(tc, test_cmdline_name_ok);
	tcase_add_test(tc, test_trace_parse);
	tcase_add_test(tc, test_trace_cut);
	tcase_add_test(tc, test_cmdline_opts);
	tcase_add_test(tc, test_cmdline_opts_dashes);
	tcase_add_test(tc, test_module_init_names);
	tcase_add_test(tc, test_selection);
	tcase_add_test(tc, test_budget);
	tcase_add_test(tc, test_no_trace);
	tcase_add_test(tc, test_unreadable_module);
	tcase_add_test(tc, test_alias_buses);
	tcase_set_timeout(tc, 30);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_run(suite());
}
