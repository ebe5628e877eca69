#!/bin/sh
# make bench (second half): the swap allocation benchmark, base and patched
# kernel side by side in one run.
#
# In the guest, NDEVS same-priority zram devices (each of the counts in
# DEVS; "max" adds devices until swapon refuses one) share DISK_MB
# ("topfull" in DEVS: a LIMIT_MB / 2 device at priority 100, always full,
# above one of DISK_MB, the review's zram over a disk); a
# memory cgroup limited to LIMIT_MB runs usemem: WORKERS processes each
# writing WORKER_MB of patterned memory, so most of it goes out to swap,
# then reading it back and verifying it.  Per run: elapsed, system time,
# MiB/s out and in, and each device's usage at the peak.  REPS interleaved
# boots per kernel, each running every device count once.  STEPS names
# patch numbers of series/ (after prereqs/) whose prefix is measured too
# (by default the patch "remove the swap_avail_head plist": the queue in
# full, under the old global per-CPU cache), so that no step of the series
# is left unmeasured; STEPS= measures none.  Results go to
# build/bench/alloc.csv (a rerun resumes; FRESH=1 starts over); the
# report: scripts/bench_alloc.py.
#
# ICOUNT=1 runs the guests with QEMU's -icount shift=0: single-threaded
# TCG whose guest clock counts the instructions executed (1 ns each), so
# elapsed and system time measure the path the kernel runs, not the
# host's load or the vCPUs' contention.  For comparing the length of a
# code path (the single-device case: DEVS="1 1 1"), not for scaling.
set -eu
. "$(dirname "$0")/../lib.sh"
: "${REPS:=5}"
: "${DEVS:=1 4 16 max}"
: "${ICOUNT:=}"
alloc_workload
# TCG with more vCPUs than host cores times lock-holder preemption, not
# the allocator.
[ "$SMP" -le "$(nproc)" ] ||
	die "SMP=$SMP is more than this host's $(nproc) cores: timing runs need a core per vCPU"
icount_setup
bench_start alloc

both_kernels plain
work_tree || die "no work tree"
work=$WORK
if [ -z "${STEPS+set}" ]; then
	step='mm/swap: remove the swap_avail_head plist'
	STEPS=$(series_number "$work" "^$step\$")
	[ -n "$STEPS" ] || die "no patch '$step' in the series of $work: set STEPS"
fi
kernels="base"
for n in $STEPS; do
	sha=$(series_commit "$work" "$n")
	[ -n "$sha" ] || die "the series has no patch $n"
	prefix_kernel "$work" "$sha" "step$n" plain || die "kernel build at patch $n failed"
	kernels="$kernels step$n"
done
kernels="$kernels patched"

extra=$out/alloc-guest
stage_bench_guest "$extra" alloc-bench DEVS="$DEVS" DISK_MB="$DISK_MB" LIMIT_MB="$LIMIT_MB" \
	WORKERS="$WORKERS" WORKER_MB="$WORKER_MB"

params="${ICOUNT:+icount }kernels=$kernels devs=$DEVS disk=$DISK_MB limit=$LIMIT_MB workers=$WORKERS x $WORKER_MB smp=$SMP mem=$MEM"
bench_csv "$params" kernel,rep,devs,elapsed_ms,sys_ms,out_mibs,in_mibs,peak_kb,cpus,clocksource

SELFTESTS= GUEST_EXTRA=$extra TIMEOUT=${BENCH_TIMEOUT:-1800}
export SELFTESTS GUEST_EXTRA TIMEOUT
# shellcheck disable=SC2086 # the kernels' names, a word each
bench_reps alloc alloc-bench bench_alloc.py "$csv" plain $kernels
arch_load
python3 "$TOP/scripts/bench/bench_alloc.py" report --csv "$csv" --cpus "$SMP" \
	--clocksource "$arch_clocksource" ${ICOUNT:+--icount} | tee "$out/alloc.txt"
say "allocation benchmark took $(($(date +%s) - t_start)) s; results in $out"
