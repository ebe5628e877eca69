#!/bin/sh
# make bench-cover: every run the cover letters quote, each with the
# settings the letter names, on the series as it is applied now.  Each
# part is one of the benchmarks (make bench-*, or hibernate.sh of
# check-full); it resumes from its own CSV, and its CSV starts over when
# the kernels' source has changed (lib.sh bench_csv, source_id), so a
# number never outlives the tree it was measured on.  Every report goes
# to build/bench/cover/PART.txt, headed by the command, the source id
# and the date it finished.
#   PARTS="c1-64g lockstat": only those parts (default: all, in order).
# The icount parts count instructions: the host's load does not move
# them, and two of them may run at the same time (PARTS), once their
# kernels are built.  The -real parts and lockstat time real TCG: run
# them alone.  hibernate-icount is check-full's hibernation round trip
# under -icount (scripts/check/hibernate.sh ICOUNT=1).  The prof- parts
# trace swapoff's parts with the function graph tracer (PROFILE=1).
set -eu
. "$(dirname "$0")/../lib.sh"

# name|make target and settings (the letters quote this text)
parts='c1-64g|bench-swapoff ICOUNT=1 SMP=1 TAG=c1-64g DISK_MB=65536 FILLS_MB=1024 ORD_MB=64 ORD_DISK_MB=256 STEPS="5 6"
c1-1t|bench-swapoff ICOUNT=1 SMP=1 TAG=c1-1t DISK_MB=1048576 MEM=10G FILLS_MB=4096 ORD_MB=256 ORD_DISK_MB=1024 STEPS="5 6"
c1-real|bench-swapoff TAG=c1-real
c1-1t-real|bench-swapoff TAG=c1-1t-real DISK_MB=1048576 MEM=10G FILLS_MB=4096 ORD_MB=256 ORD_DISK_MB=1024
alloc|bench-alloc ICOUNT=1 DEVS="1 4 16 max topfull"
mthp|bench-mthp ICOUNT=1 REPS=5
prio|bench-prio
lockstat|bench-lockstat REPS=8
hibernate-icount|hibernate ICOUNT=1
prof-64g|bench-swapoff PROFILE=1 ICOUNT=1 SMP=1 REPS=3 PREREQ=0 FILLS_MB=64 ORD_MB=64 ORD_DISK_MB=256 TAG=prof-64g DISK_MB=65536 MEM=6G
prof-1t|bench-swapoff PROFILE=1 ICOUNT=1 SMP=1 REPS=3 PREREQ=0 FILLS_MB=64 ORD_MB=64 ORD_DISK_MB=256 TAG=prof-1t DISK_MB=1048576 MEM=10G'
names=$(echo "$parts" | cut -d'|' -f1 | tr '\n' ' ')
for p in ${PARTS:-}; do
	case " $names " in *" $p "*) ;; *) die "no part $p (parts: $names)" ;; esac
done
work_tree || die "no work tree"
dir=$BUILD/bench/cover
mkdir -p "$dir"
echo "$parts" | while IFS='|' read -r name cmd; do
	case " ${PARTS:-$names} " in *" $name "*) ;; *) continue ;; esac
	src=$(source_id) || die "cannot read the work tree's source"
	say "part $name: $cmd"
	t0=$(date +%s)
	# make's command line: the settings as variables; hibernate is the
	# stage's own script, its settings in its environment.  The log keeps
	# everything; the progress lines show here.
	case $cmd in
	hibernate*)
		run="env ${cmd#hibernate} \"\$TOP/scripts/check/hibernate.sh\""
		shown="#${cmd#hibernate} scripts/check/hibernate.sh"
		;;
	*)
		run="make -C \"\$TOP\" --no-print-directory $cmd"
		shown="# make $cmd"
		;;
	esac
	rm -f "$dir/$name.rc"
	{
		eval "$run"
		echo $? >"$dir/$name.rc"
	} 2>&1 | tee "$dir/$name.log" | while IFS= read -r l; do
		case $l in "==> "*) echo "$l" ;; esac
	done
	[ "$(cat "$dir/$name.rc" 2>/dev/null)" = 0 ] ||
		die "part $name failed (log: ${dir#"$TOP"/}/$name.log)"
	[ "$src" = "$(source_id)" ] || die "part $name: the work tree changed while it ran"
	{
		echo "$shown"
		echo "# source $src, finished $(date -u '+%Y-%m-%d %H:%M UTC') after $(($(date +%s) - t0)) s"
		grep -v '^==> ' "$dir/$name.log" || true
	} >"$dir/$name.txt"
	say "part $name: ${dir#"$TOP"/}/$name.txt"
done
# The limit row by device size: the two icount swapoff parts side by side.
small=$BUILD/bench/swapoff-icount-steps5-6-c1-64g.csv
large=$BUILD/bench/swapoff-icount-steps5-6-c1-1t.csv
if [ -f "$small" ] && [ -f "$large" ]; then
	{
		echo "# scripts/bench/bench.py sizes --icount --small ${small#"$BUILD"/} --large ${large#"$BUILD"/}"
		python3 "$TOP/scripts/bench/bench.py" sizes --icount --small "$small" --large "$large"
		echo
		python3 "$TOP/scripts/bench/bench.py" sizes --icount --cpu --small "$small" --large "$large"
	} >"$dir/c1-sizes.txt" || die "no size report"
	say "sizes: ${dir#"$TOP"/}/c1-sizes.txt"
fi
