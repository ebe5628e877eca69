#!/bin/sh
# make bench: the base and the patched kernel side by side in one run.
#
# Swapoff: a DISK_MB zram device filled to each of FILLS_MB with KEEP_MB
# left in use (cache-only) at the top of the fill, after the limit row
# (only KEEP_MB ever filled), which every run has.  Each boot first runs
# one limit swapoff as a warm-up, which is not counted.  Plus the ordinary case, ORD_MB of
# patterned data swapped out of an ORD_DISK_MB device and back.
# REPS interleaved pairs (base, patched; then patched, base; ...).
# Results go to build/bench/swapoff.csv; a rerun resumes where it stopped
# (FRESH=1 starts over).  The report: scripts/bench.py.
#
# PROFILE=1 breaks each swapoff of the fill levels down into its parts:
# kernels with the function graph tracer (FLAVOR=profile), which times
# swapoff and the functions it calls that make up its parts (a fixed
# list; inlined code counts as swapoff's own), in the guest; the time of each
# part, base against patched, goes to build/bench/swapoff-phases.txt
# (raw: swapoff-phases.csv).  Traced times are slower than untraced ones,
# so these runs have their own swapoff-profile.csv.
set -eu
. "$(dirname "$0")/lib.sh"
: "${REPS:=5}"
: "${FILLS_MB:=1024,4096,16384}"
: "${KEEP_MB:=16}"
: "${DISK_MB:=65536}"
: "${ORD_MB:=2048}"
: "${ORD_DISK_MB:=4096}"
: "${MEM:=6G}"
: "${SMP:=2}"
: "${PROFILE:=}"
# The guest's fills: the warm-up, the limit row, then FILLS_MB.
fills=$KEEP_MB,$KEEP_MB,$FILLS_MB
export MEM SMP
out=$BUILD/bench
csv=$out/swapoff${PROFILE:+-profile}.csv
flavor=plain
[ -n "$PROFILE" ] && flavor=profile
mkdir -p "$out"
[ "${FRESH:-}" = 1 ] && rm -f "$csv"
t_start=$(date +%s)

"$TOP/scripts/deps.sh"
src=$(lastline "$TOP/scripts/tree.sh" work) || die "no work tree"
kb=$(VARIANT=base FLAVOR=$flavor lastline "$TOP/scripts/build-kernel.sh") || die "base kernel build failed"
kp=$(VARIANT=patched FLAVOR=$flavor lastline "$TOP/scripts/build-kernel.sh") || die "patched kernel build failed"
[ -r "$kb" ] && [ -r "$kp" ] || die "kernel build failed"

# The guest side: the series' own kselftest, driven with bench sizes.
extra=$out/guest
mkdir -p "$extra"
cat >"$extra/swapoff-bench" <<EOS
#!/bin/sh
tr=/sys/kernel/tracing
if [ -n "$PROFILE" ]; then
	mount -t tracefs nodev \$tr 2>/dev/null
	echo 0 >\$tr/tracing_on
	echo '*sys_swapoff' >\$tr/set_graph_function || echo "# PROFILE: no tracer"
	echo bdev_release >>\$tr/set_graph_function 2>/dev/null
	# Hook only swapoff and the functions it is made of: a hook on every
	# function (the default) slows the parts by how many calls they make.
	# Names a kernel lacks are refused and skipped.
	for f in '*sys_swapoff' try_to_unuse find_next_to_unuse wait_for_allocation \
		shmem_unuse unuse_mm unuse_pte_range swap_cache_get_folio folio_free_swap \
		synchronize_rcu wait_for_completion flush_work percpu_ref_kill_and_confirm \
		free_swap_cluster_info free_swap_cluster_hints swap_cluster_free_table \
		zswap_swapoff swap_cgroup_swapoff exit_swap_address_space \
		destroy_swap_extents file_open_name filp_close kvfree vfree free_percpu \
		swap_queue_publish reinsert_swap_info del_from_avail_list bdev_release \\
		zram_release zram_reset_device; do
		echo "\$f" >>\$tr/set_ftrace_filter 2>/dev/null
	done
	echo 3 >\$tr/max_graph_depth
	echo 1 >\$tr/options/funcgraph-tail
	echo 0 >\$tr/options/funcgraph-irqs
	echo 65536 >\$tr/buffer_size_kb
	echo function_graph >\$tr/current_tracer
	echo 1 >\$tr/tracing_on
fi
SWAPOFF_DISK_MB=$DISK_MB SWAPOFF_FILLS_MB=$fills SWAPOFF_KEEP_MB=$KEEP_MB \\
	/tests/swapoff -r swapoff.zram.fill_levels
if [ -n "$PROFILE" ]; then
	echo 0 >\$tr/tracing_on
	sed 's/^/SWAPQ-TRACE /' \$tr/trace
	echo nop >\$tr/current_tracer
fi
SWAPOFF_DISK_MB=$ORD_DISK_MB SWAPOFF_DATA_MB=$ORD_MB \\
	/tests/swapoff -r swapoff.zram.data_intact
EOS
chmod +x "$extra/swapoff-bench"

params="warmup=1${PROFILE:+ profile} fills=$fills keep=$KEEP_MB disk=$DISK_MB ord=$ORD_MB/$ORD_DISK_MB smp=$SMP mem=$MEM"
if [ -f "$csv" ] && ! grep -qF "# $params" "$csv"; then
	say "build/bench/swapoff.csv was made with other parameters; starting over"
	rm -f "$csv"
fi
[ -f "$csv" ] || printf '# %s\nkernel,rep,kind,fill_mb,keep_mb,swapcache_kb,ms,cpus,clocksource\n' "$params" >"$csv"

kernels="base patched" k_base=$kb k_patched=$kp
SRC=$src SELFTESTS=swapoff GUEST_EXTRA=$extra TIMEOUT=${BENCH_TIMEOUT:-2400}
export SRC SELFTESTS GUEST_EXTRA TIMEOUT
bench_reps swapoff${PROFILE:+-profile} swapoff-bench bench.py
if [ -n "$PROFILE" ]; then
	# Each boot's trace, by fill: kernel,rep,fill_mb,part,ms.
	echo "kernel,rep,fill_mb,part,ms" >"$out/swapoff-phases.csv"
	for k in $kernels; do
		r=1
		while [ "$r" -le "$REPS" ]; do
			python3 "$TOP/scripts/bench.py" phases --kernel "$k" --rep "$r" \
				--fills "$fills" \
				--results "$BUILD/logs/bench-swapoff-profile-$k-$r.results.log" \
				>>"$out/swapoff-phases.csv" || die "no swapoff trace in bench-swapoff-profile-$k-$r"
			r=$((r + 1))
		done
	done
	python3 "$TOP/scripts/bench.py" phases-report --csv "$out/swapoff-phases.csv" \
		--keep "$KEEP_MB" | tee "$out/swapoff-phases.txt"
else
	arch_load
	python3 "$TOP/scripts/bench.py" report --csv "$csv" --svg "$out/swapoff.svg" \
		--keep "$KEEP_MB" --clocksource "$arch_clocksource" | tee "$out/swapoff.txt"
fi
say "make bench took $(($(date +%s) - t_start)) s; results in $out"
