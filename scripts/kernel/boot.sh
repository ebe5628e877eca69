#!/bin/sh
# boot.sh KERNEL TESTS NAME: boot KERNEL under QEMU, run the comma-
# separated TESTS in the guest, keep the logs under build/logs/NAME.* and
# judge the run with results.py (its exit status is ours).
#   SMP=2 MEM=3G SRC=<tree for SELFTESTS> APPEND=...
#   TIMEOUT=<hang guard, s> (default: lib.sh guest_timeout, from TESTS and
#   the kernel's .config)
#   ACCEL=auto|kvm|tcg (auto: KVM where a probe boot under it finishes,
#   TCG otherwise; lib.sh accel_pick)
#   ARCH=x86_64|arm64|... (config/ARCH.config: QEMU, console, results channel)
#   QEMU_EXTRA=<more QEMU arguments>  NOJUDGE=1: stop after the guest, the
#   caller judges (hibernate.sh joins two boots' logs)
set -eu
. "$(dirname "$0")/../lib.sh"
[ $# -ge 3 ] || die "usage: boot.sh KERNEL TESTS NAME"
kernel=$1
tests=$2
name=$3
[ -n "$tests" ] || die "no guest tests given (TESTS=a,b: programs of guest/tests/)"
: "${SMP:=2}"
: "${MEM:=3G}"
: "${TIMEOUT:=$(guest_timeout "$tests" "${kernel%/arch/*}/.config")}"
: "${APPEND:=}"
con=$BUILD/logs/$name.console.log
res=$BUILD/logs/$name.results.log
arch_load
[ -n "$arch_qemu" ] || die "ARCH=$ARCH is built, not booted (config/$ARCH.config has no qemu=)"
need "$arch_qemu" timeout python3
[ -r "$kernel" ] || die "no kernel image at $kernel"
mkdir -p "$BUILD/logs"
initrd=$BUILD/initramfs-$name.cpio.gz
KSFT_INSTALL=$(ksft_install_for "$tests")
export KSFT_INSTALL
# kernel.sh installs the kernel's modules beside its objects.
MODULES=${kernel%/arch/*}/swapq-modules HEADERS=${kernel%/arch/*}/usr/include \
	"$TOP/scripts/kernel/initramfs.sh" "$initrd" "${SRC:-}"
accel_pick "$kernel" "$initrd"
APPEND=$(guest_append "$accel" "$APPEND")
say "booting $name: $(basename "$(dirname "$(dirname "$(dirname "$(dirname "$kernel")")")")") $accel smp=$SMP mem=$MEM tests=$tests (timeout ${TIMEOUT}s)"
t0=$(date +%s)
rc=0
SMP=$SMP MEM=$MEM APPEND=$APPEND qemu_boot "$BUILD/logs/$name" "$TIMEOUT" "$accel_arg" "$accel_cpu" \
	"$kernel" "$initrd" "$tests" || rc=$?
el=$(($(date +%s) - t0))
say "$name: guest ran ${el}s (qemu status $rc)"
# How the guest ran, for the judge, the logs and the benchmarks' reports.
echo "# SWAPQ-FACT accel=$accel" >>"$res"
echo "qemu_status=$rc elapsed=$el" >>"$res"
[ -z "${NOJUDGE:-}" ] || exit 0
# The results are parsed by the kernel tree's own kunit_parser: SRC's, or
# that of the tree the kernel was built from (its object directory's
# "source" link).  Each test program is a case at least: a run that
# reports none ran nothing, and fails.
exec python3 "$TOP/scripts/results.py" judge --name "$name" --smp "$SMP" --console "$con" --results "$res" \
	--src "${SRC:-${kernel%/arch/*}/source}" \
	--clocksource "$arch_clocksource" --require-cases ${STRICT_SKIP:+--skip-fails}
