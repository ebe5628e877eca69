#!/bin/sh
# make bench-lockstat: contention on the swap selection locks, from
# CONFIG_LOCK_STAT, base against patched, in kernels of their own
# (lock_stat slows every lock, so their times are not compared).
#
# Each boot runs, for each count in NDEVS, that many same-priority zram
# devices and the allocation workload of bench-alloc.sh (a memory cgroup
# of LIMIT_MB, WORKERS x WORKER_MB), with /proc/lock_stat cleared before
# and printed after (guest/bench/lockstat-bench).  REPS interleaved boots
# per kernel; a rerun resumes (FRESH=1 starts over).  Raw data:
# build/bench/lockstat.csv; report (scripts/bench/bench_lockstat.py):
# build/bench/lockstat.txt.  The pattern of every benchmark here: a guest
# program in guest/bench/, its parameters through stage_bench_guest, the
# boots through bench_reps, a collector and a report in scripts/bench_*.py.
set -eu
. "$(dirname "$0")/../lib.sh"
: "${REPS:=3}"
: "${NDEVS:=1 4 16}"
alloc_workload
bench_start lockstat

both_kernels lockstat

extra=$out/lockstat-guest
stage_bench_guest "$extra" lockstat-bench NDEVS="$NDEVS" DISK_MB="$DISK_MB" LIMIT_MB="$LIMIT_MB" \
	WORKERS="$WORKERS" WORKER_MB="$WORKER_MB"

params="ndevs=$NDEVS disk=$DISK_MB limit=$LIMIT_MB workers=$WORKERS x $WORKER_MB smp=$SMP mem=$MEM"
bench_csv "$params" kernel,rep,devs,lock,contentions,wait_us,acquisitions,cpus,clocksource

SELFTESTS= GUEST_EXTRA=$extra TIMEOUT=${BENCH_TIMEOUT:-1800}
export SELFTESTS GUEST_EXTRA TIMEOUT
bench_reps lockstat lockstat-bench bench_lockstat.py "$csv" lockstat base patched
arch_load
python3 "$TOP/scripts/bench/bench_lockstat.py" report --csv "$csv" --clocksource "$arch_clocksource" |
	tee "$out/lockstat.txt"
say "lock_stat benchmark took $(($(date +%s) - t_start)) s; results in $out"
