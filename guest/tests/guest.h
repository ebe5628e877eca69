/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers of the harness's own guest programs (the C programs of guest/tests): TAP
 * output, sysfs and /proc access, swap headers, zram devices, a page
 * pattern that zram cannot store as same-filled.  Not a kselftest:
 * those share tools/testing/selftests/mm/swap_util.c in the series.
 */
#ifndef SWAPQ_GUEST_H
#define SWAPQ_GUEST_H

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/swap.h>
#include <time.h>
#include <unistd.h>

#ifndef MADV_PAGEOUT
#define MADV_PAGEOUT 21
#endif

#define MIB (1024UL * 1024)

static unsigned long ps;	/* the page size: set it first */
static int ntests, nfailed;

/* One TAP result line: "ok N ..." if @ok, else "not ok N ...". */
static inline void tap(int ok, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static inline void tap(int ok, const char *fmt, ...)
{
	va_list ap;

	nfailed += !ok;
	printf("%sok %d ", ok ? "" : "not ", ++ntests);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
}

/* CLOCK_MONOTONIC in seconds. */
static inline double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The environment variable @name as a number, or @def. */
static inline unsigned long env_ulong(const char *name, unsigned long def)
{
	const char *val = getenv(name);

	return val && *val ? strtoul(val, NULL, 0) : def;
}

/* Write @val to the file at @path: 0 or -errno. */
static inline int write_file(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY);
	ssize_t ret;

	if (fd < 0)
		return -errno;
	ret = write(fd, val, strlen(val));
	close(fd);
	return ret < 0 ? -errno : 0;
}

/* The number at the start of the file at @path, or -1. */
static inline long read_long(const char *path)
{
	char buf[64] = "";
	long val = -1;
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return -1;
	if (read(fd, buf, sizeof(buf) - 1) > 0)
		val = strtol(buf, NULL, 10);
	close(fd);
	return val;
}

/* A "Key:  N kB" field of /proc/meminfo, or -1. */
static inline long meminfo_kb(const char *key)
{
	char line[256];
	size_t len = strlen(key);
	long val = -1;
	FILE *f = fopen("/proc/meminfo", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, key, len) && line[len] == ':')
			val = strtol(line + len + 1, NULL, 10);
	fclose(f);
	return val;
}

/* Used kB of @dev in /proc/swaps; -1 if it is not listed. */
static inline long swaps_used_kb(const char *dev)
{
	char name[256], type[32], line[512];
	long size, used, prio, ret = -1;
	FILE *f = fopen("/proc/swaps", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%255s %31s %ld %ld %ld", name, type, &size,
			   &used, &prio) == 5 && !strcmp(name, dev))
			ret = used;
	fclose(f);
	return ret;
}

/* A version 1 swap header over the first @mb of @path, as mkswap writes. */
static inline int mkswap(const char *path, unsigned long mb)
{
	char *page = calloc(1, ps);
	uint32_t *info = (uint32_t *)(page + 1024);
	int fd, ret = 0;

	if (!page)
		return -ENOMEM;
	info[0] = 1;
	info[1] = mb * MIB / ps - 1;
	memcpy(page + ps - 10, "SWAPSPACE2", 10);
	fd = open(path, O_WRONLY | O_SYNC);
	if (fd < 0 || pwrite(fd, page, ps, 0) != (ssize_t)ps)
		ret = -errno;
	if (fd >= 0)
		close(fd);
	free(page);
	return ret;
}

#define THP "/sys/kernel/mm/transparent_hugepage"

/* The word in [brackets] of a THP "enabled" file, in @buf. */
static inline void thp_mode(const char *path, char *buf, size_t len)
{
	char line[256] = "", *a, *b;
	FILE *f = fopen(path, "r");

	buf[0] = '\0';
	if (!f)
		return;
	if (fgets(line, sizeof(line), f) && (a = strchr(line, '[')) &&
	    (b = strchr(a, ']'))) {
		*b = '\0';
		snprintf(buf, len, "%s", a + 1);
	}
	fclose(f);
}

#define MTHP THP "/hugepages-64kB"

/* The THP settings before mthp_only(), for mthp_restore(). */
static char thp_old_top[64], thp_old_64k[64];

