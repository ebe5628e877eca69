#!/bin/sh
# make bench-prio: priority inversion, base and patched kernels side by
# side (guest/tests/prio.c): after a 16 MiB higher-priority device had
# filled up and has room again, how much of a CPU's next 4 MiB (order 0,
# and 64 KiB mTHP) still goes to the lower-priority device.  REPS
# interleaved boots per kernel; build/bench/prio.csv (a rerun resumes;
# FRESH=1 starts over) and the table in build/bench/prio.txt.
set -eu
. "$(dirname "$0")/../lib.sh"
bench_counts prio scenario,low_kb,high_kb
