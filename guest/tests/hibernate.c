// SPDX-License-Identifier: GPL-2.0
/*
 * hibernate: the first half of the hibernation round trip that
 * scripts/check/hibernate.sh drives (make check-full).  It swaps on the whole
 * virtio-blk disk /dev/vda, fills HIBERNATE_MB (256) of memory with a
 * pattern, and hibernates in "reboot" mode: the kernel writes its image to
 * the disk through the hibernation slot allocator and the guest ends.  The
 * next boot, with resume=/dev/vda, resumes the image, and this program
 * returns from its write to /sys/power/state: it then checks every page
 * and swaps the disk off.  If that boot does not resume, its init runs
 * resume-missed instead, which fails.
 *
 * Before the pattern goes in, it times the hibernation slot allocator on
 * its own: /dev/snapshot's SNAPSHOT_ALLOC_SWAP_PAGE takes one slot per
 * call through alloc_swapdev_block(), the path the image write takes for
 * each page, without the disk's time around it.  SLOT_ROUNDS (7) rounds
 * of SLOT_MB (256) of slots, each slot checked (on the disk, page
 * aligned, not handed out twice) and all of them given back with
 * SNAPSHOT_FREE_SWAP_PAGES; the median round's time per slot is printed
 * for scripts/check/hibernate.sh to compare base with patched, beside the time
 * of an ioctl that takes the same locks and allocates nothing
 * (SNAPSHOT_GET_IMAGE_SIZE before an image exists).
 */
#define _GNU_SOURCE
#include <linux/suspend_ioctls.h>
#include <stdint.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/swap.h>

#include "guest.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Nanoseconds per call of @calls calls since @t0 (now_s()). */
static double ns_per_call(double t0, unsigned long calls)
{
	return (now_s() - t0) * 1e9 / (calls ? calls : 1);
}

/*
 * Allocate SLOT_MB of hibernation slots on @dev (@pages long) one ioctl
 * at a time, SLOT_ROUNDS times; one TAP line for the slots' correctness
 * and a "# hibslot:" line with the median nanoseconds per slot.
 */
static void slot_bench(const char *dev, unsigned long pages)
{
	unsigned long n = env_ulong("SLOT_MB", 256) * MIB / ps;
	int rounds = env_ulong("SLOT_ROUNDS", 7), r, fd;
	struct resume_swap_area area = { 0 };
	unsigned long i, bad = 0, left = 0;
	long used0 = swaps_used_kb(dev);
	double ns[64], null[64], t0;
	unsigned char *seen;
	struct stat st;
	loff_t off;

	if (rounds < 1 || rounds > 64)
		rounds = 7;
	seen = calloc(pages, 1);
	fd = open("/dev/snapshot", O_RDONLY);
	if (!seen || fd < 0 || stat(dev, &st)) {
		tap(0, "hibernation slots: no memory, /dev/snapshot or %s: %s",
		    dev, strerror(errno));
		return;
	}
	area.dev = st.st_rdev;	/* new_encode_dev() for majors < 4096 */
	if (ioctl(fd, SNAPSHOT_SET_SWAP_AREA, &area)) {
		tap(0, "hibernation slots: SNAPSHOT_SET_SWAP_AREA %s: %s",
		    dev, strerror(errno));
		close(fd);
		free(seen);
		return;
	}
	for (r = 0; r < rounds; r++) {
		memset(seen, 0, pages);
		t0 = now_s();
		for (i = 0; i < n; i++) {
			if (ioctl(fd, SNAPSHOT_ALLOC_SWAP_PAGE, &off))
				break;
			off /= ps;
			if (off <= 0 || (unsigned long)off >= pages || seen[off]++)
				bad++;
		}
		ns[r] = ns_per_call(t0, i);
		if (i < n) {
			printf("# round %d: slot %lu of %lu: %s\n", r, i, n,
			       strerror(errno));
			bad++;
		}
		if (ioctl(fd, SNAPSHOT_FREE_SWAP_PAGES))
			bad++;
		left += swaps_used_kb(dev) != used0;
	}
	/* The ioctl's own path: same locks, no image yet, so -ENODATA. */
	for (r = 0; r < rounds; r++) {
		t0 = now_s();
		for (i = 0; i < n; i++)
			if (ioctl(fd, SNAPSHOT_GET_IMAGE_SIZE, &off) != -1 ||
			    errno != ENODATA)
				break;
		null[r] = ns_per_call(t0, i);
	}
	close(fd);
	free(seen);
	tap(!bad && !left,
	    "hibernation slots: %d rounds of %lu, each on the disk and handed out once (%lu wrong), all given back (%lu rounds not)",
	    rounds, n, bad, left);
	qsort(ns, rounds, sizeof(ns[0]), cmp_double);
	qsort(null, rounds, sizeof(null[0]), cmp_double);
	printf("# hibslot: %lu slots, %.1f ns per slot (median of %d rounds, %.1f..%.1f), %.1f ns per ioctl that allocates nothing\n",
	       n, ns[rounds / 2], rounds, ns[0], ns[rounds - 1], null[rounds / 2]);
}

int main(void)
{
	unsigned long mb = env_ulong("HIBERNATE_MB", 256);
	unsigned long nr, bad;
	long sectors;
	char *buf;
	int err;

	ps = sysconf(_SC_PAGESIZE);
	nr = mb * MIB / ps;
	printf("TAP version 13\n1..3\n");
	sectors = read_long("/sys/block/vda/size");
	if (sectors <= 0 || mkswap("/dev/vda", sectors / 2048) ||
	    swapon("/dev/vda", 0)) {
		printf("Bail out! no swap on /dev/vda (a virtio-blk disk)\n");
		return 1;
	}
	slot_bench("/dev/vda", sectors / (ps / 512));
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
