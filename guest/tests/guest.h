/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers of the harness's own guest programs (stress.c, faultinj.c):
 * TAP output, sysfs and /proc access, swap headers.  Not a kselftest:
 * those share tools/testing/selftests/mm/swap_util.h in the series.
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

#endif /* SWAPQ_GUEST_H */
