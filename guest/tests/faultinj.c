// SPDX-License-Identifier: GPL-2.0
/*
 * faultinj: every allocation of swapon and of swapoff fails in turn (make
 * check-full, on the debug kernel: CONFIG_FAILSLAB, CONFIG_FAIL_PAGE_ALLOC,
 * CONFIG_DEBUG_KMEMLEAK).
 *
 * /proc/thread-self/fail-nth makes the Nth slab or page allocation of this
 * task fail; the failslab and fail_page_alloc settings below let it reach
 * GFP_KERNEL, order-0 and __GFP_HIGHMEM (user page) allocations too, so
 * that swapoff's swap-ins fail as well.  For N = 1, 2, ... until a call
 * no longer reaches its Nth allocation:
 *  - swapon of a zram device: a swapon that fails must say ENOMEM and leave
 *    /proc/swaps and SwapTotal as they were; one that succeeds anyway (an
 *    allocation with a fallback) is swapped off again;
 *  - swapoff of that device, at the highest priority and holding patterned
 *    pages: a swapoff that fails must say ENOMEM and leave the device
 *    listed and taking new swap-outs; one that succeeds is undone.
 * At the end the pages are intact, the totals are back, and kmemleak finds
 * nothing allocated under swapon or swapoff.  A second zram device stays
 * on throughout, so that the device queue is never empty.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/swap.h>
#include <unistd.h>

#include "guest.h"

#define DEV_MB 64
#define DATA_PAGES 64
#define PROBE_PAGES 16
#define MAX_NTH 20000
#define DEBUGFS "/sys/kernel/debug"

static int nth_fd;

/* Arm fail-nth for the @n-th allocation from now (0 disarms it). */
static int nth_arm(unsigned int n)
{
	char buf[16];
	int len = snprintf(buf, sizeof(buf), "%u", n);

	return pwrite(nth_fd, buf, len, 0) == len ? 0 : -errno;
}

/* Whether the armed failure was injected; disarms what is left. */
static int nth_fired(void)
{
	char buf[16] = "";
	int fired = pread(nth_fd, buf, sizeof(buf) - 1, 0) > 0 &&
		    strtoul(buf, NULL, 10) == 0;

	nth_arm(0);
	return fired;
}

/* /proc/swaps as it reads now, in @buf. */
static void swaps_text(char *buf, size_t len)
{
	int fd = open("/proc/swaps", O_RDONLY);
	ssize_t n = fd < 0 ? -1 : read(fd, buf, len - 1);

	buf[n > 0 ? n : 0] = '\0';
	if (fd >= 0)
		close(fd);
}

static int top_prio(void)
{
	return SWAP_FLAG_PREFER | SWAP_FLAG_PRIO_MASK;
}

/*
 * Whether @dev takes new swap-outs: PROBE_PAGES fresh pages paged out must
 * show in its Used column (it has the highest priority).
 */
static int takes_swapouts(const char *dev)
{
	long before = swaps_used_kb(dev), after;
	char *p = mmap(NULL, PROBE_PAGES * ps, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return 0;
	pattern_fill(p, PROBE_PAGES, 7);
	madvise(p, PROBE_PAGES * ps, MADV_PAGEOUT);
	after = swaps_used_kb(dev);
	munmap(p, PROBE_PAGES * ps);
	return before >= 0 && after >= before + (long)(PROBE_PAGES * ps / 1024 / 2);
}

/* Objects kmemleak reports with swapon or swapoff in their backtrace. */
static int kmemleak_swap_leaks(void)
{
	char line[512], obj[512] = "";
	int leaks = 0, in_swap = 0;
	FILE *f;

	/* An object must stay unreferenced for 5 s, over two scans. */
	sleep(6);
	write_file(DEBUGFS "/kmemleak", "scan");
	write_file(DEBUGFS "/kmemleak", "scan");
	f = fopen(DEBUGFS "/kmemleak", "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "unreferenced object", 19)) {
			snprintf(obj, sizeof(obj), "%s", line);
			in_swap = 0;
		} else if (!in_swap && (strstr(line, "swapon") ||
					strstr(line, "swapoff"))) {
			in_swap = 1;
			leaks++;
			printf("# leak: %s#   %s", obj, line);
		}
	}
	fclose(f);
	return leaks;
}

/* The device under test, the other one, and the state swapon must keep. */
static char dev[32], other[32];
static char swaps0[4096];
static long total0;
static char *data;

static int do_swapon(void)
{
	return swapon(dev, top_prio());
}

static int do_swapoff(void)
{
	return swapoff(dev);
}

/* After a failed swapon: /proc/swaps and SwapTotal as they were. */
static int nothing_left(void)
{
	static char now[4096];

	swaps_text(now, sizeof(now));
	if (!strcmp(swaps0, now) && meminfo_kb("SwapTotal") == total0)
		return 1;
	printf("# left behind:\n%s", now);
	return 0;
}

