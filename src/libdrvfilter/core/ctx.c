// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/core-private.h"
#include "strbuf.h"

struct df_ctx {
	int refcount;
	char *sysroot; /* NULL: the running system */
	char *modules_root; /* NULL: /lib/modules under the sysroot */
	char *kernel; /* NULL: the system's own kernel release */
	char *cmdline; /* NULL: the system's /proc/cmdline */
	df_log_fn log_fn;
	void *log_data;
	int log_priority;
};

int df_ctx_new(const char *sysroot, struct df_ctx **ret)
{
	struct df_ctx *ctx = calloc(1, sizeof(*ctx));

	if (!ctx)
		return -ENOMEM;
	ctx->refcount = 1;
	ctx->log_priority = LOG_INFO;
	if (sysroot && !streq(sysroot, "/")) {
		size_t n = strlen(sysroot);

		/* Trailing slashes would double up when paths are joined. */
		while (n > 1 && sysroot[n - 1] == '/')
			n--;
		ctx->sysroot = strndup(sysroot, n);
		if (!ctx->sysroot) {
			free(ctx);
			return -ENOMEM;
		}
	}
	*ret = ctx;
	return 0;
}

struct df_ctx *df_ctx_ref(struct df_ctx *ctx)
{
	if (ctx)
		ctx->refcount++;
	return ctx;
}

struct df_ctx *df_ctx_unref(struct df_ctx *ctx)
{
	if (!ctx || --ctx->refcount > 0)
		return NULL;
	free(ctx->sysroot);
	free(ctx->modules_root);
	free(ctx->kernel);
	free(ctx->cmdline);
	free(ctx);
	return NULL;
}

void df_ctx_set_log_fn(struct df_ctx *ctx, df_log_fn fn, void *data)
{
	ctx->log_fn = fn;
	ctx->log_data = data;
}

void df_ctx_set_log_priority(struct df_ctx *ctx, int priority)
{
	ctx->log_priority = priority;
}

const char *df_ctx_get_sysroot(const struct df_ctx *ctx)
{
	return ctx->sysroot;
}

static int set_string(char **field, const char *value)
{
	char *copy = NULL;

	if (value && !(copy = strdup(value)))
		return -ENOMEM;
	free(*field);
	*field = copy;
	return 0;
}

int df_ctx_set_modules_root(struct df_ctx *ctx, const char *root)
{
	return set_string(&ctx->modules_root, root);
}

const char *df_ctx_get_modules_root(const struct df_ctx *ctx)
{
	return ctx->modules_root;
}

int df_ctx_set_kernel(struct df_ctx *ctx, const char *release)
{
	if (release && df_sysfs_name_check(release) < 0)
		return -EINVAL;
	return set_string(&ctx->kernel, release);
}

const char *df_ctx_get_kernel(const struct df_ctx *ctx)
{
	return ctx->kernel;
}

int df_ctx_set_cmdline(struct df_ctx *ctx, const char *cmdline)
{
	return set_string(&ctx->cmdline, cmdline);
}

const char *df_ctx_get_cmdline(const struct df_ctx *ctx)
{
	return ctx->cmdline;
}

char *df_ctx_path(const struct df_ctx *ctx, const char *path)
{
	struct strbuf sb = STRBUF_INIT;

	if (ctx->sysroot && strbuf_append(&sb, ctx->sysroot) < 0)
		return NULL;
	if (strbuf_append(&sb, path) < 0) {
		strbuf_release(&sb);
		return NULL;
	}
	return strbuf_steal(&sb);
}

int df_in_initramfs(const struct df_ctx *ctx)
{
	static const char *const marks[] = { "/etc/initrd-release", "/conf/initramfs.conf" };

	for (size_t i = 0; i < ARRAY_SIZE(marks); i++) {
		_cleanup_free_ char *path = df_ctx_path(ctx, marks[i]);

		if (!path)
			return -ENOMEM;
		if (access(path, F_OK) == 0)
			return 1;
	}
	return 0;
}

const char *df_initramfs_builder(const struct df_ctx *ctx)
{
	/* Each builder's own files first: dracut's systemd flavour has an initrd-release too. */
	static const char *const marks[][2] = {
		{ "/scripts/functions", "initramfs-tools" },
		{ "/usr/lib/dracut-lib.sh", "dracut" },
		{ "/lib/dracut-lib.sh", "dracut" },
		{ "/etc/initrd-release", "systemd" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(marks); i++) {
		if (df_ctx_exists(ctx, marks[i][0]))
			return marks[i][1];
	}
	return "unknown";
}

bool df_log_enabled(const struct df_ctx *ctx, int priority)
{
	return ctx && ctx->log_fn && priority <= ctx->log_priority;
}

static void log_va(const struct df_ctx *ctx, int priority, const char *file, int line,
		   const char *fn, const char *format, va_list ap)
{
	if (df_log_enabled(ctx, priority))
		ctx->log_fn(ctx->log_data, priority, file, line, fn, format, ap);
}

void df_log(const struct df_ctx *ctx, int priority, const char *file, int line, const char *fn,
	    const char *format, ...)
{
	va_list ap;

	va_start(ap, format);
	log_va(ctx, priority, file, line, fn, format, ap);
	va_end(ap);
}

/* The tools' lines have no source position: they are the program's, not the library's. */
void df_ctx_log(const struct df_ctx *ctx, int priority, const char *format, ...)
{
	va_list ap;

	va_start(ap, format);
	log_va(ctx, priority, NULL, 0, NULL, format, ap);
	va_end(ap);
}

bool df_ctx_exists(const struct df_ctx *ctx, const char *path)
{
	_cleanup_free_ char *full = df_ctx_path(ctx, path);

	return full && access(full, F_OK) == 0;
}
