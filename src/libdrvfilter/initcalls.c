// SPDX-License-Identifier: GPL-2.0-only
/*
 * What the kernel image runs at boot, for initcall_blacklist=: its init calls
 * from kallsyms, what each one registered from the kernel log of a boot with
 * initcall_debug and the driver core's debug messages (the trace), and the
 * init functions of loadable modules, whose names must not collide with the
 * ones skipped.
 *
 * kallsyms names each init call of the image after its module (KBUILD_MODNAME)
 * and function: __initcall__kmod_i8042__416_1674_i8042_init6 is i8042_init, at
 * level 6 (device, module_init() of a built-in module). initcall_blacklist=
 * takes function names, compared with strcmp(3) against the name kallsyms
 * gives the function being called, module inits included (init/main.c).
 *
 * The trace: "calling  FN+0x0/0x.. @ 1" ... "initcall FN+0x0/0x.. returned R"
 * bracket each built-in init call (they run one after another, in PID 1);
 * between them, "bus: 'B': add driver D", "bus: 'B': registered" and
 * "device class 'C': registering" say what it registered.
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <lzma.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "array.h"
#include "drvfilter-private.h"
#include "strbuf.h"
#include "strv.h"

#define KALLSYMS_PREFIX "__initcall__kmod_"
/* A kernel log of 16 MiB (log_buf_len=) read as text is at most this. */
#define DF_KMSG_SIZE_MAX (64u * 1024 * 1024)

