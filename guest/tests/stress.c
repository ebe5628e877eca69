// SPDX-License-Identifier: GPL-2.0
/*
 * stress: a bounded swap stress run for the debug kernel (make check-full).
 *
 * STRESS_WORKERS processes in a memory cgroup write and check patterned
 * pages of their own STRESS_WORKER_MB regions (half of each in THPs) and
 * push parts of them out with MADV_PAGEOUT.  Meanwhile, for STRESS_SECONDS,
 * this process swaps devices off and on again with new priorities and
 * squeezes the cgroup's memory.max down to STRESS_LIMIT_MB and back.  The
 * devices: STRESS_ZRAMS zram devices and /dev/ram0 (brd, loaded here with
 * that size), STRESS_DEV_MB each; at least two stay on.  At the end every worker checks every page,
 * the devices must show no swap in use once the workers' cgroup has been
 * reclaimed (see the comment at that check), and each must swap off.
 *
 * TAP output, one result per check, the counts as diagnostics.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/swap.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "guest.h"

#define MAX_WORKERS 16
#define MAX_DEVS 9

struct shared {
	volatile int stop;
	unsigned long written[MAX_WORKERS];
	unsigned long verified[MAX_WORKERS];
	unsigned long pageouts[MAX_WORKERS];
};

struct dev {
	char path[32];
	int zram_id;
	int on;
	int prio;		/* -1: the kernel's default */
};

static uint64_t rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* Word @j of the page of worker @id, page @idx, write @gen: all distinct. */
static uint64_t pattern(int id, unsigned long idx, uint32_t gen, unsigned long j)
{
	return ((uint64_t)id << 58 ^ (uint64_t)idx << 28 ^ (uint64_t)gen << 10 ^ j) *
	       0x9e3779b97f4a7c15ULL;
}

static void fill_page(uint64_t *w, int id, unsigned long idx, uint32_t gen)
{
	unsigned long j;

	for (j = 0; j < ps / 8; j++)
		w[j] = pattern(id, idx, gen, j);
}

static int page_ok(const uint64_t *w, int id, unsigned long idx, uint32_t gen)
{
	unsigned long j;

	for (j = 0; j < ps / 8; j++)
		if (w[j] != pattern(id, idx, gen, j))
			return 0;
	return 1;
}

