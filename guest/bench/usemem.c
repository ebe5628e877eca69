// SPDX-License-Identifier: GPL-2.0
/*
 * usemem: the allocation benchmark's workload, after the usemem of
 * lkp-tests that the swap allocator's public tests use.  WORKERS processes
 * each write MIB MiB of patterned anonymous memory (which a memory cgroup
 * limit below the working set pushes out to swap), then read it all back
 * and verify it.  The parent samples /proc/swaps meanwhile and prints one
 * line:
 *   SWAPQ-ALLOC elapsed_ms=E sys_ms=S out_mibs=O in_mibs=I peak_kb=a/b/...
 * out_mibs is the data written over the time until the last worker had
 * written it all; in_mibs the same for reading back.  Exit status 1 on any
 * wrong byte, 2 on a setup error.
 *
 * usage: usemem WORKERS MIB
 *        usemem swapon DEVICE PRIO	(busybox swapon has no -p)
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/swap.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_DEVS 64

struct shared {
	double write_done[64];
	double read_done[64];
};

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int worker(int id, size_t mib, struct shared *sh, double t0)
{
	size_t page = sysconf(_SC_PAGESIZE), len = mib << 20, i, w;
	unsigned long *p;
	char *buf;

	buf = mmap(NULL, len, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (buf == MAP_FAILED)
		return 2;
	for (i = 0; i < len; i += page) {
		p = (unsigned long *)(buf + i);
		for (w = 0; w < page / sizeof(*p); w += 64)
			p[w] = (i / page) * 2654435761UL + id + w;
	}
	sh->write_done[id] = now_ms() - t0;
	for (i = 0; i < len; i += page) {
		p = (unsigned long *)(buf + i);
		for (w = 0; w < page / sizeof(*p); w += 64) {
			if (p[w] != (i / page) * 2654435761UL + id + w) {
				fprintf(stderr, "usemem: worker %d: wrong data at page %zu\n",
					id, i / page);
				return 1;
			}
		}
	}
	sh->read_done[id] = now_ms() - t0;
	return 0;
}

/* Used KiB of each swap device, in /proc/swaps order; the count. */
static int swaps_used(long *used)
{
	char line[512], name[256], type[32];
	long size, u;
	int n = 0;
	FILE *f = fopen("/proc/swaps", "r");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f) && n < MAX_DEVS) {
		if (sscanf(line, "%255s %31s %ld %ld", name, type, &size, &u) == 4)
			used[n++] = u;
	}
	fclose(f);
	return n;
}

int main(int argc, char **argv)
{
	long used[MAX_DEVS], peak[MAX_DEVS] = { 0 }, total, peak_total = 0;
	double t0, elapsed, wmax = 0, rmax = 0;
	int workers, i, n, status, left, bad = 0;
	struct shared *sh;
	struct rusage ru;
	size_t mib;

	if (argc == 4 && !strcmp(argv[1], "swapon")) {
		int prio = atoi(argv[3]);

		if (swapon(argv[2], SWAP_FLAG_PREFER |
			   ((prio << SWAP_FLAG_PRIO_SHIFT) & SWAP_FLAG_PRIO_MASK))) {
			perror("swapon");
			return 2;
		}
		return 0;
	}
	if (argc != 3 || (workers = atoi(argv[1])) < 1 || workers > 64 ||
	    !(mib = strtoul(argv[2], NULL, 0))) {
		fprintf(stderr, "usage: usemem WORKERS MIB\n");
		return 2;
	}
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED)
		return 2;
	t0 = now_ms();
	for (i = 0; i < workers; i++) {
		pid_t pid = fork();

		if (pid < 0)
			return 2;
		if (!pid)
			_exit(worker(i, mib, sh, t0));
	}
	/* Peak usage: sample while the workers run. */
	for (left = workers; left;) {
		pid_t pid = waitpid(-1, &status, WNOHANG);

		if (pid > 0) {
			left--;
			if (!WIFEXITED(status) || WEXITSTATUS(status))
				bad = 1;
			continue;
		}
		n = swaps_used(used);
		for (i = 0, total = 0; i < n; i++)
			total += used[i];
		if (total > peak_total) {
			peak_total = total;
			memcpy(peak, used, n * sizeof(*used));
		}
		usleep(20000);
	}
	elapsed = now_ms() - t0;
	getrusage(RUSAGE_CHILDREN, &ru);
	for (i = 0; i < workers; i++) {
		if (sh->write_done[i] > wmax)
			wmax = sh->write_done[i];
		if (sh->read_done[i] > rmax)
			rmax = sh->read_done[i];
	}
	n = swaps_used(used);
	printf("SWAPQ-ALLOC elapsed_ms=%.0f sys_ms=%.0f out_mibs=%.1f in_mibs=%.1f peak_kb=",
	       elapsed, ru.ru_stime.tv_sec * 1e3 + ru.ru_stime.tv_usec / 1e3,
	       wmax > 0 ? workers * mib * 1e3 / wmax : 0,
	       rmax > wmax ? workers * mib * 1e3 / (rmax - wmax) : 0);
	for (i = 0; i < n; i++)
		printf("%s%ld", i ? "/" : "", peak[i]);
	printf("\n");
	return bad;
}
