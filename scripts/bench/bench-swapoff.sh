#!/bin/sh
# make bench-swapoff: the base and the patched kernel side by side in one run.
#
# Swapoff: a DISK_MB zram device filled to each of FILLS_MB with KEEP_MB
# left in use (cache-only) at the top of the fill, after the limit row
# (only KEEP_MB ever filled), which every run has.  Each boot first runs
# one limit swapoff as a warm-up, which is not counted.  Plus the ordinary case, ORD_MB of
# patterned data swapped out of an ORD_DISK_MB device and back.
# REPS interleaved rounds (base, prereq, patched; then prereq, patched,
# base; ...).  The prereq kernel is the base with only the prerequisites
# (prereqs/) applied, so that the series is measured against the code it
# changes; PREREQ=0 leaves it out (it is left out anyway when the tree has
# no prerequisites of ours).  STEPS names patch numbers of series/ (after
# prereqs/) whose prefix is booted too, in the same rounds, between the
# prerequisites and the whole series; the report then sets each against
# the kernel before it, so STEPS="4 5" measures patch 5 alone.  None by
# default.
# Results go to build/bench/swapoff.csv; a rerun resumes where it stopped
# (FRESH=1 starts over).  The report: scripts/bench.py.
#
# PROFILE=1 breaks each swapoff of the fill levels down into its parts:
# kernels with the function graph tracer (FLAVOR=profile), which times
# swapoff and the functions it calls that make up its parts (a fixed
# list; inlined code counts as swapoff's own), in the guest; the time of each
# part, base against patched, goes to build/bench/KIND-phases.txt (raw:
# KIND-phases.csv), where KIND is swapoff-profile[-icount][-TAG].  Traced
# times are slower than untraced ones, so these runs have their own KIND.csv.
#
# ICOUNT=1: guest time counts instructions (lib.sh icount_setup), free of
# the host's load; these runs have their own swapoff-icount.csv.
#
# TAG=NAME keeps a run with other sizes apart from the default one (its
# files are swapoff[-profile][-icount]-NAME.*), so that, say, a 256 GiB
# device (DISK_MB=262144) does not start the default run over.
set -eu
. "$(dirname "$0")/../lib.sh"
: "${REPS:=5}"
: "${FILLS_MB:=1024,4096,16384}"
: "${KEEP_MB:=16}"
: "${DISK_MB:=65536}"
: "${ORD_MB:=2048}"
: "${ORD_DISK_MB:=4096}"
: "${MEM:=6G}"
: "${SMP:=2}"
: "${PROFILE:=}"
: "${ICOUNT:=}"
: "${TAG:=}"
: "${PREREQ:=1}"
: "${APPEND:=}"
: "${STEPS:=}"
case $TAG in *[!a-z0-9-]*) die "TAG must be lower-case letters, digits and dashes" ;; esac
# The guest's fills: the warm-up, the limit row, then FILLS_MB.
fills=$KEEP_MB,$KEEP_MB,$FILLS_MB
export MEM SMP
# shellcheck disable=SC2086 # one word per patch number
steps=$(echo $STEPS | tr ' ' '-')
kind=swapoff${PROFILE:+-profile}${ICOUNT:+-icount}${steps:+-steps$steps}${TAG:+-$TAG}
bench_start "$kind"
flavor=plain
[ -n "$PROFILE" ] && flavor=profile

icount_setup
both_kernels "$flavor"
work_tree || die "no work tree"
src=$WORK
[ -r "$kb" ] && [ -r "$kp" ] || die "kernel build failed"
kernels=base
if [ "$PREREQ" = 1 ] && pre=$(git -C "$src" rev-parse -q --verify refs/swapq/prereqs); then
	prefix_kernel "$src" "$pre" prereq "$flavor" ||
		die "the kernel of the base with the prerequisites alone did not build"
	kernels="$kernels prereq"
fi
for n in $STEPS; do
	sha=$(series_commit "$src" "$n")
	[ -n "$sha" ] || die "the series has no patch $n"
	prefix_kernel "$src" "$sha" "step$n" "$flavor" || die "the kernel at patch $n did not build"
	kernels="$kernels step$n"
done
kernels="$kernels patched"

# The guest side: the series' own kselftest, driven with bench sizes.
# Each kind stages its own guest files: runs of other kinds (TAG) may go on
# at the same time, and the guest reads its parameters when it boots.
extra=$out/guest-$kind
stage_bench_guest "$extra" swapoff-bench PROFILE="$PROFILE" DISK_MB="$DISK_MB" FILLS="$fills" \
	KEEP_MB="$KEEP_MB" ORD_DISK_MB="$ORD_DISK_MB" ORD_MB="$ORD_MB"

# APPEND (the guest's extra command line, say rcupdate.rcu_expedited=1)
# changes what is timed: a run with another one starts its own CSV.
params="warmup=1${PROFILE:+ profile}${ICOUNT:+ icount} kernels=$kernels fills=$fills keep=$KEEP_MB disk=$DISK_MB ord=$ORD_MB/$ORD_DISK_MB smp=$SMP mem=$MEM${APPEND:+ append=$APPEND}"
bench_csv "$params" kernel,rep,kind,fill_mb,keep_mb,swapcache_kb,ms,cpu_ms,cpus,clocksource

SRC=$src SELFTESTS=swapoff GUEST_EXTRA=$extra TIMEOUT=${BENCH_TIMEOUT:-2400}
# The collector refuses a boot whose devices were not these sizes.
BENCH_DISK_MB=$DISK_MB BENCH_ORD_DISK_MB=$ORD_DISK_MB
export SRC SELFTESTS GUEST_EXTRA TIMEOUT BENCH_DISK_MB BENCH_ORD_DISK_MB APPEND
# shellcheck disable=SC2086 # the kernels' names, a word each
bench_reps "$kind" swapoff-bench bench.py "$csv" "$flavor" $kernels
if [ -n "$PROFILE" ]; then
	# Each boot's trace, by fill: kernel,rep,fill_mb,part,ms.
	phases=$out/$kind-phases
	echo "kernel,rep,fill_mb,part,ms" >"$phases.csv"
	for k in $kernels; do
		r=1
		while [ "$r" -le "$REPS" ]; do
			python3 "$TOP/scripts/bench/bench.py" phases --kernel "$k" --rep "$r" \
				--fills "$fills" \
				--results "$BUILD/logs/bench-$kind-$k-$r.results.log" \
				>>"$phases.csv" || die "no swapoff trace in build/logs/bench-$kind-$k-$r"
			r=$((r + 1))
		done
	done
	python3 "$TOP/scripts/bench/bench.py" phases-report --csv "$phases.csv" \
		--keep "$KEEP_MB" --smp "$SMP" --disk "$DISK_MB" ${ICOUNT:+--icount} | tee "$phases.txt"
else
	arch_load
	# report OPTION...: the report's tables, with OPTION
	report() {
		python3 "$TOP/scripts/bench/bench.py" report --csv "$csv" "$@" \
			--keep "$KEEP_MB" --clocksource "$arch_clocksource" ${ICOUNT:+--icount}
		echo
	}
	# Elapsed time, then the CPU time of swapoff's thread (its RCU waits
	# left out: on a small swapoff the tick they end on decides the first).
	{ report --svg "$out/$kind.svg" && report --cpu; } | tee "$out/$kind.txt"
fi
say "make bench took $(($(date +%s) - t_start)) s; results in $out"
