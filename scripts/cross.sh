#!/bin/sh
# check-full: the series on two more architectures.
#  - i386 (32-bit, highmem): the kernel with SWAP=y and the KUnit suites
#    builds;
#  - arm64: the debug kernel (KASAN, lockdep, DEBUG_VM) cross-builds with
#    Debian's aarch64-linux-gnu-gcc and boots under qemu-system-aarch64
#    (TCG), running the KUnit suites and the swap kselftests.
# TCG runs arm64 code on an x86 host with x86's memory ordering, so the
# boot shows build, per-CPU and page-size mistakes, not weak-ordering ones.
# One result line per check, the guest's cases counted, then the total.
set -u
. "$(dirname "$0")/lib.sh"
pass=0 fail=0
: "${CROSS_TESTS:=sanity,swapoff,swap_devices}"
ARCH=arm64 "$TOP/scripts/deps.sh" ||
	die "cannot install the arm64 toolchain and QEMU"
src=$(lastline "$TOP/scripts/tree.sh" work 2>/dev/null) || die "no work tree"

k=$(ARCH=i386 VARIANT=patched FLAVOR=kunit lastline "$TOP/scripts/build-kernel.sh")
[ -n "$k" ] && [ -r "$k" ]
result "i386: the series builds (SWAP=y, HIGHMEM, KUnit suites)" $? \
	"see build/logs/build-i386-patched-kunit.log"

k=$(ARCH=arm64 VARIANT=patched FLAVOR=debug lastline "$TOP/scripts/build-kernel.sh")
if [ -n "$k" ] && [ -r "$k" ]; then
	result "arm64: the debug kernel builds" 0
	ARCH=arm64 SRC=$src STRICT_SKIP=1 TIMEOUT=${CROSS_TIMEOUT:-2400} \
		"$TOP/scripts/run-vm.sh" "$k" "$CROSS_TESTS" cross-arm64 >"$BUILD/logs/cross-arm64.out" 2>&1
	cat "$BUILD/logs/cross-arm64.out"
	count "$BUILD/logs/cross-arm64.out" "arm64: the guest ran its tests"
else
	result "arm64: the debug kernel builds" 1 "see build/logs/build-arm64-patched-debug.log"
fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