static int worker(int id, struct shared *sh, unsigned long mb, const char *procs)
{
	unsigned long nr = mb * MIB / ps, chunk = 2 * MIB / ps, i, b = 0;
	uint64_t seed = 0x2545f4914f6cdd1dULL * (id + 1);
	uint32_t *gen = calloc(nr, sizeof(*gen));
	char *buf;
	int k;

	if (write_file(procs, "0")) {
		printf("# worker %d: cannot join %s\n", id, procs);
		return 2;
	}
	buf = mmap(NULL, nr * ps, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (buf == MAP_FAILED || !gen)
		return 2;
	madvise(buf, nr * ps / 2, MADV_HUGEPAGE);
	madvise(buf + nr * ps / 2, nr * ps / 2, MADV_NOHUGEPAGE);
	for (i = 0; i < nr; i++)
		fill_page((uint64_t *)(buf + i * ps), id, i, 0);

	while (!sh->stop) {
		for (k = 0; k < 256; k++) {
			i = rnd(&seed) % nr;
			if (rnd(&seed) & 1) {
				if (!page_ok((uint64_t *)(buf + i * ps), id, i, gen[i])) {
					printf("# worker %d: page %lu (write %u) is wrong\n",
					       id, i, gen[i]);
					return 1;
				}
				sh->verified[id] += ps;
			} else {
				fill_page((uint64_t *)(buf + i * ps), id, i, ++gen[i]);
				sh->written[id] += ps;
			}
		}
		if (++b % 4 == 0) {
			i = rnd(&seed) % (nr / chunk) * chunk;
			madvise(buf + i * ps, chunk * ps, MADV_PAGEOUT);
			sh->pageouts[id]++;
		}
	}
	for (i = 0; i < nr; i++) {
		if (!page_ok((uint64_t *)(buf + i * ps), id, i, gen[i])) {
			printf("# worker %d: page %lu (write %u) is wrong at the end\n",
			       id, i, gen[i]);
			return 1;
		}
		sh->verified[id] += ps;
	}
	return 0;
}

/* kB of swap in use on the devices that are on, polled @tries x 0.1 s. */
static long swap_in_use_kb(const struct dev *devs, int ndev, int tries)
{
	long used;
	int i, k;

	for (i = 0; i < tries; i++) {
		for (used = 0, k = 0; k < ndev; k++)
			if (devs[k].on)
				used += swaps_used_kb(devs[k].path);
		if (!used)
			break;
		usleep(100000);
	}
	return used;
}

static int dev_swapon(struct dev *d, int prio)
{
	int flags = prio < 0 ? 0 : SWAP_FLAG_PREFER |
		    (prio << SWAP_FLAG_PRIO_SHIFT & SWAP_FLAG_PRIO_MASK);

	if (swapon(d->path, flags))
		return -errno;
	d->on = 1;
	d->prio = prio;
	return 0;
}

/* What the controller did, for the report. */
static struct {
	unsigned long swapoffs, enomem, swapons, reprio, squeezes, other_err;
} cnt;

/* swapoff @d, counted; ENOMEM is allowed under the squeeze.  0 if off. */
static int dev_off(struct dev *d)
{
	if (!swapoff(d->path)) {
		d->on = 0;
		cnt.swapoffs++;
		return 0;
	}
	if (errno == ENOMEM) {
		cnt.enomem++;
	} else {
		printf("# swapoff %s: %s\n", d->path, strerror(errno));
		cnt.other_err++;
	}
	return -1;
}

/* swapon @d at @prio, counted.  0 if on. */
static int dev_on(struct dev *d, int prio)
{
	int err = dev_swapon(d, prio);

	if (err) {
		printf("# swapon %s: %s\n", d->path, strerror(-err));
		cnt.other_err++;
		return err;
	}
	cnt.swapons++;
	return 0;
}

int main(void)
{
	unsigned long secs = env_ulong("STRESS_SECONDS", 150);
	unsigned long nw = env_ulong("STRESS_WORKERS", 3);
	unsigned long wmb = env_ulong("STRESS_WORKER_MB", 48);
	unsigned long dmb = env_ulong("STRESS_DEV_MB", 96);
	unsigned long nz = env_ulong("STRESS_ZRAMS", 3);
	unsigned long limit = env_ulong("STRESS_LIMIT_MB", 64);
	unsigned long written = 0, verified = 0, pageouts = 0, i;
	char cg[128], procs[160], max[160], val[32];
	uint64_t seed = 0x9e3779b97f4a7c15ULL;
	int ndev = 0, non, bad = 0, st, squeezed = 0;
	struct dev devs[MAX_DEVS] = {};
	pid_t pids[MAX_WORKERS];
	double t0, next_report;
	struct shared *sh;
	char cmd[96];
	long used;

	ps = sysconf(_SC_PAGESIZE);
	printf("TAP version 13\n1..4\n");
	if (geteuid() || nw < 1 || nw > MAX_WORKERS || nz + 1 > MAX_DEVS) {
		printf("Bail out! needs root, 1..%d workers, at most %d zram devices\n",
		       MAX_WORKERS, MAX_DEVS - 1);
		return 1;
	}
	printf("# %lu s, %lu workers x %lu MiB in a memcg squeezed to %lu MiB, %lu zram + brd x %lu MiB\n",
	       secs, nw, wmb, limit, nz, dmb);

	/* The guest's zram and brd are modules, loaded by their users. */
	zram_load();
	snprintf(cmd, sizeof(cmd), "modprobe brd rd_nr=1 rd_size=%lu", dmb * 1024);
	if (access("/sys/module/brd", F_OK) && system(cmd))
		printf("# modprobe brd failed\n");
	for (i = 0; i < nz; i++) {
		struct dev *d = &devs[ndev];

		d->zram_id = zram_add(dmb, d->path, sizeof(d->path));
		if (d->zram_id < 0) {
			printf("Bail out! cannot set up zram device %lu\n", i);
			return 1;
		}
		ndev++;
	}
	devs[ndev].zram_id = -1;
	snprintf(devs[ndev].path, sizeof(devs[ndev].path), "/dev/ram0");
	if (mkswap(devs[ndev].path, dmb)) {
		printf("Bail out! cannot write a swap header on /dev/ram0\n");
		return 1;
	}
	ndev++;
	for (i = 0; i < (unsigned long)ndev; i++) {
		if (dev_swapon(&devs[i], (int)(rnd(&seed) % 5) - 1)) {
			printf("Bail out! swapon %s: %s\n", devs[i].path, strerror(errno));
			return 1;
		}
	}

	if (write_file("/sys/fs/cgroup/cgroup.subtree_control", "+memory")) {
		printf("Bail out! no memory cgroup at /sys/fs/cgroup\n");
		return 1;
	}
	snprintf(cg, sizeof(cg), "/sys/fs/cgroup/stress-%d", getpid());
	snprintf(procs, sizeof(procs), "%s/cgroup.procs", cg);
	snprintf(max, sizeof(max), "%s/memory.max", cg);
	if (mkdir(cg, 0755)) {
		printf("Bail out! mkdir %s: %s\n", cg, strerror(errno));
		return 1;
	}

	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED)
		return 1;
	fflush(stdout);
	for (i = 0; i < nw; i++) {
		pids[i] = fork();
		if (!pids[i])
			_exit(worker(i, sh, wmb, procs));
	}

	t0 = now_s();
	next_report = t0 + 30;
	while (now_s() - t0 < secs) {
		unsigned long r = rnd(&seed) % 8;
		struct dev *d = &devs[rnd(&seed) % ndev];
		int prio = (int)(rnd(&seed) % 5) - 1;

		for (non = 0, i = 0; i < (unsigned long)ndev; i++)
			non += devs[i].on;
		if (r < 4 && d->on && non > 2) {
			dev_off(d);
		} else if (r < 4 && !d->on) {
			dev_on(d, prio);
		} else if (r == 4 && d->on && non > 2) {
			/* A new priority: swapoff, and on again at once. */
			if (!dev_off(d) && !dev_on(d, prio))
				cnt.reprio++;
		} else if (r == 5 || r == 6) {
			snprintf(val, sizeof(val), "%luM", limit);
			if (write_file(max, squeezed ? "max" : val))
				cnt.other_err++;
			squeezed = !squeezed;
			cnt.squeezes += squeezed;
		} else {
			usleep(200000);
		}
		usleep(50000);
		if (now_s() >= next_report) {
			for (written = verified = 0, i = 0; i < nw; i++) {
				written += sh->written[i];
				verified += sh->verified[i];
			}
			printf("# %.0f s: %lu swapoffs, %lu swapons, %lu squeezes, %lu MiB written, %lu MiB checked\n",
			       now_s() - t0, cnt.swapoffs, cnt.swapons, cnt.squeezes,
			       written / MIB, verified / MIB);
			fflush(stdout);
			next_report += 30;
		}
	}

	write_file(max, "max");
	sh->stop = 1;
	for (i = 0; i < nw; i++) {
		if (waitpid(pids[i], &st, 0) != pids[i] || !WIFEXITED(st) ||
		    WEXITSTATUS(st)) {
			printf("# worker %lu: %s %d\n", i,
			       WIFSIGNALED(st) ? "killed by signal" : "exit",
			       WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st));
			bad++;
		}
		pageouts += sh->pageouts[i];
	}
	for (written = verified = 0, i = 0; i < nw; i++) {
		written += sh->written[i];
		verified += sh->verified[i];
	}
	tap(!bad, "workers: every page checked intact (%lu MiB written, %lu MiB checked, %lu pageouts)",
	    written / MIB, verified / MIB, pageouts);
	tap(!cnt.other_err, "swapon/swapoff: %lu swapoffs (and %lu ENOMEM), %lu swapons, %lu new priorities, %lu squeezes, %lu other errors",
	    cnt.swapoffs, cnt.enomem, cnt.swapons, cnt.reprio, cnt.squeezes,
	    cnt.other_err);

	/*
	 * The workers are gone, and every swap count they held went with
	 * them.  A slot can still be in use for a while by a folio left in
	 * the swap cache alone: exit frees such a folio only if it can take
	 * its lock at once (free_swap_and_cache_nr() uses a trylock), and
	 * reclaim or swapoff drop it later, base kernels alike.  So give
	 * exit its ten seconds, then reclaim the cgroup the workers ran in,
	 * which holds those folios, and only then require zero: a slot
	 * still in use after that has a count nobody owns.
	 */
	used = swap_in_use_kb(devs, ndev, 100);
	if (used) {
		long cached = meminfo_kb("SwapCached");
		char reclaim[160];

		snprintf(val, sizeof(val), "%luM", 2 * nw * wmb);
		snprintf(reclaim, sizeof(reclaim), "%s/memory.reclaim", cg);
		printf("# %ld kB in use 10 s after exit, swap cache %ld kB: reclaiming %s from %s\n",
		       used, cached, val, cg);
		write_file(reclaim, val);	/* EAGAIN when it falls short */
		used = swap_in_use_kb(devs, ndev, 50);
	}
	tap(!used, "no swap in use once the workers exited and their cgroup was reclaimed (%ld kB)",
	    used);

	for (bad = 0, i = 0; i < (unsigned long)ndev; i++) {
		if (devs[i].on && swapoff(devs[i].path)) {
			printf("# final swapoff %s: %s\n", devs[i].path, strerror(errno));
			bad++;
		} else if (swaps_used_kb(devs[i].path) != -1) {
			bad++;
		}
		if (devs[i].zram_id >= 0) {
			zram_remove(devs[i].zram_id);
		} else {
			uint64_t range[2] = { 0, dmb * MIB };
			int fd = open(devs[i].path, O_WRONLY);

			if (fd >= 0) {
				ioctl(fd, BLKDISCARD, range);
				close(fd);
			}
		}
	}
	tap(!bad, "every device swapped off at the end");
	rmdir(cg);
	return nfailed ? 1 : 0;
}
