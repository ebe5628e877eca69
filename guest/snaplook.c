// SPDX-License-Identifier: GPL-2.0
/*
 * snaplook DEV: the hibernation device lookups a running machine can make
 * at any time, in a loop until SIGTERM.  Each round opens /dev/snapshot
 * for writing an image and names two swap areas with SNAPSHOT_SET_SWAP_AREA:
 * DEV, which must be found, and a device number no swap area has, which
 * must not (the lookup walks every swap device to say so).  On SIGTERM,
 * print "lookups N, wrong M" (the first wrong answer too) and exit 0 if
 * every answer was right and there was at least one round.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/suspend_ioctls.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

static volatile sig_atomic_t stop;

static void on_term(int sig)
{
	(void)sig;
	stop = 1;
}

int main(int argc, char **argv)
{
	struct resume_swap_area area = { 0 };
	unsigned long rounds = 0, wrong = 0;
	char first[160] = "";
	struct stat st;
	int fd, err;

	if (argc != 2 || stat(argv[1], &st) || !S_ISBLK(st.st_mode)) {
		fprintf(stderr, "usage: snaplook BLOCK-DEVICE\n");
		return 2;
	}
	signal(SIGTERM, on_term);
	while (!stop) {
		fd = open("/dev/snapshot", O_RDONLY);
		if (fd < 0) {
			if (errno == EBUSY || errno == EINTR)
				continue;
			fprintf(stderr, "snaplook: /dev/snapshot: %s\n",
				strerror(errno));
			return 2;
		}
		/* new_encode_dev() is the plain number for majors < 4096 */
		area.dev = st.st_rdev;
		err = ioctl(fd, SNAPSHOT_SET_SWAP_AREA, &area) ? errno : 0;
		if (err && !wrong++)
			snprintf(first, sizeof(first), "%s: %s", argv[1],
				 strerror(err));
		area.dev = makedev(0, 0xfffff);
		err = ioctl(fd, SNAPSHOT_SET_SWAP_AREA, &area) ? errno : 0;
		if (err != ENODEV && !wrong++)
			snprintf(first, sizeof(first), "0:1048575: %s",
				 err ? strerror(err) : "found");
		close(fd);
		rounds++;
	}
	printf("lookups %lu, wrong %lu%s%s\n", rounds, wrong,
	       wrong ? ", first: " : "", first);
	return wrong || !rounds;
}
