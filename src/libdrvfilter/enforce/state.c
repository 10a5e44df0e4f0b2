// SPDX-License-Identifier: GPL-2.0-only
/*
 * /run/drvfilter/state.json: what the last apply did, written whole or not at
 * all (temporary file + rename), and read back by `status` to tell drift.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#include "enforce/enforce-private.h"
#include "json-read.h"
#include "json.h"
#include "sha256.h"

#define STATE_DIR "/run/drvfilter"
#define STATE_NAME "state.json"

const char *df_measured_name(enum df_measured m)
{
	static const char *const names[] = {
		[DF_MEASURED_OFF] = "off",
		[DF_MEASURED_OK] = "measured",
		[DF_MEASURED_ABSENT] = "absent",
		[DF_MEASURED_FAILED] = "failed",
	};

	return names[m];
}

/* The policy the initramfs enforced: its SHA-256, or "" when it failed closed. */
#define ORIGIN_NAME "initramfs-policy"

static void write_counts(struct json *j, const struct df_counts *c)
{
	json_key(j, "counts");
	json_object_begin(j);
	json_field_int(j, "drivers", (long long)c->drivers);
	json_field_int(j, "allowed", (long long)c->allowed);
	json_field_int(j, "denied", (long long)c->denied);
	json_field_int(j, "unbound", (long long)c->unbound);
	json_field_int(j, "kept", (long long)c->kept);
	json_field_int(j, "blacklisted", (long long)c->blacklisted);
	json_field_int(j, "errors", (long long)c->errors);
	json_object_end(j);
}

static void write_measurement(struct json *j, const struct df_measurement *m)
{
	char buf[16];

	json_key(j, "measurement");
	json_object_begin(j);
	json_field_string(j, "setting", df_measure_setting_name(m->setting, m->pcr, buf));
	json_field_int(j, "pcr", m->pcr);
	json_field_string(j, "tpm", df_measured_name(m->tpm));
	json_field_int(j, "rtmr", DF_RTMR_INDEX);
	json_field_string(j, "rtmr_result", df_measured_name(m->rtmr));
	json_field_string(j, "event", m->event);
	json_field_string(j, "error", m->error);
	json_object_end(j);
}

void df_report_write_json(const struct df_report *rep, FILE *f, bool pretty)
{
	struct json j;

	json_init(&j, f, pretty);
	json_object_begin(&j);
	json_field_int(&j, "version", DF_STATE_VERSION);
	json_field_string(&j, "mode", df_mode_name(rep->mode));
	json_field_bool(&j, "dry_run", rep->dry_run);
	json_field_bool(&j, "audit", rep->audit);
	json_field_bool(&j, "override", rep->override);
	json_field_bool(&j, "fail_closed", rep->fail_closed);
	json_field_bool(&j, "locked", rep->locked);
	json_key(&j, "policy");
	json_object_begin(&j);
	json_field_string(&j, "path", rep->policy_path);
	json_field_string(&j, "sha256", rep->policy_sha256);
	json_object_end(&j);
	json_field_bool(&j, "initramfs", rep->in_initramfs);
	json_field_string(&j, "initramfs_sha256", rep->initramfs_sha256);
	json_field_string(&j, "initramfs_builder", rep->initramfs_builder);
	json_field_bool(&j, "real_root", rep->real_root);
	json_key(&j, "blacklist");
	if (rep->blacklist_dir) {
		json_object_begin(&j);
		json_field_string(&j, "modules_dir", rep->blacklist_dir);
		json_field_int(&j, "modules", (long long)rep->blacklist_modules);
		json_object_end(&j);
	} else {
		json_string(&j, NULL);
	}
	json_field_int(&j, "applied_usec", rep->started_usec);
	json_field_int(&j, "duration_usec", rep->duration_usec);
	write_counts(&j, &rep->counts);
	write_measurement(&j, &rep->measurement);
	json_key(&j, "actions");
	json_array_begin(&j);
	for (size_t i = 0; i < rep->nactions; i++) {
		const struct df_action *a = &rep->actions[i];

		json_object_begin(&j);
		json_field_string(&j, "action", df_action_label(a, rep->audit));
		if (a->bus)
			json_field_string(&j, "bus", a->bus);
		if (a->driver) {
			json_key(&j, a->kind == DF_ACT_BLACKLIST ? "module" : "driver");
			json_string(&j, a->driver);
		}
		if (a->device)
			json_field_string(&j, "device", a->device);
		if (a->value)
			json_field_string(&j, "value", a->value);
		json_field_string(&j, "result",
				  df_action_result(a->kind, a->error, rep->dry_run, rep->audit));
		if (a->error && a->kind != DF_ACT_CHECK)
			json_field_string(&j, "error", strerror(-a->error));
		json_object_end(&j);
	}
	json_array_end(&j);
	json_object_end(&j);
	json_finish(&j);
}

