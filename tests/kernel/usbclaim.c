// SPDX-License-Identifier: GPL-2.0-only
/*
 * usbclaim: claim a USB interface through usbfs, as a userspace driver does,
 * for the kernel test guest (busybox has no usbfs ioctl). Built static by
 * run-test.sh.
 *   usbclaim DEVICE-NODE INTERFACE [claim|disconnect-claim]
 * Exit status 0 when the claim was taken (it is released again), 1 with the
 * error on stderr, 2 for a usage error.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/usbdevice_fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	unsigned int ifnum;
	char *end;
	int fd, r;

	if (argc < 3 || argc > 4 ||
	    (argc == 4 && strcmp(argv[3], "claim") && strcmp(argv[3], "disconnect-claim"))) {
		fprintf(stderr, "usage: usbclaim DEVICE-NODE INTERFACE [claim|disconnect-claim]\n");
		return 2;
	}
	errno = 0;
	ifnum = strtoul(argv[2], &end, 10);
	if (errno || end == argv[2] || *end) {
		fprintf(stderr, "usbclaim: not an interface number: %s\n", argv[2]);
		return 2;
	}
	fd = open(argv[1], O_RDWR);
	if (fd < 0) {
		fprintf(stderr, "usbclaim: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	if (argc == 4 && !strcmp(argv[3], "disconnect-claim")) {
		struct usbdevfs_disconnect_claim dc = { .interface = ifnum };

		r = ioctl(fd, USBDEVFS_DISCONNECT_CLAIM, &dc);
	} else {
		r = ioctl(fd, USBDEVFS_CLAIMINTERFACE, &ifnum);
	}
	if (r < 0) {
		fprintf(stderr, "usbclaim: %s interface %u: %s\n", argv[1], ifnum, strerror(errno));
		close(fd);
		return 1;
	}
	printf("claimed %s interface %u\n", argv[1], ifnum);
	ioctl(fd, USBDEVFS_RELEASEINTERFACE, &ifnum);
	close(fd);
	return 0;
}
