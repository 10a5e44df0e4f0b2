// SPDX-License-Identifier: GPL-2.0-only
/*
 * The measurement against the target's disk unlocking (drvfilter.conf(5),
 * measure): apply extends its PCR in the initramfs, before any disk is
 * unlocked. A TPM2 key sealed to that PCR (a LUKS2 header's systemd-tpm2
 * token; pcrlock's policy, which predicts PCRs 11 to 15) then no longer
 * unseals, and a volume key that systemd-cryptsetup measures into it
 * (crypttab's tpm2-measure-pcr=) is a record verify cannot account for.
 * Each is a warning at the measure setting. Every name read from crypttab
 * and every header is untrusted: a device is opened only by a path made of
 * a name without '/', or one under /dev without "..", resolved inside the
 * target's root, and only when it is a block device or a regular file (a
 * fixture's).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <linux/openat2.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "check/check-private.h"
#include "json-read.h"
#include "strbuf.h"

#define CRYPTTAB_SIZE_MAX (1024 * 1024)
#define LUKS2_HDR_MIN 16384
#define LUKS2_HDR_MAX (4 * 1024 * 1024)

struct lint_measure {
	struct df_ctx *ctx;
	const struct df_policy *p;
	struct df_diags *diags;
	unsigned pcr;
	const char *setting;
	char buf[16];
};

_printf_(2, 3) static int warn(struct lint_measure *m, const char *fmt, ...)
{
	_cleanup_free_ char *what = NULL;
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = vasprintf(&what, fmt, ap);
	va_end(ap);
	if (r < 0)
		return -ENOMEM;
	r = df_diags_set_file(m->diags, m->p->measure_file);
	if (r >= 0)
		r = df_diags_add(
			m->diags, DF_WARNING, m->p->measure_line,
			"measure = %s extends PCR %u in the initramfs, before the disks are "
			"unlocked: %s",
			m->setting, m->pcr, what);
	return r;
}

/* The PCR systemd-cryptsetup measures a volume key into for a tpm2-measure-pcr= value, or -1. */
static int measure_pcr_of(const char *v)
{
	static const char *const yes[] = { "yes", "y", "true", "t", "on", "1" };
	char *end;
	long n;

	for (size_t i = 0; i < ARRAY_SIZE(yes); i++)
		if (strcasecmp(v, yes[i]) == 0)
			return 15;
	errno = 0;
	n = strtol(v, &end, 10);
	return errno || end == v || *end || n < 0 || n > 23 ? -1 : (int)n;
}

/* The path a crypttab device field stands for (under /dev, in the target's root), or NULL. */
static char *device_path(const char *field)
{
	static const struct {
		const char *tag, *dir;
	} tags[] = {
		{ "UUID=", "/dev/disk/by-uuid/" },
		{ "PARTUUID=", "/dev/disk/by-partuuid/" },
		{ "LABEL=", "/dev/disk/by-label/" },
		{ "PARTLABEL=", "/dev/disk/by-partlabel/" },
	};
	char rel[512];

	for (size_t i = 0; i < ARRAY_SIZE(tags); i++) {
		const char *v = startswith(field, tags[i].tag);

		if (!v)
			continue;
		if (!*v || strchr(v, '/') || streq(v, ".") || streq(v, ".."))
			return NULL;
		snprintf(rel, sizeof(rel), "%s%s", tags[i].dir, v);
		return strdup(rel);
	}
	if (!startswith(field, "/dev/") || strstr(field, "/../") ||
	    (strlen(field) >= 3 && streq(field + strlen(field) - 3, "/..")))
		return NULL;
	return strdup(field);
}

/*
 * Without openat2 (Linux before 5.6; valgrind): @rel (no leading '/') walked
 * from @rfd a component at a time, each directory opened without following a
 * link, and of links only udev's own followed: /dev/disk/by-uuid/NAME (and
 * the other by- directories) to ../../NAME, that is /dev/NAME. An O_PATH
 * handle, or -1.
 */