/* @name if it is one of df_initramfs_builder()'s (as a static string), else NULL. */
static const char *known_builder(const char *name)
{
	static const char *const builders[] = { "dracut", "initramfs-tools", "systemd", "unknown" };

	for (size_t i = 0; name && i < ARRAY_SIZE(builders); i++)
		if (streq(name, builders[i]))
			return builders[i];
	return NULL;
}

static int fill_state(FILE *f, void *data)
{
	df_report_write_json(data, f, true);
	return ferror(f) ? -EIO : 0;
}

int df_state_write(struct df_ctx *ctx, const struct df_report *rep)
{
	char line[SHA256_HEX_SIZE + 64];
	int r = df_write_file_atomic_with(ctx, STATE_DIR, STATE_NAME, 0644, fill_state,
					  (void *)rep);

	/*
	 * The initramfs's record of its policy, for the real root's runs: a file
	 * of its own, which no later run rewrites (and which the boot helper
	 * reads without a JSON parser).
	 */
	if (r >= 0 && rep->in_initramfs) {
		snprintf(line, sizeof(line), "%s\n%s\n", rep->policy_sha256,
			 rep->initramfs_builder ? rep->initramfs_builder : "unknown");
		r = df_write_file_atomic(ctx, STATE_DIR, ORIGIN_NAME, line, strlen(line), 0644);
	}
	return r;
}

/* The state file, read whole and parsed into @root (its text in *@buf): 0 or -errno, why in @why. */
static int state_parse(struct df_ctx *ctx, struct jv *root, char **buf, char *why, size_t whysize)
{
	_cleanup_free_ char *path = df_ctx_path(ctx, STATE_DIR "/" STATE_NAME);
	_cleanup_close_ int fd = -1;
	size_t off, len = 0;
	int r;

	if (!path)
		return -ENOMEM;
	/* O_NONBLOCK: a FIFO in its place must not hang status. */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	r = fd < 0 ? -errno : df_read_full_fd(fd, DF_STATE_SIZE_MAX - 1, buf, &len);
	if (r == 0 && memchr(*buf, '\0', len))
		r = -EBADMSG;
	if (r == -ENOENT || r == -ENOMEM)
		return r;
	if (r < 0) {
		snprintf(why, whysize, "cannot read it: %s", strerror(-r));
		return r;
	}
	r = json_parse(*buf, len, root, &off);
	if (r == -ENOMEM)
		return r;
	if (r < 0) {
		snprintf(why, whysize, "it is not valid JSON (byte %zu)", off);
		return -EBADMSG;
	}
	return 0;
}

/* The fields every state file has: 0, or -EBADMSG with why in @why. */
static int state_required(const struct jv *root, struct df_state *st, char *why, size_t whysize)
{
	const struct jv *policy = jv_get(root, "policy"), *counts = jv_get(root, "counts");
	bool ok_override, ok_closed, ok_dry, ok_audit;

	if (jv_get_int(root, "version") != DF_STATE_VERSION) {
		snprintf(why, whysize, "it is not a version %d state file", DF_STATE_VERSION);
		return -EBADMSG;
	}
	st->mode = jv_get_string(root, "mode");
	if (!policy || !counts || !st->mode || !jv_get_string(policy, "path") ||
	    !jv_get_string(policy, "sha256")) {
		snprintf(why, whysize, "fields are missing");
		return -EBADMSG;
	}
	st->mode_kernel = streq(st->mode, "kernel");
	if (!st->mode_kernel && !streq(st->mode, "fallback")) {
		snprintf(why, whysize, "it names an unknown mode");
		return -EBADMSG;
	}
	st->override = jv_get_bool(root, "override", &ok_override);
	st->fail_closed = jv_get_bool(root, "fail_closed", &ok_closed);
	st->dry_run = jv_get_bool(root, "dry_run", &ok_dry);
	/* Absent from the state files of drvfilter 0.1: not audit mode. */
	st->audit = jv_get(root, "audit") && jv_get_bool(root, "audit", &ok_audit) && ok_audit;
	st->applied_usec = jv_get_int(root, "applied_usec");
	st->duration_usec = jv_get_int(root, "duration_usec");
	st->errors = jv_get_int(counts, "errors");
	if (!ok_override || !ok_closed || !ok_dry || st->applied_usec < 0 ||
	    st->duration_usec < 0 || st->errors < 0) {
		snprintf(why, whysize, "fields are missing or of the wrong type");
		return -EBADMSG;
	}
	return 0;
}

