#!/bin/sh
# check-full: the series on the other architectures config/ describes
# (arch_load in lib.sh): where the architecture's file names a QEMU, its
# debug kernel (KASAN, lockdep, DEBUG_VM) is cross-built and boots, running
# the KUnit suites and the swap kselftests (arm64: Debian's
# aarch64-linux-gnu-gcc, qemu-system-aarch64's virt machine under TCG);
# where it names none, the kernel with the KUnit suites builds (i386: 32-bit
# longs and highmem).
# TCG runs arm64 code on an x86 host with x86's memory ordering, so the
# boot shows build, per-CPU and page-size mistakes, not weak-ordering ones.
# One result line per check, the guest's cases counted, then the total.
#   CROSS_ARCHES (all but x86_64) CROSS_TESTS CROSS_TIMEOUT
set -u
. "$(dirname "$0")/../lib.sh"
pass=0 fail=0
: "${CROSS_TESTS:=$SERIES_TESTS}"
: "${SELFTESTS:=$SERIES_SELFTESTS}"
export SELFTESTS
: "${CROSS_ARCHES:=$(arch_others)}"
work_tree 2>/dev/null || die "no work tree"
src=$WORK

for ARCH in $CROSS_ARCHES; do
	export ARCH
	arch_load
	"$TOP/scripts/kernel/deps.sh" || die "cannot install the $ARCH toolchain and QEMU"
	build_kernel patched "$arch_flavor"
	k=$built_image
	if [ -z "$k" ] || [ ! -r "$k" ]; then
		result "$ARCH: the $arch_flavor kernel builds" 1 "see build/logs/build-$ARCH-patched-$arch_flavor.log"
		continue
	fi
	result "$ARCH: the $arch_flavor kernel builds" 0
	[ -n "$arch_qemu" ] || continue
	SRC=$src STRICT_SKIP=1 TIMEOUT=${CROSS_TIMEOUT:-$GUEST_TIMEOUT} \
		"$TOP/scripts/kernel/boot.sh" "$k" "$CROSS_TESTS" "cross-$ARCH" >"$BUILD/logs/cross-$ARCH.out" 2>&1
	results_of "$ARCH: the guest ran its tests" $? "$BUILD/logs/cross-$ARCH.out"
done
unset ARCH
results_end
