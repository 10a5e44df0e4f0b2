// SPDX-License-Identifier: GPL-2.0-only
/*
 * drvfilterctl watch: follow drivers that register and devices that bind,
 * each on one line with the policy's decision. udev's events when udevd runs,
 * the kernel's otherwise.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <libudev.h>

#include "ctl.h"
#include "macro.h"
#include "strbuf.h"

static void print_event(const struct df_policy *p, struct udev_device *dev)
{
	const char *action = udev_device_get_action(dev);
	const char *subsystem = udev_device_get_subsystem(dev);
	const char *sysname = udev_device_get_sysname(dev);
	const char *driver = udev_device_get_driver(dev);
	const char *devpath = udev_device_get_devpath(dev);
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT, c = STRBUF_INIT;
	char bus[DF_NAME_MAX + 1];
	_cleanup_free_ char *rule = NULL;
	struct df_verdict v;

	if (!action || !subsystem || !sysname || !devpath)
		return;
	if (streq(action, "add") && streq(subsystem, "drivers")) {
		/* DEVPATH=/bus/B/drivers/D */
		const char *s = devpath + strlen("/bus/"), *e = strchr(s, '/');

		if (strncmp(devpath, "/bus/", 5) != 0 || !e || (size_t)(e - s) > DF_NAME_MAX)
			return;
		snprintf(bus, sizeof(bus), "%.*s", (int)(e - s), s);
		df_policy_decide(p, bus, sysname, &v);
		rule = df_rule_describe(v.rule);
		(void)strbuf_append_escaped(&a, bus);
		(void)strbuf_append_escaped(&b, sysname);
		printf("driver %s %s: %s by %s\n", strbuf_str(&a), strbuf_str(&b),
		       v.allowed ? "allowed" : "denied", rule ? rule : "?");
	} else if (streq(action, "bind") && driver) {
		df_policy_decide(p, subsystem, driver, &v);
		rule = df_rule_describe(v.rule);
		(void)strbuf_append_escaped(&a, subsystem);
		(void)strbuf_append_escaped(&b, sysname);
		(void)strbuf_append_escaped(&c, driver);
		printf("bind %s %s to %s: %s by %s%s\n", strbuf_str(&a), strbuf_str(&b),
		       strbuf_str(&c), v.allowed ? "allowed" : "denied", rule ? rule : "?",
		       v.allowed ? "" : " (a violation until it is unbound)");
	} else {
		goto out;
	}
	fflush(stdout);
out:
	strbuf_release(&a);
	strbuf_release(&b);
	strbuf_release(&c);
}

int verb_watch(int argc, char **argv)
{
	struct df_policy *p = NULL;
	struct udev *udev = NULL;
	struct udev_monitor *mon = NULL;
	const char *source;
	long seen = 0;
	int ret;

	if (arg_sysroot) {
		fprintf(stderr, "drvfilterctl: watch follows the running system; --sysroot "
				"cannot be used with it\n");
		return EXIT_USAGE;
	}
	ret = ctl_load_policy(&p);
	if (ret != EXIT_FINE)
		return ret;
	udev = udev_new();
	/* udevd's events carry its work; without udevd, the kernel's are all there is. */
	source = access("/run/udev/control", F_OK) == 0 ? "udev" : "kernel";
	mon = udev ? udev_monitor_new_from_netlink(udev, source) : NULL;
	if (!mon || udev_monitor_enable_receiving(mon) < 0) {
		fprintf(stderr, "drvfilterctl: cannot listen to %s events: %s\n", source,
			strerror(errno));
		ret = EXIT_ERROR;
		goto out;
	}
	fprintf(stderr, "drvfilterctl: watching %s events for drivers and binds; ^C ends\n",
		source);
	while (arg_events <= 0 || seen < arg_events) {
		struct pollfd pfd = { udev_monitor_get_fd(mon), POLLIN, 0 };
		struct udev_device *dev;
		const char *action;

		if (poll(&pfd, 1, -1) < 0) {
			if (errno == EINTR)
				continue;
			ret = EXIT_ERROR;
			break;
		}
		dev = udev_monitor_receive_device(mon);
		if (!dev)
			continue;
		action = udev_device_get_action(dev);
		if (action && (streq(action, "bind") ||
			       (streq(action, "add") &&
				streq(udev_device_get_subsystem(dev) ?: "", "drivers")))) {
			print_event(p, dev);
			seen++;
		}
		udev_device_unref(dev);
	}
out:
	udev_monitor_unref(mon);
	udev_unref(udev);
	df_policy_free(p);
	return ret;
}
