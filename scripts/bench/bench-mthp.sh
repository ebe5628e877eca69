#!/bin/sh
# make bench-mthp: how 64 KiB mTHP folios go out to swap, base and patched
# kernels side by side (guest/tests/mthp.c: one device, four of one
# priority, a device with scattered free slots beside an empty one, four
# scattered devices of one priority where no folio fits).  ICOUNT=1 times
# the page-out in instructions.
# REPS interleaved boots per kernel; build/bench/mthp.csv (a rerun
# resumes; FRESH=1 starts over) and the table in build/bench/mthp.txt.
set -eu
. "$(dirname "$0")/../lib.sh"
bench_counts mthp scenario,faulted,swpout,swpout_fallback,pageout_us
