// SPDX-License-Identifier: GPL-2.0-only
/*
 * Measurement: after an apply, one canonical event (the policy's digest, the
 * mode, fail-closed, override, lock, the counts) is extended into the TPM's
 * PCR and the TDX RTMR, and recorded in systemd's userspace event log, so
 * that a verifier can tell from signed evidence which policy runs, and how.
 *
 * The log protocol is systemd's (src/shared/tpm2-util.c): an exclusive flock
 * on the log, the sticky bit set while a record is being appended (a writer
 * that finds it set knows the log is incomplete), one JSON-SEQ record per
 * extension, fsync, sticky bit cleared. Unlike systemd, the lock is waited
 * for with a deadline: nothing in the boot path may block forever.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "json.h"
#include "evidence/evidence-private.h"
#include "sha256.h"
#include "sha512.h"
#include "time-util.h"

static const char *yes_no(bool b)
{
	return b ? "yes" : "no";
}

char *df_event_text(const struct df_report *rep)
{
	const struct df_counts *c = &rep->counts;
	char *s;

	/* Audit mode enforces nothing: its own mode, so that no verifier takes it for enforcement. */
	if (asprintf(&s,
		     DF_EVENT_VERSION " policy=%s mode=%s fail-closed=%s override=%s locked=%s "
				      "drivers=%zu allowed=%zu denied=%zu unbound=%zu kept=%zu "
				      "blacklisted=%zu errors=%zu",
		     *rep->policy_sha256 ? rep->policy_sha256 : "none",
		     rep->audit ? "audit" : df_mode_name(rep->mode), yes_no(rep->fail_closed),
		     yes_no(rep->override), yes_no(rep->locked), c->drivers, c->allowed, c->denied,
		     c->unbound, c->kept, c->blacklisted, c->errors) < 0)
		return NULL;
	return s;
}

struct measure_run {
	struct df_run run;
	struct df_measurement *m;
	int logfd; /* the event log, locked and marked incomplete; -1 when it cannot be written */
};

_printf_(2, 3) static void fail(struct measure_run *mr, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	df_critical(&mr->run, "%s", msg);
	if (!mr->m->error)
		mr->m->error = strdup(msg);
}

static void hex(const uint8_t *d, size_t n, char *out)
{
	for (size_t i = 0; i < n; i++)
		snprintf(out + 2 * i, 3, "%02x", d[i]);
}

/* The boot ID systemd puts in each record: 32 hex digits, no dashes. */
static bool boot_id(const struct df_ctx *ctx, char out[33])
{
	char buf[64];
	size_t k = 0;

	if (df_read_file(ctx, "/proc/sys/kernel/random/boot_id", buf, sizeof(buf)) < 0)
		return false;
	for (const char *c = buf; *c && k < 32; c++)
		if ((*c >= '0' && *c <= '9') || (*c >= 'a' && *c <= 'f'))
			out[k++] = *c;
	out[k] = '\0';
	return k == 32;
}

static int evlog_open(struct measure_run *mr)
{
	_cleanup_free_ char *run_log = df_ctx_path(mr->run.ctx, "/run/log");
	_cleanup_free_ char *dir = df_ctx_path(mr->run.ctx, "/run/log/systemd");
	_cleanup_free_ char *path = df_ctx_path(mr->run.ctx, DF_EVENT_LOG_PATH);
	long long deadline = now_usec(CLOCK_MONOTONIC) + DF_MEASURE_WAIT_USEC;
	_cleanup_close_ int fd = -1;
	struct stat st;

	if (!run_log || !dir || !path)
		return -ENOMEM;
	(void)mkdir(run_log, 0755);
	(void)mkdir(dir, 0755);
	/* 0600 as systemd has it: whoever can open the log can lock it. */
	fd = df_open_locked(path, O_WRONLY | O_NOCTTY, deadline);
	if (fd < 0)
		return fd;
	/* Another writer's record was cut short: appending would hide that. */
	if (fstat(fd, &st) < 0)
		return -errno;
	if (st.st_mode & S_ISVTX)
		return -ESTALE;
	if (fchmod(fd, 0600 | S_ISVTX) < 0)
		return -errno;
	return TAKE_FD(fd);
}

static void evlog_close(struct measure_run *mr)
{
	if (mr->logfd < 0)
		return;
	/* Complete again: the sticky bit goes only once every record is on disk. */
	if (fsync(mr->logfd) < 0 || fchmod(mr->logfd, 0600) < 0 || fsync(mr->logfd) < 0)
		fail(mr, "cannot finish the event log " DF_EVENT_LOG_PATH ": %s", strerror(errno));
	close(mr->logfd);
	mr->logfd = -1;
}

struct record {
	const char *reg; /* "pcr" or "rtmr" */
	unsigned index;
	const struct df_tpm_digests *digests;
	const char *event;
	const char *boot_id; /* NULL when unknown */
};

