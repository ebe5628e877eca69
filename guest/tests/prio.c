// SPDX-License-Identifier: GPL-2.0
/*
 * prio: priority inversion after a higher-priority device has room again
 * (scripts/bench/bench-prio.sh).
 *
 * Two zram devices: H (HIGH_MB, priority 10) and L (priority 5).  The task
 * runs on one CPU.  For each order (order 0; 64 KiB mTHP):
 *  1. order-0 pages fill H (its size in pages, so H fills up and a page
 *     spills over to L);
 *  2. 1 MiB of the order goes out: to L, since H is full, so
 *     this CPU now allocates that order from an L cluster;
 *  3. the pages on H are unmapped: H has room for everything that follows;
 *  4. PROBE_MB of the order is paged out.
 * The "# prio" line gives how much of step 4 went to L (low_kb) and to H
 * (high_kb), from /proc/swaps.  Every slot on L is one a CPU took from a
 * lower priority while a higher one had room.  The verdict is that the
 * pages of steps 2 and 4 come back intact; the THP settings are put back.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <sys/mman.h>

#include "guest.h"

static char hpath[32], lpath[32];

/* @mb MiB of the pattern for @seed, paged out; order 0 if @small. */
static char *page_out(unsigned long mb, uint64_t seed, int small)
{
	char *buf = mmap(NULL, mb * MIB, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (buf == MAP_FAILED)
		return NULL;
	if (small && madvise(buf, mb * MIB, MADV_NOHUGEPAGE)) {
		munmap(buf, mb * MIB);
		return NULL;
	}
	pattern_fill(buf, mb * MIB / ps, seed);
	madvise(buf, mb * MIB, MADV_PAGEOUT);
	return buf;
}

/* Steps 1-4 for one order; 0, or -1 if the devices cannot be set up. */
static int scenario(const char *name, int small, unsigned long high_mb,
		    unsigned long probe_mb)
{
	int h = zram_swapon(high_mb, 10, hpath, sizeof(hpath));
	int l = zram_swapon(4 * (high_mb + probe_mb), 5, lpath,
			    sizeof(lpath));
	char *fill, *unit, *probe;
	long l0, h0, dl, dh;
	unsigned long bad;

	if (h < 0 || l < 0) {
		if (h >= 0)
			zram_swapoff(h);
		if (l >= 0)
			zram_swapoff(l);
		return -1;
	}
	fill = page_out(high_mb, 1, 1);
	unit = page_out(1, 2, small);
	if (!fill || !unit)
		return -1;
	munmap(fill, high_mb * MIB);
	l0 = swaps_used_kb(lpath);
	h0 = swaps_used_kb(hpath);
	probe = page_out(probe_mb, 3, small);
	if (!probe)
		return -1;
	dl = swaps_used_kb(lpath) - l0;
	dh = swaps_used_kb(hpath) - h0;
	printf("# prio %s: low_kb=%ld high_kb=%ld\n", name, dl, dh);
	bad = pattern_bad(unit, MIB / ps, 2) + pattern_bad(probe, probe_mb * MIB / ps, 3);
	tap(!bad && dl + dh > 0, "%s # %lu pages wrong, %ld kB swapped", name, bad, dl + dh);
	munmap(unit, MIB);
	munmap(probe, probe_mb * MIB);
	zram_swapoff(l);
	zram_swapoff(h);
	return 0;
}

int main(void)
{
	unsigned long high_mb = env_ulong("HIGH_MB", 16);
	unsigned long probe_mb = env_ulong("PROBE_MB", 4);
	cpu_set_t one;
	int ret = 0;

	ps = sysconf(_SC_PAGESIZE);
	printf("TAP version 13\n1..2\n");
	CPU_ZERO(&one);
	CPU_SET(0, &one);
	if (zram_load() || sched_setaffinity(0, sizeof(one), &one)) {
		printf("Bail out! no zram, or cannot stay on CPU 0\n");
		return 1;
	}
	if (mthp_only())
		return 1;
	if (scenario("order0", 1, high_mb, probe_mb) ||
	    scenario("64k", 0, high_mb, probe_mb)) {
		printf("Bail out! cannot set up the devices or the memory\n");
		ret = 1;
	}
	mthp_restore();
	return ret || nfailed ? 1 : 0;
}