/*
 * 64 KiB anonymous mTHP on ("always"), PMD-sized THP off; 0, or -1 with a
 * "Bail out!" line if the kernel has no 64 KiB mTHP.
 */
static inline int mthp_only(void)
{
	thp_mode(THP "/enabled", thp_old_top, sizeof(thp_old_top));
	thp_mode(MTHP "/enabled", thp_old_64k, sizeof(thp_old_64k));
	if (!thp_old_64k[0] || write_file(THP "/enabled", "never") ||
	    write_file(MTHP "/enabled", "always")) {
		printf("Bail out! no 64 KiB mTHP (CONFIG_TRANSPARENT_HUGEPAGE)\n");
		return -1;
	}
	return 0;
}

/* Put back the THP settings mthp_only() found. */
static inline void mthp_restore(void)
{
	write_file(MTHP "/enabled", thp_old_64k);
	write_file(THP "/enabled", thp_old_top);
}

/* Load zram unless it is there (loaded or built in): 0, or -1. */
static inline int zram_load(void)
{
	if (!access("/sys/class/zram-control", F_OK) ||
	    !system("modprobe zram num_devices=0"))
		return 0;
	printf("# modprobe zram failed\n");
	return -1;
}

/*
 * A new zram device of @mb MiB with a swap header, its node in @path: its
 * index, or -1.
 */
static inline int zram_add(unsigned long mb, char *path, size_t len)
{
	long id = read_long("/sys/class/zram-control/hot_add");
	char attr[64], val[32];

	if (id < 0)
		return -1;
	snprintf(attr, sizeof(attr), "/sys/block/zram%ld/disksize", id);
	snprintf(val, sizeof(val), "%luM", mb);
	snprintf(path, len, "/dev/zram%ld", id);
	return write_file(attr, val) || mkswap(path, mb) ? -1 : (int)id;
}

/* Reset and remove zram device @id. */
static inline void zram_remove(int id)
{
	char path[64], val[16];

	snprintf(path, sizeof(path), "/sys/block/zram%d/reset", id);
	write_file(path, "1");
	snprintf(val, sizeof(val), "%d", id);
	write_file("/sys/class/zram-control/hot_remove", val);
}

/*
 * A new zram device of @mb MiB swapped on at priority @prio, its node in
 * @path: its index, or -1 (and the device removed).
 */
static inline int zram_swapon(unsigned long mb, int prio, char *path,
			      size_t len)
{
	int id = zram_add(mb, path, len);

	if (id >= 0 &&
	    swapon(path, SWAP_FLAG_PREFER | (prio << SWAP_FLAG_PRIO_SHIFT))) {
		zram_remove(id);
		return -1;
	}
	return id;
}

/* Swap off and remove zram device @id. */
static inline void zram_swapoff(int id)
{
	char path[32];

	snprintf(path, sizeof(path), "/dev/zram%d", id);
	swapoff(path);
	zram_remove(id);
}

/* Word @j of page @i of the pattern for @seed: no page is same-filled. */
static inline uint64_t pattern_word(unsigned long i, unsigned long j,
				    uint64_t seed)
{
	return (seed << 40 ^ i << 16 ^ j) * 0x9e3779b97f4a7c15ULL;
}

/* Fill @nr pages at @buf with the pattern for @seed. */
static inline void pattern_fill(char *buf, unsigned long nr, uint64_t seed)
{
	unsigned long i, j;

	for (i = 0; i < nr; i++)
		for (j = 0; j < ps / 8; j++)
			((uint64_t *)(buf + i * ps))[j] = pattern_word(i, j, seed);
}

/* How many of the @nr pages at @buf differ from the pattern for @seed. */
static inline unsigned long pattern_bad(const char *buf, unsigned long nr,
					uint64_t seed)
{
	unsigned long i, j, bad = 0;

	for (i = 0; i < nr; i++)
		for (j = 0; j < ps / 8; j++)
			if (((const uint64_t *)(buf + i * ps))[j] !=
			    pattern_word(i, j, seed)) {
				bad++;
				break;
			}
	return bad;
}

#endif /* SWAPQ_GUEST_H */
