// SPDX-License-Identifier: GPL-2.0
/*
 * swaphold MIB: a process of the machine's own with data in swap, for the
 * guest tests that run the kselftests beside it.  Fill MIB MiB with a
 * pattern, push it out with MADV_PAGEOUT, print how much went out
 * ("held N kB"), then wait for SIGUSR1: check every page, print "intact"
 * or "wrong at page N" and exit 0 or 1.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#ifndef MADV_PAGEOUT
#define MADV_PAGEOUT 21
#endif

static volatile sig_atomic_t go;

static void on_usr1(int sig)
{
	(void)sig;
	go = 1;
}

static long vmswap_kb(void)
{
	char line[256];
	long kb = -1;
	FILE *f = fopen("/proc/self/status", "r");

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "VmSwap: %ld", &kb) == 1)
			break;
	if (f)
		fclose(f);
	return kb;
}

int main(int argc, char **argv)
{
	unsigned long len = (argc > 1 ? strtoul(argv[1], NULL, 0) : 16) << 20;
	unsigned long i, n = len / sizeof(unsigned long);
	unsigned long *buf;
	sigset_t none, usr1;

	/* Blocked but for sigsuspend(): a signal cannot slip past the loop. */
	signal(SIGUSR1, on_usr1);
	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	sigprocmask(SIG_BLOCK, &usr1, NULL);
	buf = mmap(NULL, len, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (buf == MAP_FAILED) {
		perror("mmap");
		return 2;
	}
	for (i = 0; i < n; i++)
		buf[i] = i * 0x9e3779b97f4a7c15UL;
	for (i = 0; i < 5 && (unsigned long)vmswap_kb() * 1024 < len; i++)
		madvise(buf, len, MADV_PAGEOUT);
	printf("held %ld kB\n", vmswap_kb());
	fflush(stdout);
	sigemptyset(&none);
	while (!go)
		sigsuspend(&none);
	for (i = 0; i < n; i++) {
		if (buf[i] != i * 0x9e3779b97f4a7c15UL) {
			printf("wrong at page %lu\n", i * sizeof(*buf) / 4096);
			return 1;
		}
	}
	printf("intact\n");
	return 0;
}
