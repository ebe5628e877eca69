// SPDX-License-Identifier: GPL-2.0
/*
 * hibernate: the first half of the hibernation round trip that
 * scripts/hibernate.sh drives (make check-full).  It swaps on the whole
 * virtio-blk disk /dev/vda, fills HIBERNATE_MB (256) of memory with a
 * pattern, and hibernates in "reboot" mode: the kernel writes its image to
 * the disk through the hibernation slot allocator and the guest ends.  The
 * next boot, with resume=/dev/vda, resumes the image, and this program
 * returns from its write to /sys/power/state: it then checks every page
 * and swaps the disk off.  If that boot does not resume, its init runs
 * resume-missed instead, which fails.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <sys/mman.h>
#include <sys/swap.h>

#include "guest.h"

int main(void)
{
	unsigned long mb = env_ulong("HIBERNATE_MB", 256);
	unsigned long nr, bad;
	long sectors;
	char *buf;
	int err;

	ps = sysconf(_SC_PAGESIZE);
	nr = mb * MIB / ps;
	printf("TAP version 13\n1..2\n");
	sectors = read_long("/sys/block/vda/size");
	if (sectors <= 0 || mkswap("/dev/vda", sectors / 2048) ||
	    swapon("/dev/vda", 0)) {
		printf("Bail out! no swap on /dev/vda (a virtio-blk disk)\n");
		return 1;
	}
	buf = mmap(NULL, nr * ps, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	if (buf == MAP_FAILED) {
		printf("Bail out! cannot map %lu MiB\n", mb);
		return 1;
	}
	pattern_fill(buf, nr, 5);
	printf("# hibernating with %lu MiB of pattern to /dev/vda\n", mb);
	fflush(stdout);
	sync();
	/* Returns once the image is resumed, or at once if it cannot hibernate. */
	err = write_file("/sys/power/disk", "reboot");
	if (!err)
		err = write_file("/sys/power/state", "disk");
	tap(!err, "resumed from the image on /dev/vda%s%s",
	    err ? ": " : "", err ? strerror(-err) : "");
	bad = pattern_bad(buf, nr, 5);
	tap(!err && !bad, "%lu MiB intact after the round trip (%lu pages wrong)",
	    mb, bad);
	swapoff("/dev/vda");
	return nfailed ? 1 : 0;
}
