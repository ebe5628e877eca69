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
 *    device of the same priority.
 * For each, the deltas of the hugepages-64kB stats swpout (folios written
 * whole) and swpout_fallback (split first) go to "# mthp" lines; the
 * verdict is that every page comes back intact.  The settings are put
 * back at the end.
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

/* Page out and back @mb of 64 KiB folios; report the stats' deltas. */
static int run(const char *what, unsigned long mb, uint64_t seed)
{
	unsigned long nr = mb * MIB / ps;
	long out0 = stat64k("swpout"), fb0 = stat64k("swpout_fallback");
	long alloc0 = stat64k("anon_fault_alloc");
	char *buf = mmap(NULL, mb * MIB, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	unsigned long bad;

	if (buf == MAP_FAILED)
		return -1;
	pattern_fill(buf, nr, seed);
	madvise(buf, mb * MIB, MADV_PAGEOUT);
	printf("# mthp %s: faulted=%ld swpout=%ld swpout_fallback=%ld\n", what,
	       stat64k("anon_fault_alloc") - alloc0, stat64k("swpout") - out0,
	       stat64k("swpout_fallback") - fb0);
	bad = pattern_bad(buf, nr, seed);
	munmap(buf, mb * MIB);
	tap(!bad, "%s # %lu pages wrong", what, bad);
	return 0;
}

int main(void)
{
	unsigned long mb = env_ulong("MTHP_MB", 128), nr, i;
	int ids[4], i4, x, y;
	char *pre;

	ps = sysconf(_SC_PAGESIZE);
	printf("TAP version 13\n1..3\n");
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

	/* X: full of order-0 pages, then every 16th one freed. */
	x = zram_on(mb / 2);
	nr = (mb / 2) * MIB / ps - 64;
	pre = mmap(NULL, nr * ps, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (x < 0 || pre == MAP_FAILED ||
	    madvise(pre, nr * ps, MADV_NOHUGEPAGE)) {
		printf("Bail out! cannot set up the scattered device\n");
		return 1;
	}
	pattern_fill(pre, nr, 3);
	madvise(pre, nr * ps, MADV_PAGEOUT);
	for (i = 0; i < nr; i += 16)
		madvise(pre + i * ps, ps, MADV_DONTNEED);
	y = zram_on(2 * mb);
	run("scattered_beside_empty", mb / 4, 4);
	munmap(pre, nr * ps);
	zram_swapoff(y);
	zram_swapoff(x);

	mthp_restore();
	return nfailed ? 1 : 0;
}
