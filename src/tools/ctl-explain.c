// SPDX-License-Identifier: GPL-2.0-only
/*
 * drvfilterctl explain BUS:DRIVER[@ID]... | DEVICE-PATH...: the decision for
 * each driver (or driver and device), and the rule behind it.
 */
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ctl.h"
#include "log.h"
#include "macro.h"
#include "strbuf.h"

static void json_rule(struct json *j, const struct df_rule *r)
{
	static const char *const sections[] = { "allow", "deny", "filter" };

	json_object_begin(j);
	json_field_string(j, "section", sections[r->section]);
	json_field_string(j, "key", r->key);
	json_field_string(j, "value", r->name);
	json_key(j, "line");
	if (r->line)
		json_int(j, r->line);
	else
		json_string(j, NULL);
	json_field_string(j, "file", r->line ? r->file : NULL);
	json_object_end(j);
}

/* One thing to explain: a driver, maybe with a device (by ID, or by its sysfs directory). */
struct subject {
	const char *bus, *driver;
	char busbuf[DF_NAME_MAX + 1], drvbuf[DF_NAME_MAX + 1], devname[DF_NAME_MAX + 1];
	const char *device; /* what is printed after '@': the ID given, or the device's name */
	struct df_device_id id;
	bool has_device;
};

/* The last component of @s into @buf (DF_NAME_MAX + 1 bytes); false when it is longer. */
static bool last_name(char *buf, const char *s)
{
	const char *base = strrchr(s, '/') ? strrchr(s, '/') + 1 : s;

	if (strlen(base) > DF_NAME_MAX)
		return false;
	strcpy(buf, base);
	return true;
}

/* A device's directory (/sys/bus/B/devices/D or /sys/devices/...): its bus, driver and IDs. */
static int parse_device_path(const char *arg, struct subject *s)
{
	_cleanup_free_ char *path = df_ctx_path(ctl_ctx, arg);
	_cleanup_close_ int fd = -1;
	struct strbuf sb = STRBUF_INIT;
	char target[PATH_MAX];
	ssize_t n;
	int r = 0;

	if (!path)
		return ctl_oom();
	fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	n = fd < 0 ? -1 : readlinkat(fd, "subsystem", target, sizeof(target) - 1);
	if (n < 0) {
		(void)strbuf_append_escaped(&sb, arg);
		r = ctl_usage_error("'%s' is not a device's directory in sysfs", strbuf_str(&sb));
		strbuf_release(&sb);
		return r;
	}
	target[n] = '\0';
	if (!last_name(s->busbuf, target) || !last_name(s->devname, arg))
		return ctl_usage_error("the device's names are too long");
	s->bus = s->busbuf;
	s->device = s->devname;
	s->has_device = true;
	n = readlinkat(fd, "driver", target, sizeof(target) - 1);
	if (n >= 0) {
		target[n] = '\0';
		if (!last_name(s->drvbuf, target))
			return ctl_usage_error("the device's driver name is too long");
		s->driver = s->drvbuf;
	}
	if (df_sysfs_name_check(s->bus) < 0 || df_sysfs_name_check(s->device) < 0 ||
	    (s->driver && df_sysfs_name_check(s->driver) < 0))
		return ctl_usage_error("the device's names are not safe to use");
	(void)df_device_id_read(ctl_ctx, s->bus, s->device, &s->id);
	return 0;
}