/* After a failed swapoff: the device is still in use. */
static int still_used(void)
{
	return takes_swapouts(dev);
}

/* Before each swapoff: the data out on the device again. */
static void data_out(void)
{
	madvise(data, DATA_PAGES * ps, MADV_PAGEOUT);
}

/*
 * Call @op with its Nth allocation failing, for N = 1, 2, ... until it
 * no longer reaches N: @prepare (if any) runs before each call, @undo
 * after a call that succeeded anyway, @check after each that failed.
 * Two TAP results: @name_fail (each failure ENOMEM and @check true) and
 * @name_ok (it succeeds once nothing fails).  Returns whether it did.
 */
static int each_failing(const char *what, int (*op)(void), int (*undo)(void),
			void (*prepare)(void), int (*check)(void),
			const char *name_fail, const char *name_ok)
{
	unsigned long n, failed = 0, absorbed = 0, bad_errno = 0, bad = 0;
	int done = 0, err, r;

	for (n = 1; n <= MAX_NTH; n++) {
		if (prepare)
			prepare();
		if (nth_arm(n))
			break;
		r = op();
		err = errno;
		if (!nth_fired()) {
			done = !r;
			break;
		}
		if (!r) {
			absorbed++;
			if (undo())
				break;
			continue;
		}
		failed++;
		if (err != ENOMEM && bad_errno++ < 5)
			printf("# %s, allocation %lu failing: %s\n", what, n,
			       strerror(err));
		if (!check() && bad++ < 5)
			printf("# %s, allocation %lu failing: not as before\n",
			       what, n);
	}
	printf("# %s: %lu allocations; %lu failed it, %lu were absorbed\n",
	       what, n - 1, failed, absorbed);
	tap(failed && !bad_errno && !bad, "%s # %lu other errno, %lu bad state",
	    name_fail, bad_errno, bad);
	tap(done, "%s # once no allocation fails", name_ok);
	return done;
}

int main(void)
{
	int r;

	ps = sysconf(_SC_PAGESIZE);
	printf("TAP version 13\n1..7\n");
	zram_load();
	nth_fd = open("/proc/thread-self/fail-nth", O_RDWR);
	if (nth_fd < 0 ||
	    write_file(DEBUGFS "/failslab/ignore-gfp-wait", "N") ||
	    write_file(DEBUGFS "/fail_page_alloc/ignore-gfp-wait", "N") ||
	    write_file(DEBUGFS "/fail_page_alloc/min-order", "0") ||
	    write_file(DEBUGFS "/fail_page_alloc/ignore-gfp-highmem", "N") ||
	    write_file(DEBUGFS "/failslab/verbose", "0") ||
	    write_file(DEBUGFS "/fail_page_alloc/verbose", "0")) {
		printf("Bail out! no fail-nth, failslab or fail_page_alloc (CONFIG_FAULT_INJECTION_DEBUG_FS)\n");
		return 1;
	}
	if (write_file(DEBUGFS "/kmemleak", "clear")) {
		printf("Bail out! no kmemleak (CONFIG_DEBUG_KMEMLEAK)\n");
		return 1;
	}
	data = mmap(NULL, DATA_PAGES * ps, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (data == MAP_FAILED || zram_add(DEV_MB, other, sizeof(other)) < 0 ||
	    swapon(other, 0) || zram_add(DEV_MB, dev, sizeof(dev)) < 0) {
		printf("Bail out! cannot set up two zram devices\n");
		return 1;
	}
	swaps_text(swaps0, sizeof(swaps0));
	total0 = meminfo_kb("SwapTotal");

	if (!each_failing("swapon", do_swapon, do_swapoff, NULL, nothing_left,
			  "swapon_enomem_leaves_nothing", "swapon_succeeds")) {
		printf("Bail out! swapon never succeeded\n");
		return 1;
	}
	/* swapoff of the device, holding DATA_PAGES of pattern. */
	pattern_fill(data, DATA_PAGES, 1);
	each_failing("swapoff", do_swapoff, do_swapon, data_out, still_used,
		     "swapoff_enomem_keeps_device", "swapoff_succeeds");
	tap(!pattern_bad(data, DATA_PAGES, 1), "data_intact # after every swapoff");
	r = swapoff(other);
	tap(!r && meminfo_kb("SwapTotal") == 0 && swaps_used_kb(dev) == -1,
	    "all_swapped_off # SwapTotal back to 0");
	r = kmemleak_swap_leaks();
	tap(r == 0, "kmemleak_clean # %d object(s) from swapon or swapoff", r);
	return nfailed ? 1 : 0;
}
