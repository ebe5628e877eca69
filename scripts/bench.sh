#!/bin/sh
# make bench: the base and the patched kernel side by side in one run.
#
# Swapoff: a DISK_MB zram device filled to each of FILLS_MB with KEEP_MB
# left in use (cache-only) at the top of the fill, the first fill being
# the limit (only KEEP_MB ever filled).  Each boot first runs one limit
# swapoff as a warm-up, which is not counted.  Plus the ordinary case, ORD_MB of
# patterned data swapped out of an ORD_DISK_MB device and back.
# REPS interleaved pairs (base, patched; then patched, base; ...).
# Results go to build/bench/swapoff.csv; a rerun resumes where it stopped
# (FRESH=1 starts over).  The report: scripts/bench.py.
set -eu
. "$(dirname "$0")/lib.sh"
: "${REPS:=5}"
: "${FILLS_MB:=16,1024,4096,16384}"
: "${KEEP_MB:=16}"
: "${DISK_MB:=65536}"
: "${ORD_MB:=2048}"
: "${ORD_DISK_MB:=4096}"
: "${MEM:=6G}"
: "${SMP:=2}"
export MEM SMP
out=$BUILD/bench
csv=$out/swapoff.csv
mkdir -p "$out"
[ "${FRESH:-}" = 1 ] && rm -f "$csv"
t_start=$(date +%s)

"$TOP/scripts/deps.sh"
src=$(lastline "$TOP/scripts/tree.sh" work) || die "no work tree"
kb=$(VARIANT=base FLAVOR=plain lastline "$TOP/scripts/build-kernel.sh") || die "base kernel build failed"
kp=$(VARIANT=patched FLAVOR=plain lastline "$TOP/scripts/build-kernel.sh") || die "patched kernel build failed"
[ -r "$kb" ] && [ -r "$kp" ] || die "kernel build failed"

# The guest side: the series' own kselftest, driven with bench sizes.
extra=$out/guest
mkdir -p "$extra"
cat >"$extra/swapoff-bench" <<EOS
#!/bin/sh
SWAPOFF_DISK_MB=$DISK_MB SWAPOFF_FILLS_MB=$KEEP_MB,$FILLS_MB SWAPOFF_KEEP_MB=$KEEP_MB \\
	/tests/swapoff -r swapoff.zram.fill_levels
SWAPOFF_DISK_MB=$ORD_DISK_MB SWAPOFF_DATA_MB=$ORD_MB \\
	/tests/swapoff -r swapoff.zram.data_intact
EOS
chmod +x "$extra/swapoff-bench"

params="warmup=1 fills=$FILLS_MB keep=$KEEP_MB disk=$DISK_MB ord=$ORD_MB/$ORD_DISK_MB smp=$SMP mem=$MEM"
if [ -f "$csv" ] && ! grep -qF "# $params" "$csv"; then
	say "build/bench/swapoff.csv was made with other parameters; starting over"
	rm -f "$csv"
fi
[ -f "$csv" ] || printf '# %s\nkernel,rep,kind,fill_mb,keep_mb,swapcache_kb,ms,cpus,clocksource\n' "$params" >"$csv"

kernels="base patched" k_base=$kb k_patched=$kp
SRC=$src SELFTESTS=swapoff GUEST_EXTRA=$extra TIMEOUT=${BENCH_TIMEOUT:-2400}
export SRC SELFTESTS GUEST_EXTRA TIMEOUT
bench_reps swapoff swapoff-bench bench.py
python3 "$TOP/scripts/bench.py" report --csv "$csv" --svg "$out/swapoff.svg" \
	--keep "$KEEP_MB" | tee "$out/swapoff.txt"
say "make bench took $(($(date +%s) - t_start)) s; results in $out"
