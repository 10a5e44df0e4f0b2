// SPDX-License-Identifier: GPL-2.0-only
/*
 * The init functions of loadable modules, read from their ELF files (xz
 * compressed or not): a name initcall_blacklist= skips must not also be one a
 * module's init goes by, or that module would never start either.
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <lzma.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "strv.h"
#include "system/system-private.h"

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
