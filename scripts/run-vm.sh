#!/bin/sh
# run-vm.sh KERNEL TESTS NAME: boot KERNEL under QEMU, run the comma-
# separated TESTS in the guest, keep the logs under build/logs/NAME.* and
# judge the run with results.py (its exit status is ours).
#   SMP=2 MEM=3G TIMEOUT=900 ACCEL=tcg SRC=<tree for SELFTESTS> APPEND=...
#   ARCH=x86_64|arm64 (arm64: QEMU's virt machine, results on a virtio console)
#   QEMU_EXTRA=<more QEMU arguments>  NOJUDGE=1: stop after the guest, the
#   caller judges (hibernate.sh joins two boots' logs)
set -eu
. "$(dirname "$0")/lib.sh"
[ $# -ge 3 ] || die "usage: run-vm.sh KERNEL TESTS NAME"
kernel=$1
tests=$2
name=$3
: "${SMP:=2}"
: "${MEM:=3G}"
: "${TIMEOUT:=900}"
: "${ACCEL:=tcg,thread=multi}"
: "${APPEND:=}"
: "${ARCH:=x86_64}"
con=$BUILD/logs/$name.console.log
res=$BUILD/logs/$name.results.log
case $ARCH in
x86_64)
	qemu=qemu-system-x86_64 clocksource=tsc con_dev=ttyS0
	set -- -cpu max -device isa-debug-exit,iobase=0xf4,iosize=0x04 \
		-serial "file:$con" -serial "file:$res" ;;
arm64)
	# pauth-impdef: TCG's architected pointer-auth hash is slow.
	qemu=qemu-system-aarch64 clocksource=arch_sys_counter con_dev=ttyAMA0
	set -- -M virt -cpu max,pauth-impdef=on -serial "file:$con" \
		-chardev "file,id=res,path=$res" -device virtio-serial-device \
		-device virtconsole,chardev=res ;;
*) die "run-vm.sh boots ARCH=x86_64 or arm64, not '$ARCH'" ;;
esac
need "$qemu" timeout python3
[ -r "$kernel" ] || die "no kernel image at $kernel"
mkdir -p "$BUILD/logs"
initrd=$BUILD/initramfs-$name.cpio.gz
# build-kernel.sh installs the kernel's modules beside its objects.
MODULES=${kernel%/arch/*}/swapq-modules "$TOP/scripts/initramfs.sh" "$initrd" "${SRC:-}"
rm -f "$con" "$res"
say "booting $name: $(basename "$(dirname "$(dirname "$(dirname "$(dirname "$kernel")")")")") smp=$SMP mem=$MEM tests=$tests (timeout ${TIMEOUT}s)"
t0=$(date +%s)
rc=0
# shellcheck disable=SC2086 # QEMU_EXTRA is a list of arguments
timeout -k 10 "$TIMEOUT" "$qemu" -accel "$ACCEL" "$@" ${QEMU_EXTRA:-} -smp "$SMP" -m "$MEM" \
	-kernel "$kernel" -initrd "$initrd" -nographic -no-reboot -monitor none \
	-append "console=$con_dev panic=-1 tsc=reliable loglevel=7 hung_task_timeout_secs=20 swapq.tests=$tests $APPEND" \
	</dev/null >"$BUILD/logs/$name.qemu.log" 2>&1 || rc=$?
el=$(($(date +%s) - t0))
say "$name: guest ran ${el}s (qemu status $rc)"
echo "qemu_status=$rc elapsed=$el" >>"$res"
[ -z "${NOJUDGE:-}" ] || exit 0
exec python3 "$TOP/scripts/results.py" judge --name "$name" --console "$con" --results "$res" \
	--clocksource "$clocksource" ${STRICT_SKIP:+--skip-fails}
