// SPDX-License-Identifier: GPL-2.0
/*
 * asnobody PROG ARGS...: run PROG as uid and gid 65534 with no
 * supplementary groups, as a user who is not root runs it (the guest's
 * busybox setpriv cannot change the uid).
 */
#include <grp.h>
#include <stdio.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: asnobody PROG ARGS...\n");
		return 2;
	}
	if (setgroups(0, NULL) || setgid(65534) || setuid(65534)) {
		perror("asnobody");
		return 2;
	}
	execv(argv[1], argv + 1);
	perror(argv[1]);
	return 127;
}
