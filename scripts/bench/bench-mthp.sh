#!/bin/sh
# make bench-mthp: how 64 KiB mTHP folios go out to swap, base and patched
# kernels side by side (guest/tests/mthp.c: one device, four of one
# priority, a device with scattered free slots beside an empty one).
# REPS interleaved boots per kernel; build/bench/mthp.csv (a rerun
# resumes; FRESH=1 starts over) and the table in build/bench/mthp.txt.
set -eu
. "$(dirname "$0")/../lib.sh"
: "${REPS:=3}"
: "${MEM:=3G}" "${SMP:=2}"
export MEM SMP
out=$BUILD/bench
csv=$out/mthp.csv
mkdir -p "$out"
both_kernels plain
bench_csv "smp=$SMP mem=$MEM" kernel,rep,scenario,faulted,swpout,swpout_fallback,cpus,clocksource
kernels="base patched" k_base=$kb k_patched=$kp
SELFTESTS= TIMEOUT=${BENCH_TIMEOUT:-900}
export SELFTESTS TIMEOUT
bench_reps mthp mthp bench_mthp.py
python3 "$TOP/scripts/bench/bench_mthp.py" report --csv "$csv" | tee "$out/mthp.txt"