/* BUS:DRIVER, BUS:DRIVER@ID (the ID of a device, as device rules write them) or a sysfs path. */
static int parse_arg(char *arg, struct subject *s)
{
	char *at;
	const char *why;
	int r;

	*s = (struct subject){ 0 };
	if (arg[0] == '/')
		return parse_device_path(arg, s);
	at = strchr(arg, ':') ? strchr(strchr(arg, ':'), '@') : NULL;
	if (at)
		*at++ = '\0';
	r = ctl_parse_subject(arg, &s->bus, &s->driver);
	if (r || !at)
		return r;
	if (strpbrk(at, "*?") || df_device_pattern_check(s->bus, at, &why) < 0) {
		struct strbuf sb = STRBUF_INIT;

		(void)strbuf_append_escaped(&sb, at);
		r = ctl_usage_error("'%s' is not a device ID of bus %s (no glob): it %s",
				    strbuf_str(&sb), s->bus,
				    strpbrk(at, "*?") ? "is a pattern" : why);
		strbuf_release(&sb);
		return r;
	}
	s->device = at;
	s->has_device = true;
	s->id = (struct df_device_id){ .bus = s->bus, .n = 1 };
	snprintf(s->id.ids[0], sizeof(s->id.ids[0]), "%s", at);
	return 0;
}

static int run(int argc, char **argv)
{
	struct subject subjects[argc];
	struct df_policy *p = NULL;
	struct json j;
	int r;

	/* Every argument is checked before anything is printed. */
	for (int i = 1; i < argc; i++) {
		r = parse_arg(argv[i], &subjects[i]);
		if (r)
			return r;
	}
	r = ctl_load_policy(&p);
	if (r)
		return r;
	if (arg_json) {
		ctl_json_init(&j);
		json_array_begin(&j);
	}
	for (int i = 1; i < argc; i++) {
		const struct subject *s = &subjects[i];
		_cleanup_free_ char *rule = NULL;
		char what[3 * DF_NAME_MAX + 8], esc[DF_ESC_SIZE];
		const char *decision;
		struct df_verdict v;

		if (!s->driver) {
			/* After the JSON before it, as the writer buffers (json.h). */
			if (arg_json)
				json_flush(&j);
			printf("%s:%s is bound to no driver: nothing to decide\n", s->bus,
			       df_esc(s->device, esc));
			continue;
		}
		if (s->has_device)
			df_policy_decide_device(p, s->bus, s->driver, &s->id, &v);
		else
			df_policy_decide(p, s->bus, s->driver, &v);
		decision = v.allowed ? "allowed" : v.restricted ? "refused" : "denied";
		/* A device by its directory: its first ID, and its name. */
		if (s->devname[0])
			snprintf(what, sizeof(what), "%s:%s@%s (%s)", s->bus,
				 df_esc(s->driver, esc), s->id.n ? s->id.ids[0] : "?", s->devname);
		else
			snprintf(what, sizeof(what), "%s:%s%s%s", s->bus, df_esc(s->driver, esc),
				 s->has_device ? "@" : "", s->has_device ? s->device : "");
		if (arg_json) {
			json_object_begin(&j);
			json_field_string(&j, "bus", s->bus);
			json_field_string(&j, "driver", s->driver);
			if (s->has_device)
				json_field_string(&j, "device", s->device);
			json_field_string(&j, "decision", decision);
			json_key(&j, "rule");
			json_rule(&j, v.rule);
			json_object_end(&j);
			continue;
		}
		rule = df_rule_describe(v.rule);
		if (!rule) {
			log_oom();
			df_policy_free(p);
			return EXIT_ERROR;
		}
		if (v.restricted && !v.allowed)
			printf("%s refused: no device rule of the driver matches %s (such as %s)\n",
			       what, s->id.n ? s->id.ids[0] : "it (its IDs cannot be read)", rule);
		/* A rule of a drop-in says where it is. */
		else if (df_policy_nfiles(p) > 1 && v.rule->line && v.rule->file)
			printf("%s %s by %s (%s:%u)\n", what, decision, rule, v.rule->file,
			       v.rule->line);
		else
			printf("%s %s by %s\n", what, decision, rule);
	}
	if (arg_json) {
		json_array_end(&j);
		json_finish(&j);
	}
	df_policy_free(p);
	return EXIT_FINE;
}

const struct ctl_verb ctl_verb_explain = {
	.name = "explain",
	.args = "BUS:DRIVER...",
	.min_args = 1,
	.max_args = -1,
	.summary = "say whether each driver is allowed, and by which rule",
	.common = CTL_POLICY | CTL_SYSROOT | CTL_JSON,
	.run = run,
};
