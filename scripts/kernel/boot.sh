#!/bin/sh
# boot.sh KERNEL TESTS NAME: boot KERNEL under QEMU, run the comma-
# separated TESTS in the guest, keep the logs under build/logs/NAME.* and
# judge the run with results.py (its exit status is ours).
#   SMP=2 MEM=3G TIMEOUT=900 ACCEL=tcg SRC=<tree for SELFTESTS> APPEND=...
#   ARCH=x86_64|arm64|... (config/ARCH.config: QEMU, console, results channel)
#   QEMU_EXTRA=<more QEMU arguments>  NOJUDGE=1: stop after the guest, the
#   caller judges (hibernate.sh joins two boots' logs)
set -eu
. "$(dirname "$0")/../lib.sh"
[ $# -ge 3 ] || die "usage: boot.sh KERNEL TESTS NAME"
kernel=$1
tests=$2
name=$3
: "${SMP:=2}"
: "${MEM:=3G}"
: "${TIMEOUT:=900}"
: "${ACCEL:=tcg,thread=multi}"
: "${APPEND:=}"
con=$BUILD/logs/$name.console.log
res=$BUILD/logs/$name.results.log
arch_load
qemu=$arch_qemu
[ -n "$qemu" ] || die "ARCH=$ARCH is built, not booted (config/$ARCH.config has no qemu=)"
# The kernel's messages go to the first serial port; the guest writes its
# results to a channel of their own.
case $arch_results in
serial) set -- -serial "file:$con" -serial "file:$res" ;;
virtio) set -- -serial "file:$con" -chardev "file,id=res,path=$res" \
	-device virtio-serial-device -device virtconsole,chardev=res ;;
*) die "config/$ARCH.config: results=$arch_results is neither serial nor virtio" ;;
esac
need "$qemu" timeout python3
[ -r "$kernel" ] || die "no kernel image at $kernel"
mkdir -p "$BUILD/logs"
initrd=$BUILD/initramfs-$name.cpio.gz
# kernel.sh installs the kernel's modules beside its objects.
MODULES=${kernel%/arch/*}/swapq-modules HEADERS=${kernel%/arch/*}/usr/include \
	"$TOP/scripts/kernel/initramfs.sh" "$initrd" "${SRC:-}"
rm -f "$con" "$res"
say "booting $name: $(basename "$(dirname "$(dirname "$(dirname "$(dirname "$kernel")")")")") smp=$SMP mem=$MEM tests=$tests (timeout ${TIMEOUT}s)"
t0=$(date +%s)
rc=0
# shellcheck disable=SC2086 # QEMU_EXTRA and arch_qemu_args are lists of arguments
timeout -k 10 "$TIMEOUT" "$qemu" -accel "$ACCEL" $arch_qemu_args "$@" ${QEMU_EXTRA:-} -smp "$SMP" -m "$MEM" \
	-kernel "$kernel" -initrd "$initrd" -nographic -no-reboot -monitor none \
	-append "console=$arch_console panic=-1 $arch_append loglevel=7 hung_task_timeout_secs=20 swapq.tests=$tests $APPEND" \
	</dev/null >"$BUILD/logs/$name.qemu.log" 2>&1 || rc=$?
el=$(($(date +%s) - t0))
say "$name: guest ran ${el}s (qemu status $rc)"
echo "qemu_status=$rc elapsed=$el" >>"$res"
[ -z "${NOJUDGE:-}" ] || exit 0
# The results are parsed by the kernel tree's own kunit_parser: SRC's, or
# that of the tree the kernel was built from (its object directory's
# "source" link).
exec python3 "$TOP/scripts/results.py" judge --name "$name" --smp "$SMP" --console "$con" --results "$res" \
	--src "${SRC:-${kernel%/arch/*}/source}" \
	--clocksource "$arch_clocksource" ${STRICT_SKIP:+--skip-fails}