/* What was measured; absent from older state files: nothing was then. */
static int state_measurement(const struct jv *root, struct df_state *st)
{
	const struct jv *m = jv_get(root, "measurement");
	const char *tpm, *rtmr, *err;

	if (!m)
		return 0;
	tpm = jv_get_string(m, "tpm");
	rtmr = jv_get_string(m, "rtmr_result");
	err = jv_get_string(m, "error");
	st->measure_failed = (tpm && streq(tpm, "failed")) || (rtmr && streq(rtmr, "failed"));
	st->measured_pcr = tpm && streq(tpm, "measured") ? jv_get_int(m, "pcr") : -1;
	st->measured_rtmr = rtmr && streq(rtmr, "measured");
	return err ? json_unescape_bytes(err, &st->measure_error) : 0;
}

/* Added later, so optional: absent, they say nothing. 0, -EBADMSG (escaping) or -ENOMEM. */
static int state_optional(const struct jv *root, struct df_state *st)
{
	const struct jv *blacklist = jv_get(root, "blacklist");
	const char *initramfs_sha256 = jv_get_string(root, "initramfs_sha256");
	bool ok;

	st->in_initramfs = jv_get_bool(root, "initramfs", &ok) && ok;
	if (initramfs_sha256 && !(st->initramfs_sha256 = strdup(initramfs_sha256)))
		return -ENOMEM;
	st->initramfs_builder = known_builder(jv_get_string(root, "initramfs_builder"));
	st->real_root = jv_get_bool(root, "real_root", &ok) && ok;
	if (!jv_get_string(blacklist, "modules_dir") || jv_get_int(blacklist, "modules") < 0)
		return 0;
	st->blacklist_modules = jv_get_int(blacklist, "modules");
	return json_unescape_bytes(jv_get_string(blacklist, "modules_dir"), &st->blacklist_dir);
}

int df_state_read(struct df_ctx *ctx, struct df_state *st, char *why, size_t whysize)
{
	_cleanup_free_ char *buf = NULL;
	struct jv root;
	int r;

	*st = (struct df_state){ .measured_pcr = -1 };
	if (whysize)
		*why = '\0';
	r = state_parse(ctx, &root, &buf, why, whysize);
	if (r < 0)
		return r;
	r = state_required(&root, st, why, whysize);
	if (r >= 0)
		r = state_measurement(&root, st);
	/* Names and paths as they were (json.h); a string in another escaping: a bad file. */
	if (r >= 0)
		r = json_unescape_bytes(jv_get_string(jv_get(&root, "policy"), "path"),
					&st->policy_path);
	if (r >= 0 &&
	    !(st->policy_sha256 = strdup(jv_get_string(jv_get(&root, "policy"), "sha256"))))
		r = -ENOMEM;
	if (r >= 0) {
		st->mode = st->mode_kernel ? "kernel" : "fallback";
		r = state_optional(&root, st);
	}
	if (r == -EBADMSG && whysize && !*why)
		snprintf(why, whysize, "a string has a backslash that drvfilter does not write");
	jv_release(&root);
	if (r < 0)
		df_state_release(st);
	return r;
}

void df_state_release(struct df_state *st)
{
	free(st->policy_path);
	free(st->policy_sha256);
	free(st->measure_error);
	free(st->initramfs_sha256);
	free(st->blacklist_dir);
	*st = (struct df_state){ 0 };
}

int df_report_note_origin(struct df_ctx *ctx, struct df_report *rep)
{
	char rec[SHA256_HEX_SIZE + 64], *builder;
	size_t n;
	int r = df_in_initramfs(ctx);

	if (r < 0)
		return r;
	rep->in_initramfs = r;
	if (rep->in_initramfs) {
		rep->initramfs_builder = df_initramfs_builder(ctx);
		return (rep->initramfs_sha256 = strdup(rep->policy_sha256)) ? 0 : -ENOMEM;
	}
	/*
	 * In the real root: what the initramfs's run left, for the whole boot
	 * ("SHA256\nBUILDER\n"; an older one's has no builder); else no record.
	 */
	if (df_read_file(ctx, STATE_DIR "/" ORIGIN_NAME, rec, sizeof(rec)) < 0)
		return 0;
	n = strspn(rec, "0123456789abcdef");
	if ((n != 0 && n != SHA256_HEX_SIZE - 1) || (rec[n] != '\n' && rec[n] != '\0'))
		return 0;
	builder = rec[n] ? rec + n + 1 : rec + n;
	rec[n] = '\0';
	builder[strcspn(builder, "\n")] = '\0';
	rep->initramfs_builder = known_builder(builder);
	return (rep->initramfs_sha256 = strdup(rec)) ? 0 : -ENOMEM;
}