bool df_cmdline_name_ok(const char *name)
{
	size_t n = 0;

	for (const char *s = name; *s; s++, n++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9') || *s == '_'))
			return false;
	return n > 0 && n <= DF_NAME_MAX;
}

/* The level at the end of "<fn><level>", cut off in place; NULL when there is none. */
static const char *cut_level(char *s, char level[static 8])
{
	static const char *const words[] = { "early", "rootfs", "con" };
	size_t n = strlen(s), k = 0;

	for (size_t i = 0; i < ARRAY_SIZE(words) && !k; i++) {
		size_t w = strlen(words[i]);

		if (n > w && streq(s + n - w, words[i]))
			k = w;
	}
	if (!k && n > 2 && s[n - 1] == 's' && s[n - 2] >= '0' && s[n - 2] <= '7')
		k = 2;
	if (!k && n > 1 && s[n - 1] >= '0' && s[n - 1] <= '7')
		k = 1;
	if (!k)
		return NULL;
	snprintf(level, 8, "%s", s + n - k);
	s[n - k] = '\0';
	return level;
}

int df_initcall_parse(const char *symbol, char **module, char **fn, char level[static 8])
{
	const char *s = startswith(symbol, KALLSYMS_PREFIX), *p;
	_cleanup_free_ char *mod = NULL, *rest = NULL;

	if (!s)
		return -EINVAL;
	/* <module>__<counter>_<line>_<fn><level>: the first "__" followed by the two numbers. */
	for (p = s; (p = strstr(p, "__")); p++) {
		const char *q = p + 2;
		size_t d1 = strspn(q, "0123456789"), d2;

		if (!d1 || q[d1] != '_')
			continue;
		d2 = strspn(q + d1 + 1, "0123456789");
		if (d2 && q[d1 + 1 + d2] == '_')
			break;
	}
	if (!p || p == s)
		return -EINVAL;
	mod = strndup(s, (size_t)(p - s));
	p += 2;
	p += strspn(p, "0123456789") + 1;
	p += strspn(p, "0123456789") + 1;
	rest = strdup(p);
	if (!mod || !rest)
		return -ENOMEM;
	if (!cut_level(rest, level) || !df_cmdline_name_ok(mod) || !df_cmdline_name_ok(rest))
		return -EINVAL;
	*module = TAKE_PTR(mod);
	*fn = TAKE_PTR(rest);
	return 0;
}

void df_initcalls_release(struct df_initcalls *ic)
{
	for (size_t i = 0; i < ic->n; i++) {
		free(ic->v[i].module);
		free(ic->v[i].fn);
	}
	free(ic->v);
	strmap_release(&ic->by_fn);
	*ic = (struct df_initcalls){ 0 };
}

int df_initcalls_load(struct df_ctx *ctx, struct df_initcalls *ic)
{
	_cleanup_free_ char *path = df_ctx_path(ctx, "/proc/kallsyms");
	_cleanup_free_ char *line = NULL;
	size_t size = 0, cap = 0;
	FILE *f;
	int r = 0;

	*ic = (struct df_initcalls){ 0 };
	if (!path)
		return -ENOMEM;
	f = fopen(path, "re");
	if (!f)
		return -errno;
	while (getline(&line, &size, f) > 0) {
		char *name = strstr(line, " " KALLSYMS_PREFIX), *mod = NULL, *fn = NULL;
		char level[8];
		struct df_initcall *c;

		if (!name)
			continue;
		name++;
		name[strcspn(name, " \t\n")] = '\0';
		r = df_initcall_parse(name, &mod, &fn, level);
		if (r == -ENOMEM)
			break;
		if (r < 0) {
			ic->skipped++;
			r = 0;
			continue;
		}
		c = ARRAY_GROW(ic->v, cap, ic->n);
		if (!c) {
			free(mod);
			free(fn);
			r = -ENOMEM;
			break;
		}
		*c = (struct df_initcall){ .module = mod, .fn = fn };
		memcpy(c->level, level, sizeof(level));
		c->device = streq(level, "6") || streq(level, "6s");
		ic->n++;
	}
	if (r == 0 && ferror(f))
		r = -EIO;
	fclose(f);
	/* The index by function, once the array stops moving: a second call of a name is a collision. */
	for (size_t i = 0; r == 0 && i < ic->n; i++) {
		void *old;

		r = strmap_put(&ic->by_fn, ic->v[i].fn, &ic->v[i], &old);
		if (r == -EEXIST) {
			((struct df_initcall *)old)->shared = true;
			ic->v[i].shared = true;
			r = 0;
		}
	}
	if (r < 0)
		df_initcalls_release(ic);
	return r;
}

/* ---- the trace ---- */

static void call_release(struct df_trace_call *c)
{
	free(c->fn);
	strv_release(&c->drivers);
	strv_release(&c->buses);
	strv_release(&c->classes);
}

void df_trace_release(struct df_trace *t)
{
	for (size_t i = 0; i < t->n; i++)
		call_release(t->calls[i]), free(t->calls[i]);
	free(t->calls);
	strmap_release(&t->by_fn);
	*t = (struct df_trace){ 0 };
}

/* "FN+0x0/0x618" (built in) or "FN+0x0/0x1000 [MOD]": FN of a built-in call, else NULL. */
static char *builtin_fn(const char *s)
{
	size_t n = strcspn(s, "+ ");
	char *fn;

	if (s[n] != '+' || strstr(s, " ["))
		return NULL;
	fn = strndup(s, n);
	if (fn && !df_cmdline_name_ok(fn)) {
		free(fn);
		return NULL;
	}
	return fn;
}

/* The text between the first pair of quotes after @prefix, into @buf; NULL when absent. */
static const char *quoted(const char *msg, const char *prefix, const char **after, char *buf,
			  size_t size)
{
	const char *s = startswith(msg, prefix), *e;

	if (!s || !(e = strchr(s, '\'')) || (size_t)(e - s) >= size)
		return NULL;
	snprintf(buf, size, "%.*s", (int)(e - s), s);
	*after = e + 1;
	return buf;
}

static int trace_line(struct df_trace *t, const char *msg, struct df_trace_call **open, size_t *cap)
{
	char bus[DF_NAME_MAX + 1], drv[2 * DF_NAME_MAX + 2];
	const char *s, *after;
	char *fn;
	int r;

	if ((s = startswith(msg, "calling  "))) {
		struct df_trace_call *c, **slot;

		*open = NULL;
		fn = builtin_fn(s);
		if (!fn)
			return 0;
		t->ncalls_seen++;
		c = strmap_get(&t->by_fn, fn);
		if (c) {
			/* The same name twice: which one registered what cannot be told. */
			c->ambiguous = true;
			free(fn);
			*open = c;
			return 0;
		}
		slot = ARRAY_GROW(t->calls, *cap, t->n);
		c = calloc(1, sizeof(*c));
		if (!slot || !c) {
			free(c);
			free(fn);
			return -ENOMEM;
		}
		c->fn = fn;
		r = strmap_put(&t->by_fn, c->fn, c, NULL);
		if (r < 0) {
			call_release(c);
			free(c);
			return r;
		}
		t->calls[t->n++] = c;
		*open = c;
		return 0;
	}
	if (startswith(msg, "initcall ")) {
		if (*open && strstr(msg, " returned "))
			(*open)->returned = true;
		*open = NULL;
		return 0;
	}
	if (quoted(msg, "bus: '", &after, bus, sizeof(bus))) {
		if ((s = startswith(after, ": add driver "))) {
			t->registrations++;
			if (!*open || df_sysfs_name_check(s) < 0 || strlen(s) > DF_NAME_MAX)
				return 0;
			snprintf(drv, sizeof(drv), "%s:%s", bus, s);
			return strv_push_unique(&(*open)->drivers, drv);
		}
		if (streq(after, ": registered") && *open)
			return strv_push_unique(&(*open)->buses, bus);
		return 0;
	}
	if (quoted(msg, "device class '", &after, bus, sizeof(bus)) &&
	    streq(after, ": registering") && *open)
		return strv_push_unique(&(*open)->classes, bus);
	return 0;
}

/*
 * @buf holds /dev/kmsg records, "PRI,SEQ,USEC,FLAGS[,...];MESSAGE", each on a
 * line, continuation lines (" KEY=VALUE") after them; anything else is skipped.
 */
int df_trace_parse(struct df_trace *t, char *buf)
{
	struct df_trace_call *open = NULL;
	size_t cap = 0;
	bool first = true;
	int r = 0;

	*t = (struct df_trace){ 0 };
	for (char *line = buf, *next; line && *line && r >= 0; line = next) {
		char *msg, *comma;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		msg = strchr(line, ';');
		if (line[0] == ' ' || !msg || !(comma = strchr(line, ',')) || comma > msg)
			continue;
		*msg++ = '\0';
		t->records++;
		if (first) {
			/* The ring buffer's first record is number 0 unless older ones were lost. */
			t->from_start = strtoul(comma + 1, NULL, 10) == 0;
			first = false;
		}
		r = trace_line(t, msg, &open, &cap);
	}
	if (r < 0)
		df_trace_release(t);
	return r;
}

/* The running kernel's /dev/kmsg, one record per read(2), until there is no more. */
static int read_kmsg_device(int fd, struct strbuf *sb)
{
	char rec[8192 + 1];

	for (;;) {
		ssize_t n = read(fd, rec, sizeof(rec) - 1);
		int r;

		if (n < 0 && (errno == EINTR || errno == EPIPE))
			continue; /* EPIPE: records overwritten while reading; go on with the next */
		if (n < 0 && errno == EAGAIN)
			return 0;
		if (n < 0)
			return -errno;
		if (n == 0)
			return 0;
		r = strbuf_appendn(sb, rec, (size_t)n);
		if (r == 0 && rec[n - 1] != '\n')
			r = strbuf_appendc(sb, '\n');
		if (r < 0)
			return r;
		if (sb->len > DF_KMSG_SIZE_MAX)
			return -EFBIG;
	}
}

int df_kmsg_read(struct df_ctx *ctx, char **ret, size_t *ret_len)
{
	_cleanup_free_ char *path = df_ctx_path(ctx, "/dev/kmsg");
	_cleanup_close_ int fd = -1;
	struct strbuf sb = STRBUF_INIT;
	struct stat st;
	int r;

	if (!path)
		return -ENOMEM;
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0)
		return -errno;
	if (S_ISREG(st.st_mode))
		return df_read_full_fd(fd, DF_KMSG_SIZE_MAX, ret, ret_len);
	if (!S_ISCHR(st.st_mode))
		return -EBADF;
	r = read_kmsg_device(fd, &sb);
	if (r < 0) {
		strbuf_release(&sb);
		return r;
	}
	*ret_len = sb.len;
	*ret = strbuf_steal(&sb);
	return *ret ? 0 : -ENOMEM;
}

