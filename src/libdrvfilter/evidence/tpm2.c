// SPDX-License-Identifier: GPL-2.0-only
/*
 * The one TPM 2.0 command apply needs, TPM2_PCR_Event, marshalled by hand
 * and sent through the kernel's resource manager (/dev/tpmrm0): the TPM
 * hashes the event in every PCR bank it has allocated, extends them all and
 * answers with the digests, which go into the event log as they are. No
 * TSS library: the command is 34 bytes plus the event, the answer a list of
 * digests, and the initramfs has a size budget.
 *
 * Nothing here may hang the boot: the device is opened O_NONBLOCK (the
 * kernel then runs the command in the background and poll(2) says when the
 * answer is there), and every wait has a deadline.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdint.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "evidence/evidence-private.h"
#include "time-util.h"

#define TPM_ST_NO_SESSIONS 0x8001
#define TPM_ST_SESSIONS 0x8002
#define TPM_CC_PCR_EVENT 0x0000013c
#define TPM_RS_PW 0x40000009
#define TPM_HEADER_SIZE 10
#define TPM_RESPONSE_MAX 4096

static const struct df_tpm_alg {
	uint16_t id;
	const char *name; /* as systemd's tpm2-measure.log spells it */
	size_t size;
} tpm_algs[] = {
	{ 0x0004, "sha1", 20 },	    { 0x000b, "sha256", 32 },	{ 0x000c, "sha384", 48 },
	{ 0x000d, "sha512", 64 },   { 0x0012, "sm3_256", 32 },	{ 0x0027, "sha3_256", 32 },
	{ 0x0028, "sha3_384", 48 }, { 0x0029, "sha3_512", 64 },
};

static const struct df_tpm_alg *tpm_alg(uint16_t id)
{
	for (size_t i = 0; i < sizeof(tpm_algs) / sizeof(tpm_algs[0]); i++)
		if (tpm_algs[i].id == id)
			return &tpm_algs[i];
	return NULL;
}

static void put16(uint8_t **p, uint16_t v)
{
	*(*p)++ = (uint8_t)(v >> 8);
	*(*p)++ = (uint8_t)v;
}

static void put32(uint8_t **p, uint32_t v)
{
	put16(p, (uint16_t)(v >> 16));
	put16(p, (uint16_t)v);
}

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static uint16_t get16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

size_t df_tpm_pcr_event_command(unsigned pcr, const char *event, size_t len, uint8_t *buf)
{
	uint8_t *p = buf;

	put16(&p, TPM_ST_SESSIONS);
	put32(&p, (uint32_t)(DF_TPM_COMMAND_HEAD + len));
	put32(&p, TPM_CC_PCR_EVENT);
	put32(&p, pcr); /* a PCR's handle is its number */
	/* One password session with the PCR's empty authValue. */
	put32(&p, 9);
	put32(&p, TPM_RS_PW);
	put16(&p, 0); /* nonce */
	*p++ = 0; /* session attributes */
	put16(&p, 0); /* hmac */
	put16(&p, (uint16_t)len);
	memcpy(p, event, len);
	return DF_TPM_COMMAND_HEAD + len;
}