static int walk_in_root(int rfd, const char *rel, bool link_followed)
{
	_cleanup_free_ char *copy = strdup(rel);
	_cleanup_close_ int dfd = -1;
	char *comp, *next, target[256];
	const char *tail;
	struct stat st;
	int fd;
	ssize_t n;

	if (!copy)
		return -1;
	dfd = fcntl(rfd, F_DUPFD_CLOEXEC, 3);
	for (comp = copy; dfd >= 0 && (next = strchr(comp, '/')); comp = next + 1) {
		int nfd;

		*next = '\0';
		nfd = openat(dfd, comp, O_PATH | O_NOFOLLOW | O_DIRECTORY | O_CLOEXEC);
		close(dfd);
		dfd = nfd;
	}
	if (dfd < 0)
		return -1;
	fd = openat(dfd, comp, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) < 0 || !S_ISLNK(st.st_mode))
		return fd;
	close(fd);
	n = readlinkat(dfd, comp, target, sizeof(target) - 1);
	if (link_followed || n <= 0 || (size_t)n >= sizeof(target) - 1 ||
	    !startswith(rel, "dev/disk/"))
		return -1;
	target[n] = '\0';
	tail = startswith(target, "../../");
	if (!tail || !*tail || strchr(tail, '/') || streq(tail, ".") || streq(tail, ".."))
		return -1;
	snprintf(target, sizeof(target), "dev/%s", tail);
	return walk_in_root(rfd, target, true);
}

/*
 * Open @rel (an absolute path) inside the target's root as the running
 * system would: its symlinks resolved within the root (openat2's
 * RESOLVE_IN_ROOT; /dev/disk/by-* are symlinks), only an O_PATH handle
 * until the file is known to be a block device or a regular file (opening
 * a watchdog or a tape has effects), then reopened for reading. -1 when it
 * cannot be, or is something else.
 */
