// SPDX-License-Identifier: GPL-2.0
/* qexit: hand an exit status to QEMU through its isa-debug-exit device. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/io.h>

int main(int argc, char **argv)
{
	int code = argc > 1 ? atoi(argv[1]) : 0;

	if (ioperm(0xf4, 1, 1)) {
		perror("ioperm");
		return 1;
	}
	outb(code, 0xf4);	/* QEMU exits with (code << 1) | 1 */
	return 1;
}
