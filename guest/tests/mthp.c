// SPDX-License-Identifier: GPL-2.0
/*
 * mthp: how 64 KiB mTHP folios go out to swap (scripts/bench/bench-mthp.sh).
 *
 * With 64 KiB anonymous mTHP on ("always"; PMD-sized THP off), MTHP_MB of
 * patterned memory is paged out with MADV_PAGEOUT and read back, over:
 *  - one zram device;
 *  - four zram devices of one priority;
 *  - a device whose free slots are scattered (filled with order-0 pages,
 *    then every 16th page freed: no 64 KiB run is left) beside an empty
 *    device of the same priority;
 *  - four such scattered devices of one priority, where no folio fits
 *    whole anywhere (the cost of trying each device before the split).
 * For each, the deltas of the hugepages-64kB stats swpout (folios written
 * whole) and swpout_fallback (split first), and the time MADV_PAGEOUT took
 * (pageout_us), go to "# mthp" lines; the verdict is that every page comes
 * back intact.  The settings are put back at the end.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <sys/mman.h>

#include "guest.h"

static long stat64k(const char *name)
{
	char path[128];

	snprintf(path, sizeof(path), MTHP "/stats/%s", name);
	return read_long(path);
}

/* A zram device of @mb MiB swapped on at priority 5; its id, or -1. */
static int zram_on(unsigned long mb)
{
	char path[32];

	return zram_swapon(mb, 5, path, sizeof(path));
}

/*
 * @nr order-0 pages written to swap from a new mapping, *@pre, then every
 * 16th one freed, so that no 64 KiB run of free slots is left where they
 * went.
 */
static int scatter(char **pre, unsigned long nr, uint64_t seed)
{
	unsigned long i;

	*pre = mmap(NULL, nr * ps, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (*pre == MAP_FAILED || madvise(*pre, nr * ps, MADV_NOHUGEPAGE))
		return -1;
	pattern_fill(*pre, nr, seed);
	madvise(*pre, nr * ps, MADV_PAGEOUT);
	for (i = 0; i < nr; i += 16)
		madvise(*pre + i * ps, ps, MADV_DONTNEED);
	return 0;
}

/* Page out and back @mb of 64 KiB folios; report the stats' deltas. */
static int run(const char *what, unsigned long mb, uint64_t seed)
{
	unsigned long nr = mb * MIB / ps;
	long out0 = stat64k("swpout"), fb0 = stat64k("swpout_fallback");
	long alloc0 = stat64k("anon_fault_alloc");
	char *buf = mmap(NULL, mb * MIB, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	unsigned long bad;
	double t0;

	if (buf == MAP_FAILED)
		return -1;
	pattern_fill(buf, nr, seed);
	t0 = now_s();
	madvise(buf, mb * MIB, MADV_PAGEOUT);
	printf("# mthp %s: faulted=%ld swpout=%ld swpout_fallback=%ld pageout_us=%.0f\n",
	       what, stat64k("anon_fault_alloc") - alloc0, stat64k("swpout") - out0,
	       stat64k("swpout_fallback") - fb0, (now_s() - t0) * 1e6);
	bad = pattern_bad(buf, nr, seed);
	munmap(buf, mb * MIB);
	tap(!bad, "%s # %lu pages wrong", what, bad);
	return 0;
}

int main(void)
{
	unsigned long mb = env_ulong("MTHP_MB", 128), nr;
	int ids[4], i4, x, y;
	char *pre;

	ps = sysconf(_SC_PAGESIZE);
	printf("TAP version 13\n1..4\n");
	zram_load();
	if (mthp_only())
		return 1;

	x = zram_on(2 * mb);
	if (x < 0) {
		printf("Bail out! no zram swap\n");
		return 1;
	}
	run("one_device", mb, 1);
	zram_swapoff(x);

	for (i4 = 0; i4 < 4; i4++)
		ids[i4] = zram_on(mb);
	run("four_devices", mb, 2);
	for (i4 = 0; i4 < 4; i4++)
		if (ids[i4] >= 0)
			zram_swapoff(ids[i4]);

	/* X: nearly full of order-0 pages, then every 16th one freed. */
	x = zram_on(mb / 2);
	nr = (mb / 2) * MIB / ps - 64;
	if (x < 0 || scatter(&pre, nr, 3)) {
		printf("Bail out! cannot set up the scattered device\n");
		return 1;
	}
	y = zram_on(2 * mb);
	run("scattered_beside_empty", mb / 4, 4);
	munmap(pre, nr * ps);
	zram_swapoff(y);
	zram_swapoff(x);

	/*
	 * Four devices of one priority, filled with more order-0 pages than
	 * they take, then scattered: no folio fits whole on any of them.
	 */
	for (i4 = 0; i4 < 4; i4++)
		ids[i4] = zram_on(mb / 4);
	nr = (mb + 4) * MIB / ps;
	if (ids[3] < 0 || scatter(&pre, nr, 5)) {
		printf("Bail out! cannot set up the scattered devices\n");
		return 1;
	}
	run("none_fits", mb / 32, 6);
	munmap(pre, nr * ps);
	for (i4 = 0; i4 < 4; i4++)
		zram_swapoff(ids[i4]);

	mthp_restore();
	return nfailed ? 1 : 0;
}
