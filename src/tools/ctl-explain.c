// SPDX-License-Identifier: GPL-2.0-only
/* drvfilterctl explain BUS:DRIVER...: the decision for each driver, and the rule behind it. */
#include <stdlib.h>
#include <string.h>

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

int verb_explain(int argc, char **argv)
{
	const char *buses[argc], *drivers[argc];
	struct df_policy *p = NULL;
	struct json j;
	int r;

	/* Every argument is checked before anything is printed. */
	for (int i = 1; i < argc; i++) {
		r = ctl_parse_subject(argv[i], &buses[i], &drivers[i]);
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
		_cleanup_free_ char *rule = NULL;
		struct df_verdict v;

		df_policy_decide(p, buses[i], drivers[i], &v);
		if (arg_json) {
			json_object_begin(&j);
			json_field_string(&j, "bus", buses[i]);
			json_field_string(&j, "driver", drivers[i]);
			json_field_string(&j, "decision", v.allowed ? "allowed" : "denied");
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
		/* A rule of a drop-in says where it is. */
		if (df_policy_nfiles(p) > 1 && v.rule->line && v.rule->file)
			printf("%s:%s %s by %s (%s:%u)\n", buses[i], drivers[i],
			       v.allowed ? "allowed" : "denied", rule, v.rule->file, v.rule->line);
		else
			printf("%s:%s %s by %s\n", buses[i], drivers[i],
			       v.allowed ? "allowed" : "denied", rule);
	}
	if (arg_json) {
		json_array_end(&j);
		json_finish(&j);
	}
	df_policy_free(p);
	return EXIT_FINE;
}