int df_tpm_pcr_event_response(const uint8_t *rsp, size_t len, struct df_tpm_digests *ret,
			      uint32_t *rc)
{
	const uint8_t *p, *end;
	uint32_t count;

	*rc = 0;
	if (len < TPM_HEADER_SIZE || get32(rsp + 2) != len)
		return -EBADMSG;
	*rc = get32(rsp + 6);
	if (*rc != 0)
		return -EREMOTEIO;
	/* tag, size, code, the parameters' size, then TPML_DIGEST_VALUES. */
	if (get16(rsp) != TPM_ST_SESSIONS || len < TPM_HEADER_SIZE + 8)
		return -EBADMSG;
	p = rsp + TPM_HEADER_SIZE;
	if (get32(p) > len - TPM_HEADER_SIZE - 4)
		return -EBADMSG;
	end = p + 4 + get32(p);
	p += 4;
	count = get32(p);
	p += 4;
	if (count == 0 || count > DF_TPM_BANKS_MAX)
		return -EBADMSG;
	ret->n = 0;
	for (uint32_t i = 0; i < count; i++) {
		const struct df_tpm_alg *a;

		if (end - p < 2)
			return -EBADMSG;
		a = tpm_alg(get16(p));
		/* A bank whose digest size is unknown cannot be skipped over. */
		if (!a)
			return -EPROTONOSUPPORT;
		p += 2;
		if ((size_t)(end - p) < a->size)
			return -EBADMSG;
		ret->d[i].alg = a->id;
		ret->d[i].name = a->name;
		ret->d[i].size = a->size;
		memcpy(ret->d[i].digest, p, a->size);
		p += a->size;
		ret->n++;
	}
	return p == end ? 0 : -EBADMSG;
}

static int wait_for(int fd, short events, long long deadline)
{
	for (;;) {
		long long left = deadline - now_usec(CLOCK_MONOTONIC);
		struct pollfd pfd = { .fd = fd, .events = events };
		int n;

		if (left <= 0)
			return -ETIMEDOUT;
		n = poll(&pfd, 1, (int)((left + 999) / 1000));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n > 0 && (pfd.revents & (POLLERR | POLLNVAL)))
			return -EIO;
		if (n > 0)
			return 0;
	}
}

/*
 * The TPM at @path: its character device, or, under a sysroot only, a UNIX
 * socket that speaks the same command stream (swtpm's, in the tests).
 */
static int tpm_open(const struct df_ctx *ctx, const char *path)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct stat st;
	int fd;

	if (df_ctx_get_sysroot(ctx) && stat(path, &st) == 0 && S_ISSOCK(st.st_mode)) {
		if (strlen(path) >= sizeof(sa.sun_path))
			return -ENAMETOOLONG;
		strcpy(sa.sun_path, path);
		fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
		if (fd < 0)
			return -errno;
		if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
			int r = -errno;

			close(fd);
			return r;
		}
		return fd;
	}
	fd = open(path, O_RDWR | O_CLOEXEC | O_NOCTTY | O_NOFOLLOW | O_NONBLOCK);
	if (fd < 0)
		return -errno;
	/* A plain file or a FIFO planted there is no TPM: nothing is written to it. */
	if (fstat(fd, &st) < 0 || !S_ISCHR(st.st_mode)) {
		close(fd);
		return -ENOTTY;
	}
	return fd;
}

int df_tpm_transact(const struct df_ctx *ctx, const char *path, const uint8_t *cmd, size_t len,
		    uint8_t *rsp, size_t size, long long timeout_usec)
{
	long long deadline = now_usec(CLOCK_MONOTONIC) + timeout_usec;
	_cleanup_close_ int fd = tpm_open(ctx, path);
	size_t done = 0, want = TPM_HEADER_SIZE;
	int r;

	if (fd < 0)
		return fd;
	while (done < len) {
		ssize_t n = write(fd, cmd + done, len - done);

		if (n < 0 && errno == EAGAIN)
			r = wait_for(fd, POLLOUT, deadline);
		else if (n < 0 && errno != EINTR)
			r = -errno;
		else
			r = 0;
		if (r < 0)
			return r;
		if (n > 0)
			done += (size_t)n;
	}
	/* The answer: its header says how long it is. */
	done = 0;
	while (done < want) {
		ssize_t n;

		r = wait_for(fd, POLLIN, deadline);
		if (r < 0)
			return r;
		n = read(fd, rsp + done, size - done);
		if (n < 0 && (errno == EAGAIN || errno == EINTR))
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return -EPIPE;
		done += (size_t)n;
		if (done >= TPM_HEADER_SIZE) {
			want = get32(rsp + 2);
			if (want < TPM_HEADER_SIZE || want > size)
				return -EBADMSG;
		}
	}
	return done == want ? (int)done : -EBADMSG;
}