static int open_volume(const struct lint_measure *m, const char *rel)
{
	_cleanup_free_ char *root = df_ctx_path(m->ctx, "/");
	_cleanup_close_ int rfd = -1, pfd = -1;
	struct open_how how = {
		.flags = O_PATH | O_CLOEXEC,
		.resolve = RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS,
	};
	char proc[64];
	struct stat st;

	if (!root)
		return -1;
	rfd = open(root, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (rfd < 0)
		return -1;
	pfd = (int)syscall(SYS_openat2, rfd, rel + 1, &how, sizeof(how));
	if (pfd < 0 && errno == ENOSYS)
		pfd = walk_in_root(rfd, rel + 1, false);
	if (pfd < 0 || fstat(pfd, &st) < 0 || !(S_ISBLK(st.st_mode) || S_ISREG(st.st_mode)))
		return -1;
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", pfd);
	return open(proc, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
}

static uint64_t be64(const unsigned char *b)
{
	uint64_t v = 0;

	for (int i = 0; i < 8; i++)
		v = v << 8 | b[i];
	return v;
}

/* A LUKS2 header's JSON area, parsed: 1, 0 when @fd holds no LUKS2 header, or -ENOMEM. */
static int luks2_json(int fd, struct jv *ret)
{
	unsigned char hdr[4096];
	_cleanup_free_ char *json = NULL;
	uint64_t size;
	size_t off;
	ssize_t n;

	n = pread(fd, hdr, sizeof(hdr), 0);
	if (n != (ssize_t)sizeof(hdr) || memcmp(hdr, "LUKS\xba\xbe", 6) != 0 || hdr[6] != 0 ||
	    hdr[7] != 2)
		return 0;
	size = be64(hdr + 8);
	if (size < LUKS2_HDR_MIN || size > LUKS2_HDR_MAX)
		return 0;
	json = malloc(size - sizeof(hdr));
	if (!json)
		return -ENOMEM;
	n = pread(fd, json, size - sizeof(hdr), sizeof(hdr));
	if (n != (ssize_t)(size - sizeof(hdr)))
		return 0;
	if (json_parse(json, strnlen(json, (size_t)n), ret, &off) < 0)
		return 0;
	return 1;
}

/* A systemd-tpm2 token of @volume's header that seals to drvfilter's PCR (or to pcrlock's policy). */
static int check_tokens(struct lint_measure *m, const char *volume, unsigned line,
			const char *device)
{
	_cleanup_free_ char *path = device_path(device);
	_cleanup_close_ int fd = -1;
	const struct jv *tokens;
	struct jv root;
	int r;

	if (!path)
		return 0;
	fd = open_volume(m, path);
	if (fd < 0) {
		df_dbg(m->ctx, "crypttab line %u: cannot read '%s'; its TPM2 tokens not checked",
		       line, path);
		return 0;
	}
	r = luks2_json(fd, &root);
	if (r <= 0)
		return r;
	tokens = jv_get(&root, "tokens");
	for (size_t i = 0; r >= 0 && tokens && tokens->type == JV_OBJECT && i < tokens->count;
	     i++) {
		const struct jv *t = &tokens->items[i], *pcrs = jv_get(t, "tpm2-pcrs");
		const char *type = jv_get_string(t, "type");
		bool ok, pcrlock = jv_get_bool(t, "tpm2_pcrlock", &ok) && ok;
		struct strbuf key = STRBUF_INIT;
		bool sealed = false;

		if (!type || !streq(type, "systemd-tpm2"))
			continue;
		if (strbuf_append_quoted(&key, tokens->keys[i]) < 0) {
			r = -ENOMEM;
			break;
		}
		for (size_t k = 0; pcrs && pcrs->type == JV_ARRAY && k < pcrs->count; k++)
			sealed |=
				pcrs->items[k].type == JV_NUMBER && pcrs->items[k].number == m->pcr;
		if (pcrlock && m->pcr >= 11 && m->pcr <= 15)
			r = warn(
				m,
				"/etc/crypttab line %u: volume %s: its LUKS2 header's systemd-tpm2 "
				"token %s is sealed to systemd-pcrlock's prediction, which covers "
				"PCR %u: it will no longer unseal (set measure = pcr:N to a PCR "
				"pcrlock does not predict, or measure = no)",
				line, volume, strbuf_str(&key), m->pcr);
		else if (sealed)
			r = warn(
				m,
				"/etc/crypttab line %u: volume %s: its LUKS2 header's systemd-tpm2 "
				"token %s is sealed to PCR %u: it will no longer unseal (enroll it "
				"again without PCR %u, or set measure = pcr:N to another PCR)",
				line, volume, strbuf_str(&key), m->pcr, m->pcr);
		strbuf_release(&key);
	}
	jv_release(&root);
	return r;
}

/* One line of crypttab: NAME DEVICE [KEYFILE [OPTIONS]]. */
static int check_line(struct lint_measure *m, char *line, unsigned n)
{
	struct strbuf name = STRBUF_INIT;
	char *save = NULL, *f[4] = { NULL };
	int r = 0;

	for (int i = 0; i < 4; i++)
		f[i] = strtok_r(i ? NULL : line, " \t", &save);
	if (!f[0] || f[0][0] == '#' || !f[1])
		return 0;
	if (strbuf_append_quoted(&name, f[0]) < 0)
		return -ENOMEM;
	for (char *o = f[3] ? strtok_r(f[3], ",", &save) : NULL; r >= 0 && o;
	     o = strtok_r(NULL, ",", &save)) {
		const char *v = startswith(o, "tpm2-measure-pcr=");

		if (v && measure_pcr_of(v) == (int)m->pcr)
			r = warn(
				m,
				"/etc/crypttab line %u: volume %s: systemd-cryptsetup measures its "
				"volume key into PCR %u (%s), a record whose text is not what it "
				"measured, so drvfilterctl verify refuses every boot (drop the "
				"option, or set measure = pcr:N to another PCR)",
				n, strbuf_str(&name), m->pcr, o);
	}
	if (r >= 0)
		r = check_tokens(m, strbuf_str(&name), n, f[1]);
	strbuf_release(&name);
	return r;
}

int df_policy_check_measure(struct df_ctx *ctx, const struct df_policy *p, struct df_diags *diags)
{
	struct lint_measure m = { .ctx = ctx, .p = p, .diags = diags };
	_cleanup_free_ char *path = NULL, *buf = NULL;
	_cleanup_close_ int fd = -1;
	char *line;
	enum df_measure how;
	unsigned n = 0;
	size_t len;
	int r = 0;

	how = df_policy_measure(p, &m.pcr);
	if (how == DF_MEASURE_NO)
		return 0;
	m.setting = df_measure_setting_name(how, m.pcr, m.buf);
	if (m.pcr >= 11 && m.pcr <= 15 && df_ctx_exists(ctx, "/var/lib/systemd/pcrlock.json")) {
		r = warn(&m,
			 "systemd-pcrlock's policy (/var/lib/systemd/pcrlock.json) predicts PCR "
			 "%u without drvfilter's event: a disk sealed to it will no longer "
			 "unseal (set measure = pcr:N to a PCR it does not predict, or "
			 "measure = no)",
			 m.pcr);
		if (r < 0)
			return r;
	}
	path = df_ctx_path(ctx, "/etc/crypttab");
	if (!path)
		return -ENOMEM;
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0) {
		df_dbg(ctx, "cannot open '%s': %m; no volume to check against the measurement",
		       path);
		return 0;
	}
	r = df_read_full_fd(fd, CRYPTTAB_SIZE_MAX, &buf, &len);
	if (r < 0) {
		df_dbg(ctx, "cannot read '%s': %s; volumes not checked", path, strerror(-r));
		return r == -ENOMEM ? r : 0;
	}
	for (line = buf; line < buf + len; n++) {
		char *nl = memchr(line, '\n', (size_t)(buf + len - line));

		if (nl)
			*nl = '\0';
		r = check_line(&m, line, n + 1);
		if (r < 0)
			return r;
		if (!nl)
			break;
		line = nl + 1;
	}
	return 0;
}