int df_trace_load(struct df_ctx *ctx, struct df_trace *t)
{
	_cleanup_free_ char *buf = NULL;
	size_t len;
	int r;

	*t = (struct df_trace){ 0 };
	r = df_kmsg_read(ctx, &buf, &len);
	if (r < 0)
		return r;
	return df_trace_parse(t, buf);
}

/* ---- init functions of loadable modules ---- */

#define ELF_PART_MAX (64u * 1024 * 1024)

static int pread_all(int fd, void *buf, size_t size, off_t off)
{
	size_t done = 0;

	while (done < size) {
		ssize_t n = pread(fd, (char *)buf + done, size - done, off + (off_t)done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return -EBADMSG;
		done += (size_t)n;
	}
	return 0;
}

/* A part of the file, bounds checked, as a new buffer (NUL-terminated for string tables). */
static int read_part(int fd, off_t file_size, uint64_t off, uint64_t size, void **ret)
{
	char *buf;
	int r;

	if (size > ELF_PART_MAX || off > (uint64_t)file_size || size > (uint64_t)file_size - off)
		return -EBADMSG;
	buf = malloc(size + 1);
	if (!buf)
		return -ENOMEM;
	r = pread_all(fd, buf, size, (off_t)off);
	if (r < 0) {
		free(buf);
		return r;
	}
	buf[size] = '\0';
	*ret = buf;
	return 0;
}

/* Decompressed modules (.ko.xz) bigger than this are not read. */
#define XZ_OUT_MAX (256u * 1024 * 1024)
/* liblzma's memory for decoding; the kernel's xz modules need a few MiB (kmod's preset). */
#define XZ_MEMLIMIT (128u * 1024 * 1024)

/*
 * An xz-compressed module (Debian's 6.12 kernels compress with xz) decoded into
 * an anonymous memory file, for the ELF reader below: the fd, or -errno
 * (-EBADMSG: not a valid xz stream, or one that decodes to too much).
 */
static int xz_to_memfd(int in)
{
	_cleanup_close_ int out = memfd_create("drvfilter-module", MFD_CLOEXEC);
	lzma_stream s = LZMA_STREAM_INIT;
	uint8_t ibuf[65536], obuf[65536];
	uint64_t total = 0;
	off_t off = 0;
	lzma_ret lr;
	int r = 0;

	if (out < 0)
		return -errno;
	if (lzma_stream_decoder(&s, XZ_MEMLIMIT, LZMA_CONCATENATED) != LZMA_OK)
		return -ENOMEM;
	for (;;) {
		lzma_action action = LZMA_RUN;

		if (s.avail_in == 0) {
			ssize_t n = pread(in, ibuf, sizeof(ibuf), off);

			if (n < 0 && errno == EINTR)
				continue;
			if (n < 0) {
				r = -errno;
				break;
			}
			off += n;
			s.next_in = ibuf;
			s.avail_in = (size_t)n;
			if (n == 0)
				action = LZMA_FINISH;
		}
		s.next_out = obuf;
		s.avail_out = sizeof(obuf);
		lr = lzma_code(&s, action);
		if (lr != LZMA_OK && lr != LZMA_STREAM_END) {
			r = lr == LZMA_MEM_ERROR ? -ENOMEM : -EBADMSG;
			break;
		}
		total += sizeof(obuf) - s.avail_out;
		if (total > XZ_OUT_MAX) {
			r = -EBADMSG;
			break;
		}
		for (size_t done = 0, want = sizeof(obuf) - s.avail_out; done < want;) {
			ssize_t n = write(out, obuf + done, want - done);

			if (n < 0 && errno == EINTR)
				continue;
			if (n < 0) {
				r = -errno;
				break;
			}
			done += (size_t)n;
		}
		/* A stream cut short ends in LZMA_BUF_ERROR, above. */
		if (r < 0 || lr == LZMA_STREAM_END)
			break;
	}
	lzma_end(&s);
	if (r < 0)
		return r;
	r = out;
	out = -1;
	return r;
}

static int elf_init_names(int fd, struct strv *names);

/*
 * The names of the function module_init() gave, from a relocatable ELF64
 * module: the FUNC symbols at init_module's address (module_init() makes
 * init_module an alias of it). An xz-compressed module is decoded first;
 * other compressed ones (.ko.zst, .ko.gz) are -EPROTONOSUPPORT.
 */
int df_module_init_names(const char *path, struct strv *names)
{
	static const unsigned char xz_magic[6] = { 0xfd, '7', 'z', 'X', 'Z', 0x00 };
	_cleanup_close_ int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	_cleanup_close_ int elf = -1;
	unsigned char magic[6];
	struct stat st;
	int r;

	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0)
		return -errno;
	if (!S_ISREG(st.st_mode))
		return -EBADMSG;
	/* The magic first: ELF, xz, or a format not read, however short. */
	r = pread_all(fd, magic, sizeof(magic), 0);
	if (r == 0 && memcmp(magic, xz_magic, sizeof(xz_magic)) == 0) {
		elf = xz_to_memfd(fd);
		if (elf < 0)
			return elf;
		return elf_init_names(elf, names);
	}
	if (r < 0 && r != -EBADMSG)
		return r;
	return elf_init_names(fd, names);
}

