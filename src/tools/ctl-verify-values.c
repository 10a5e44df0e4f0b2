// SPDX-License-Identifier: GPL-2.0-only
/*
 * What drvfilterctl verify reads: the files it is given (a path, or '-' for
 * standard input), and in them the register values the event log's replay
 * must reach: the SHA-256 PCRs as tpm2_pcrread and tpm2_checkquote print
 * them, an RTMR as sysfs gives it or in hex.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "ctl-verify.h"
#include "ctl.h"
#include "log.h"
#include "macro.h"

#define VALUES_SIZE_MAX (1024 * 1024)

int verify_read_file(const char *path, size_t max, char **buf, size_t *len)
{
	_cleanup_close_ int fd =
		streq(path, "-") ? dup(STDIN_FILENO) : open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	int r;

	if (fd < 0) {
		r = -errno;
		return log_error_errno(r, "cannot open '%s': %m", path);
	}
	r = df_read_full_fd(fd, max, buf, len);
	if (r < 0)
		log_error_errno(r, "cannot read '%s': %m", path);
	return r;
}

int verify_parse_pcrs(const char *path, struct pcr_values *pv)
{
	_cleanup_free_ char *buf = NULL;
	char *line, *save = NULL, *start;
	bool in_sha256 = false, seen_sha256 = false;
	size_t len;
	int r = verify_read_file(path, VALUES_SIZE_MAX, &buf, &len);

	*pv = (struct pcr_values){ 0 };
	if (r < 0)
		return r;
	/*
	 * tpm2_eventlog prints the events first, the replay last under a
	 * top-level "pcrs:": an event's text must not be taken for a value.
	 */
	start = buf;
	if (strncmp(buf, "pcrs:\n", 6) == 0)
		start = buf + 6;
	else if ((line = strstr(buf, "\npcrs:\n")))
		start = line + 7;
	for (line = strtok_r(start, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char bank[16], hex[80];
		unsigned idx;

		if (sscanf(line, " %15[a-z0-9_]%1[:]", bank, hex) == 2 && !strchr(line, 'x')) {
			in_sha256 = streq(bank, "sha256");
			if (in_sha256 && seen_sha256) {
				log_error("'%s' holds the SHA-256 bank twice", path);
				return -EINVAL;
			}
			seen_sha256 |= in_sha256;
			continue;
		}
		if (!in_sha256 || sscanf(line, " %u : 0x%79[0-9A-Fa-f]", &idx, hex) != 2)
			continue;
		if (idx >= NPCRS || df_unhex(hex, pv->v[idx], 32) < 0) {
			log_error("'%s': PCR %u: not a SHA-256 value", path, idx);
			return -EINVAL;
		}
		if (pv->have[idx]) {
			log_error("'%s' gives PCR %u twice", path, idx);
			return -EINVAL;
		}
		pv->have[idx] = true;
	}
	return 0;
}

int verify_parse_rtmr(const char *path, uint8_t v[48])
{
	_cleanup_free_ char *buf = NULL;
	char hex[97];
	size_t len, k = 0;
	int r = verify_read_file(path, VALUES_SIZE_MAX, &buf, &len);

	if (r < 0)
		return r;
	if (len == 48) {
		memcpy(v, buf, 48);
		return 0;
	}
	for (size_t i = 0; i < len; i++) {
		if (buf[i] == 'x' && i > 0 && buf[i - 1] == '0' && k == 1) {
			k = 0;
			continue;
		}
		if (buf[i] == ' ' || buf[i] == '\n' || buf[i] == '\t')
			continue;
		if (k == 96)
			break;
		hex[k++] = buf[i];
	}
	hex[k] = '\0';
	if (k != 96 || df_unhex(hex, v, 48) < 0) {
		log_error("'%s' holds no RTMR value (48 bytes, or 96 hex digits)", path);
		return -EINVAL;
	}
	return 0;
}
