// SPDX-License-Identifier: GPL-2.0-only
/*
 * drvfilterctl watch: follow drivers that register and devices that bind,
 * each on one line with the policy's decision. udev's events when udevd runs,
 * the kernel's otherwise.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libudev.h>

#include "ctl.h"
#include "log.h"
#include "macro.h"
#include "strbuf.h"

static long arg_events;

static void print_event(const struct df_policy *p, struct udev_device *dev)
{
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT, c = STRBUF_INIT;
	_cleanup_free_ char *rule = NULL;
	struct df_device_id id;
	struct df_uevent ev;
	struct df_verdict v;

	if (df_uevent_parse(udev_device_get_action(dev), udev_device_get_subsystem(dev),
			    udev_device_get_devpath(dev), udev_device_get_driver(dev), &ev) < 0)
		return;
	if (ev.kind != DF_UEVENT_DRIVER_ADD && ev.kind != DF_UEVENT_BIND)
		return;
	/* The udev handler's decision, device rules included: what it then does. */
	df_uevent_decide(ctl_ctx, p, &ev, &v, &id);
	rule = df_rule_describe(v.rule);
	(void)strbuf_append_escaped(&a, ev.bus);
	(void)strbuf_append_escaped(&b, ev.driver);
	if (ev.kind == DF_UEVENT_DRIVER_ADD) {
		printf("driver %s %s: %s by %s\n", strbuf_str(&a), strbuf_str(&b),
		       v.allowed ? "allowed" : "denied", rule ? rule : "?");
	} else if (!v.allowed && v.restricted) {
		(void)strbuf_append_escaped(&c, ev.device);
		printf("bind %s %s to %s: refused: no device rule of the driver matches %s (such "
		       "as %s) (a violation until it is unbound)\n",
		       strbuf_str(&a), strbuf_str(&c), strbuf_str(&b),
		       id.n ? id.ids[0] : "it (its IDs cannot be read)", rule ? rule : "?");
	} else {
		(void)strbuf_append_escaped(&c, ev.device);
		printf("bind %s %s to %s: %s by %s%s\n", strbuf_str(&a), strbuf_str(&c),
		       strbuf_str(&b), v.allowed ? "allowed" : "denied", rule ? rule : "?",
		       v.allowed ? "" : " (a violation until it is unbound)");
	}
	fflush(stdout);
	strbuf_release(&a);
	strbuf_release(&b);
	strbuf_release(&c);
}

static int run(int argc, char **argv)
{
	struct df_policy *p = NULL;
	struct udev *udev = NULL;
	struct udev_monitor *mon = NULL;
	const char *source;
	long seen = 0;
	int ret;

	ret = ctl_load_policy(&p);
	if (ret != EXIT_FINE)
		return ret;
	udev = udev_new();
	/* udevd's events carry its work; without udevd, the kernel's are all there is. */
	source = access("/run/udev/control", F_OK) == 0 ? "udev" : "kernel";
	mon = udev ? udev_monitor_new_from_netlink(udev, source) : NULL;
	if (!mon || udev_monitor_enable_receiving(mon) < 0) {
		log_error("cannot listen to %s events: %m", source);
		ret = EXIT_ERROR;
		goto out;
	}
	log_info("watching %s events for drivers and binds; ^C ends", source);
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

enum {
	ARG_EVENTS = CTL_ARG_VERB,
};

static const struct option options[] = {
	{ "events", required_argument, NULL, ARG_EVENTS },
	{},
};

static int parse(int opt, const char *arg)
{
	char *end;

	errno = 0;
	arg_events = strtol(arg, &end, 10);
	if (errno || *end || end == arg || arg_events < 1)
		return ctl_usage_error("--events needs a positive number");
	return EXIT_FINE;
}

static const char help[] = "      --events N         stop after N events\n";

const struct ctl_verb ctl_verb_watch = {
	.name = "watch",
	.summary = "follow driver and bind events with their decisions",
	.common = CTL_POLICY,
	.options = options,
	.parse = parse,
	.help = help,
	.run = run,
};