/* df_module_init_names() on an open, uncompressed file. */
static int elf_init_names(int fd, struct strv *names)
{
	_cleanup_free_ Elf64_Shdr *sh = NULL;
	_cleanup_free_ Elf64_Sym *syms = NULL;
	_cleanup_free_ char *strtab = NULL;
	const Elf64_Sym *init = NULL;
	Elf64_Ehdr eh;
	struct stat st;
	size_t nsyms;
	int r, symtab = -1;

	if (fstat(fd, &st) < 0)
		return -errno;
	r = pread_all(fd, &eh, SELFMAG, 0);
	if (r < 0 || memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0)
		return -EPROTONOSUPPORT;
	r = pread_all(fd, &eh, sizeof(eh), 0);
	if (r < 0)
		return r;
	if (eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_ident[EI_DATA] != ELFDATA2LSB ||
	    eh.e_shentsize != sizeof(Elf64_Shdr) || eh.e_shnum == 0)
		return -EBADMSG;
	r = read_part(fd, st.st_size, eh.e_shoff, (uint64_t)eh.e_shnum * sizeof(Elf64_Shdr),
		      (void **)&sh);
	if (r < 0)
		return r;
	for (int i = 0; i < eh.e_shnum; i++)
		if (sh[i].sh_type == SHT_SYMTAB)
			symtab = i;
	if (symtab < 0 || sh[symtab].sh_link >= eh.e_shnum ||
	    sh[symtab].sh_entsize != sizeof(Elf64_Sym))
		return -EBADMSG;
	r = read_part(fd, st.st_size, sh[symtab].sh_offset, sh[symtab].sh_size, (void **)&syms);
	if (r == 0)
		r = read_part(fd, st.st_size, sh[sh[symtab].sh_link].sh_offset,
			      sh[sh[symtab].sh_link].sh_size, (void **)&strtab);
	if (r < 0)
		return r;
	nsyms = sh[symtab].sh_size / sizeof(Elf64_Sym);
	for (size_t i = 0; i < nsyms; i++)
		if (syms[i].st_name < sh[sh[symtab].sh_link].sh_size &&
		    streq(strtab + syms[i].st_name, "init_module"))
			init = &syms[i];
	if (!init)
		return 0; /* no module_init(): nothing runs at load */
	for (size_t i = 0; i < nsyms; i++) {
		const char *name;

		if (&syms[i] == init || ELF64_ST_TYPE(syms[i].st_info) != STT_FUNC ||
		    syms[i].st_shndx != init->st_shndx || syms[i].st_value != init->st_value ||
		    syms[i].st_name >= sh[sh[symtab].sh_link].sh_size)
			continue;
		name = strtab + syms[i].st_name;
		if (*name && (r = strv_push_unique(names, name)) < 0)
			return r;
	}
	return 0;
}