static int fill_record(FILE *f, const struct record *r)
{
	struct json j;

	/* RFC 7464: a record separator, the record, a newline. */
	fputc(0x1e, f);
	json_init(&j, f, false);
	json_object_begin(&j);
	json_field_int(&j, r->reg, r->index);
	json_key(&j, "digests");
	json_array_begin(&j);
	for (size_t i = 0; i < r->digests->n; i++) {
		char h[2 * DF_TPM_DIGEST_MAX + 1];

		hex(r->digests->d[i].digest, r->digests->d[i].size, h);
		json_object_begin(&j);
		json_field_string(&j, "hashAlg", r->digests->d[i].name);
		json_field_string(&j, "digest", h);
		json_object_end(&j);
	}
	json_array_end(&j);
	/*
	 * systemd's content: the event as its "string", the boot and the time.
	 * The event is printable ASCII without a backslash (df_event_text()), so
	 * the writer's escaping of bytes (json.h) leaves it as it was measured.
	 */
	json_field_string(&j, "content_type", "systemd");
	json_key(&j, "content");
	json_object_begin(&j);
	json_field_string(&j, "string", r->event);
	if (r->boot_id)
		json_field_string(&j, "bootId", r->boot_id);
	json_field_int(&j, "timestamp", now_usec(CLOCK_BOOTTIME));
	json_object_end(&j);
	json_object_end(&j);
	json_finish(&j);
	return ferror(f) ? -EIO : 0;
}

static int append_record(struct measure_run *mr, const struct record *r)
{
	_cleanup_free_ char *buf = NULL;
	size_t len = 0, done = 0;
	FILE *f;
	int k;

	if (mr->logfd < 0)
		return -EBADF;
	f = open_memstream(&buf, &len);
	if (!f)
		return -ENOMEM;
	k = fill_record(f, r);
	if (fclose(f) != 0 && k == 0)
		k = -ENOMEM;
	if (k < 0)
		return k;
	if (lseek(mr->logfd, 0, SEEK_END) < 0)
		return -errno;
	while (done < len) {
		ssize_t n = write(mr->logfd, buf + done, len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EIO;
		done += (size_t)n;
	}
	return 0;
}

static void log_measured(struct measure_run *mr, const char *reg, unsigned index,
			 const struct df_tpm_digests *d)
{
	for (size_t i = 0; i < d->n; i++) {
		char h[2 * DF_TPM_DIGEST_MAX + 1];

		hex(d->d[i].digest, d->d[i].size, h);
		df_log_cond(mr->run.ctx, LOG_NOTICE, "action=measure %s=%u digest=%s:%s result=ok",
			    reg, index, d->d[i].name, h);
	}
}

static void measure_tpm(struct measure_run *mr, const char *path, const char *event,
			const char *bootid)
{
	uint8_t cmd[DF_TPM_COMMAND_HEAD + DF_TPM_EVENT_MAX], rsp[4096];
	size_t len = strlen(event);
	struct df_tpm_digests d;
	unsigned pcr = mr->m->pcr;
	char want[SHA256_HEX_SIZE];
	uint32_t rc = 0;
	bool sha256_seen = false;
	int r;

	mr->m->tpm = DF_MEASURED_FAILED;
	r = df_tpm_transact(mr->run.ctx, path, cmd, df_tpm_pcr_event_command(pcr, event, len, cmd),
			    rsp, sizeof(rsp), DF_MEASURE_WAIT_USEC);
	if (r >= 0)
		r = df_tpm_pcr_event_response(rsp, (size_t)r, &d, &rc);
	if (r == -EREMOTEIO) {
		fail(mr, "the TPM refused to extend PCR %u: response code 0x%x", pcr, rc);
		return;
	}
	if (r < 0) {
		fail(mr, "cannot extend PCR %u through " DF_TPM_PATH ": %s", pcr,
		     r == -ENOTTY ? "it is not a character device" : strerror(-r));
		return;
	}
	/* The TPM hashed the event itself: its SHA-256 must be ours. */
	sha256_hex(event, len, want);
	for (size_t i = 0; i < d.n; i++) {
		char h[2 * DF_TPM_DIGEST_MAX + 1];

		if (d.d[i].alg != 0x000b)
			continue;
		sha256_seen = true;
		hex(d.d[i].digest, d.d[i].size, h);
		if (!streq(h, want)) {
			fail(mr, "the TPM's SHA-256 of the event is %s, not %s", h, want);
			return;
		}
	}
	if (!sha256_seen) {
		fail(mr, "the TPM extended PCR %u but has no SHA-256 bank", pcr);
		return;
	}
	log_measured(mr, "pcr", pcr, &d);
	r = append_record(mr, &(struct record){ "pcr", pcr, &d, event, bootid });
	if (r == -EBADF)
		return; /* the log could not be opened: said already */
	if (r < 0) {
		fail(mr,
		     "PCR %u was extended, but the event log " DF_EVENT_LOG_PATH
		     " could not be written: %s",
		     pcr, strerror(-r));
		return;
	}
	mr->m->tpm = DF_MEASURED_OK;
}

/* tsm-mr (Linux 6.16): a write of the 48-byte digest extends the RTMR, one write or none. */
static void measure_rtmr(struct measure_run *mr, const char *path, const char *event,
			 const char *bootid)
{
	struct df_tpm_digests d = { .n = 1 };
	_cleanup_close_ int fd = -1;
	ssize_t n;
	int r;

	mr->m->rtmr = DF_MEASURED_FAILED;
	d.d[0] = (struct df_tpm_digest){ .alg = 0x000c, .name = "sha384", .size = 48 };
	sha384(event, strlen(event), d.d[0].digest);
	fd = open(path, O_WRONLY | O_CLOEXEC | O_NOCTTY | O_NOFOLLOW | O_NONBLOCK);
	if (fd < 0) {
		fail(mr, "cannot extend RTMR %u: %s", DF_RTMR_INDEX, strerror(errno));
		return;
	}
	n = write(fd, d.d[0].digest, SHA384_DIGEST_SIZE);
	if (n != SHA384_DIGEST_SIZE) {
		fail(mr, "cannot extend RTMR %u: %s", DF_RTMR_INDEX,
		     n < 0 ? strerror(errno) : "a short write");
		return;
	}
	log_measured(mr, "rtmr", DF_RTMR_INDEX, &d);
	r = append_record(mr, &(struct record){ "rtmr", DF_RTMR_INDEX, &d, event, bootid });
	if (r == -EBADF)
		return;
	if (r < 0) {
		fail(mr,
		     "RTMR %u was extended, but the event log " DF_EVENT_LOG_PATH
		     " could not be written: %s",
		     DF_RTMR_INDEX, strerror(-r));
		return;
	}
	mr->m->rtmr = DF_MEASURED_OK;
}

char *df_aael_line(const char *event)
{
	char *s;

	/* The event's grammar has no '"' nor '\\': the JSON is canonical as it is. */
	if (strpbrk(event, "\"\\"))
		return NULL;
	if (asprintf(&s, DF_AAEL_DOMAIN " " DF_AAEL_OPERATION " {\"event\":\"%s\"}", event) < 0)
		return NULL;
	return s;
}

/*
 * The event in CoCo's AAEL too, when AA keeps one (DF_AAEL_PATH, begun with
 * its INIT line for SHA-384): the line appended, then its SHA-384 extended
 * into RTMR 3, in AA's order. Without the log (AA has not started: the
 * initramfs) nothing is done: AA's INIT line will record RTMR 3 as it finds
 * it. A log that is empty or begun otherwise (another hash: not a TDX
 * RTMR) is left alone, since AA would no longer parse it. If RTMR 3 cannot
 * be extended the line is taken back, so that the log still replays.
 */
static void measure_aael(struct measure_run *mr, const char *event)
{
	_cleanup_free_ char *path = df_ctx_path(mr->run.ctx, DF_AAEL_PATH);
	_cleanup_free_ char *rpath = df_ctx_path(mr->run.ctx, DF_AAEL_RTMR_PATH);
	_cleanup_free_ char *line = df_aael_line(event);
	_cleanup_close_ int fd = -1, rfd = -1;
	uint8_t d[SHA384_DIGEST_SIZE];
	char head[12], h[2 * SHA384_DIGEST_SIZE + 1];
	struct stat st;
	size_t len;
	ssize_t n;

	if (!path || !rpath || !line) {
		fail(mr, "cannot write the attestation agent's event log: %s", strerror(ENOMEM));
		return;
	}
	fd = open(path, O_RDWR | O_APPEND | O_CLOEXEC | O_NOCTTY | O_NOFOLLOW | O_NONBLOCK);
	if (fd < 0 && errno == ENOENT)
		return;
	if (fd < 0 || fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		fail(mr, "cannot append to the attestation agent's event log " DF_AAEL_PATH ": %s",
		     fd < 0 ? strerror(errno) : "it is not a regular file");
		return;
	}
	if (pread(fd, head, sizeof(head), 0) != (ssize_t)sizeof(head) ||
	    memcmp(head, "INIT sha384/", sizeof(head)) != 0) {
		df_log_cond(mr->run.ctx, LOG_NOTICE,
			    "action=measure aael=" DF_AAEL_PATH " result=skipped message=\"it does "
			    "not begin with AA's INIT line for SHA-384 (RTMR 3): left alone\"");
		return;
	}
	rfd = open(rpath, O_WRONLY | O_CLOEXEC | O_NOCTTY | O_NOFOLLOW | O_NONBLOCK);
	if (rfd < 0) {
		fail(mr,
		     "the attestation agent's event log is there, but RTMR %d cannot be extended: "
		     "%s",
		     DF_AAEL_RTMR_INDEX, strerror(errno));
		return;
	}
	len = strlen(line);
	line[len] = '\n';
	n = write(fd, line, len + 1);
	line[len] = '\0';
	if (n != (ssize_t)len + 1) {
		fail(mr, "cannot append to the attestation agent's event log " DF_AAEL_PATH ": %s",
		     n < 0 ? strerror(errno) : "a short write");
		if (n > 0 && ftruncate(fd, st.st_size) < 0)
			fail(mr, "the attestation agent's event log keeps a part of a line: %s",
			     strerror(errno));
		return;
	}
	sha384(line, len, d);
	n = write(rfd, d, sizeof(d));
	if (n != (ssize_t)sizeof(d)) {
		fail(mr, "cannot extend RTMR %d: %s; the line is taken back from " DF_AAEL_PATH,
		     DF_AAEL_RTMR_INDEX, n < 0 ? strerror(errno) : "a short write");
		if (ftruncate(fd, st.st_size) < 0)
			fail(mr, "the attestation agent's event log keeps a line RTMR %d lacks: %s",
			     DF_AAEL_RTMR_INDEX, strerror(errno));
		return;
	}
	hex(d, sizeof(d), h);
	df_log_cond(mr->run.ctx, LOG_NOTICE,
		    "action=measure rtmr=%d aael=" DF_AAEL_PATH " digest=sha384:%s result=ok",
		    DF_AAEL_RTMR_INDEX, h);
}

int df_measure(struct df_ctx *ctx, const struct df_policy *p, struct df_report *rep)
{
	/* A run taken up again, to log and count what fails here in its report. */
	struct measure_run mr = { { .ctx = ctx, .p = p, .rep = rep, .kfd = -1 },
				  &rep->measurement,
				  -1 };
	_cleanup_free_ char *tpm = df_ctx_path(ctx, DF_TPM_PATH);
	_cleanup_free_ char *rtmr = df_ctx_path(ctx, DF_RTMR_PATH);
	size_t errors = rep->counts.errors;
	bool has_tpm, has_rtmr;
	char bootid[33];
	struct stat st;
	int r;

	mr.m->setting = p->measure;
	mr.m->pcr = p->measure_pcr;
	if (p->measure == DF_MEASURE_NO) {
		df_log_cond(ctx, LOG_NOTICE,
			    "action=measure result=off message=\"measure = no: the policy is not "
			    "measured\"");
		return 0;
	}
	if (!tpm || !rtmr)
		return -ENOMEM;
	mr.m->event = df_event_text(rep);
	if (!mr.m->event)
		return -ENOMEM;
	has_tpm = lstat(tpm, &st) == 0;
	has_rtmr = lstat(rtmr, &st) == 0;
	mr.m->tpm = has_tpm ? DF_MEASURED_FAILED : DF_MEASURED_ABSENT;
	mr.m->rtmr = has_rtmr ? DF_MEASURED_FAILED : DF_MEASURED_ABSENT;
	if (!has_tpm && p->measure == DF_MEASURE_PCR)
		mr.m->tpm = DF_MEASURED_FAILED;
	if (!has_tpm && p->measure == DF_MEASURE_PCR)
		fail(&mr, "measure = pcr:%u, but there is no TPM (" DF_TPM_PATH "): not measured",
		     p->measure_pcr);
	else if (!has_tpm && !has_rtmr)
		df_log_cond(ctx, LOG_NOTICE,
			    "action=measure result=absent message=\"no TPM (" DF_TPM_PATH
			    ") and no TDX RTMR: the policy is not measured\"");
	if (!has_tpm && !has_rtmr)
		return rep->counts.errors > errors ? -EIO : 0;

	r = evlog_open(&mr);
	if (r == -ENOMEM)
		return r;
	if (r < 0)
		/* Extend all the same: a PCR the log does not explain fails every verifier. */
		fail(&mr, "cannot append to the event log " DF_EVENT_LOG_PATH ": %s",
		     r == -ESTALE   ? "an earlier writer left it incomplete (its sticky bit is set)"
		     : r == -EINVAL ? "it is not a regular file"
				    : strerror(-r));
	mr.logfd = r;
	if (has_tpm)
		measure_tpm(&mr, tpm, mr.m->event, boot_id(ctx, bootid) ? bootid : NULL);
	if (has_rtmr)
		measure_rtmr(&mr, rtmr, mr.m->event, boot_id(ctx, bootid) ? bootid : NULL);
	evlog_close(&mr);
	if (has_rtmr)
		measure_aael(&mr, mr.m->event);
	return rep->counts.errors > errors ? -EIO : 0;
}
