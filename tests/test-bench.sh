#!/bin/sh
# The benchmark reports on saved data: the ratio interval, and the swapoff
# profile's parser on a function graph trace (two swapoff calls, the first
# split across a CPU switch).
. "$(dirname "$0")/lib.sh"
cd "$TOP/scripts/bench" || exit 1
got=$(python3 -c 'import stats; print(stats.fmt_ci(stats.ratio_ci({1: 10, 2: 10, 3: 10, 4: 10}, {1: 20, 2: 20, 3: 20, 4: 20})))')
if [ "$got" = "2.00 [2.00..2.00]" ]; then ok ratio-ci-exact; else notok ratio-ci-exact "$got"; fi
got=$(python3 -c 'import stats; print(stats.ratio_ci({1: 10, 2: 11}, {1: 20, 2: 21}))')
if [ "$got" = None ]; then ok ratio-ci-too-few-pairs; else notok ratio-ci-too-few-pairs "$got"; fi
got=$(python3 -c 'import stats
b = {i: 100 + i % 7 for i in range(20)}
o = {i: 100 + (i * 3) % 11 for i in range(20)}
r, lo, hi, n = stats.ratio_ci(b, o)
print("ok" if lo <= r <= hi and lo < 1.05 and hi > 0.95 and n == 20 else (r, lo, hi, n))')
if [ "$got" = ok ]; then ok ratio-ci-holds-ratio; else notok ratio-ci-holds-ratio "$got"; fi
# The trace's third swapoff took no device off (EINVAL: it only looked its
# path up): it is not counted among the fills' calls.
got=$(python3 -c 'import bench
calls = bench.swapoff_calls(open("'"$TOP"'/tests/data/swapoff-graph.log"))
c = calls[0]
print(len(calls), "%.3f %.3f %.5f %.3f %.5f" % (c["(whole swapoff)"], c["synchronize_rcu"],
      c["try_to_unuse"], c["getname"], c["(in swapoff itself)"]))')
if [ "$got" = "2 40.000 30.000 2.01000 0.001 7.98875" ]; then
	ok swapoff-graph-parts
else
	notok swapoff-graph-parts "$got"
fi
# The device's release comes after swapoff returns: added to that call.
got=$(cd "$TOP/scripts/bench" && python3 -c '
import bench
calls = bench.swapoff_calls(open("'"$TOP"'/tests/data/swapoff-graph.log"))
print("%.3f %s" % (calls[0]["(device release, after swapoff)"],
      "(device release, after swapoff)" in calls[1]))')
if [ "$got" = "0.025 False" ]; then
	ok swapoff-graph-release
else
	notok swapoff-graph-release "$got"
fi
expect_fail swapoff-graph-fill-count '2 swapoff calls traced, 3 fills' \
	python3 bench.py phases --kernel base --rep 1 --fills 16,64,1024 \
	--results "$TOP/tests/data/swapoff-graph.log"
# The swapoff collector reads the kselftest's own lines (swapoff.c): the
# first fill warms up, the cache line goes with the fill after it; a boot
# whose device is not the size the run asked for is refused.
printf '%s\n' 'SWAPQ-FACT cpus=2 clocksource=tsc' \
	'# swapoff.c:781:fill_levels:swap cache 16300 kB before swapoff' \
	'# swapoff.c:781:fill_levels:swapoff zram 65536 MiB, fill 16 MiB, kept 16 MiB: 23.739 ms' \
	"# swapoff.c:782:fill_levels:swapoff's CPU time: 2.5 ms" \
	'# swapoff.c:780:fill_levels:swap cache 16200 kB before swapoff' \
	'# swapoff.c:781:fill_levels:swapoff zram 65536 MiB, fill 1024 MiB, kept 16 MiB: 25.5 ms' \
	"# swapoff.c:782:fill_levels:swapoff's CPU time: 3.25 ms" \
	'# swapoff.c:477:data_intact:swapoff zram 1024 MiB, data 256 MiB (262144 kB out): 385.394 ms' \
	>"$T/swapoff.log"
expect_eq swapoff-collect "$(BENCH_DISK_MB=65536 BENCH_ORD_DISK_MB=1024 python3 bench.py collect \
	--kernel base --rep 1 --results "$T/swapoff.log" | tr '\n' ' ')" \
	"base,1,fill,1024,16,16200,25.5,3.25,2,tsc base,1,ordinary,256,0,262144,385.394,,2,tsc "
expect_fail swapoff-collect-other-size 'the guest.s device was 65536 MiB, not the 4096 asked for' \
	env BENCH_DISK_MB=4096 python3 bench.py collect --kernel base --rep 1 --results "$T/swapoff.log"
expect_fail swapoff-collect-no-lines 'no swapoff timing line' \
	python3 bench.py collect --kernel base --rep 1 --results "$TOP/tests/data/clean.log"
# The swapoff report: a column per kernel booted (base, prereq, patched)
# and the series against each; each kernel's largest fill over its limit
# row, from the same boots, must lie under 1.05 in its whole interval.
swapoff_csv() { # DISK PATCHED_LIMIT_MS: 4 rounds of 3 kernels
	python3 -c 'import sys
disk, lim = sys.argv[1], float(sys.argv[2])
print("# warmup=1 icount kernels=base prereq patched fills=16,16,4096 keep=16 disk=%s" % disk)
print("kernel,rep,kind,fill_mb,keep_mb,swapcache_kb,ms,cpu_ms,cpus,clocksource")
for r in range(1, 5):
    for k, l, f in (("base", 40, 60), ("prereq", 30, 45), ("patched", lim, lim + r % 2)):
        print("%s,%d,fill,16,16,16300,%s,%s,2,tsc" % (k, r, l + r / 10, l / 4))
        print("%s,%d,fill,4096,16,16300,%s,%s,2,tsc" % (k, r, f + r / 10, f / 4))
        print("%s,%d,ordinary,256,0,262144,%s,%s,2,tsc" % (k, r, 300 + r, 280))' "$@"
}
swapoff_csv 65536 20 >"$T/so-64g.csv"
swapoff_csv 1048576 21 >"$T/so-1t.csv"
got=$(python3 bench.py report --csv "$T/so-64g.csv" --icount)
case $got in
*"base "*"prereq "*"patched "*"patched/base"*"patched/prereq"*) ok swapoff-report-columns ;;
*) notok swapoff-report-columns "$(echo "$got" | sed -n 2p)" ;;
esac
expect_eq swapoff-report-targets "$(echo "$got" | grep -o 'target: [a-z]* 4 GiB.*: [a-zA-Z ]*$' | tr '\n' '|')" \
	"target: prereq 4 GiB / prereq limit = 1.50 [1.49..1.50] (want <= 1.05): NOT met|target: patched 4 GiB / patched limit = 1.02 [1.00..1.05] (want <= 1.05): met|"
# STEPS: the series' prefixes booted in the same rounds, each set against
# the kernel before it (a patch alone: step5/step4).
python3 -c 'print("# warmup=1 icount kernels=base prereq step4 step5 patched fills=16,16,4096 keep=16 disk=65536")
print("kernel,rep,kind,fill_mb,keep_mb,swapcache_kb,ms,cpu_ms,cpus,clocksource")
for r in range(1, 5):
    for k, l in (("base", 40), ("prereq", 30), ("step4", 25), ("step5", 20), ("patched", 20)):
        print("%s,%d,fill,16,16,16300,%s,,2,tsc" % (k, r, l + r / 10))
        print("%s,%d,fill,4096,16,16300,%s,,2,tsc" % (k, r, 2 * l + r / 10))' >"$T/so-steps.csv"
got=$(python3 bench.py report --csv "$T/so-steps.csv" --icount)
expect_eq swapoff-report-steps "$(echo "$got" | sed -n '/^each step/,$p' | sed -n '2p;3p' | tr -s ' ' | sed 's/ $//')" \
	"filled step4/prereq step5/step4 patched/step5
16 MiB (limit) 0.83 [0.83..0.84] 0.80 [0.80..0.80] 1.00 [1.00..1.00]"
# Two runs, one per device size: the limit rows resampled apart; an
# interval that holds the bound decides nothing.
expect_eq swapoff-sizes "$(python3 bench.py sizes --small "$T/so-64g.csv" --large "$T/so-1t.csv" |
	awk '/^patched/ { $1 = $2 = $3 = $4 = $5 = ""; sub(/^ */, ""); print }')" "1.05 [1.04..1.06]: undecided"
swapoff_csv 1048576 20 >"$T/so-1t.csv"
expect_eq swapoff-sizes-met "$(python3 bench.py sizes --small "$T/so-64g.csv" --large "$T/so-1t.csv" |
	awk '/^patched/ { $1 = $2 = $3 = $4 = $5 = ""; sub(/^ */, ""); print }')" "1.00 [0.99..1.01]: met"
# --cpu: the tables of swapoff's CPU time (cpu_ms), headed so; a CSV
# made before swapoff.c timed it is refused, not read as zeros.
got=$(python3 bench.py report --csv "$T/so-1t.csv" --icount --cpu)
expect_eq swapoff-report-cpu "$(echo "$got" | sed -n '1s/ (.*//p;/^16 MiB/p' | tr -s ' ' | cut -d' ' -f1-7)" \
	"swapoff CPU time
16 MiB (limit) 10.0 [10.0..10.0] 7.5 [7.5..7.5]"
expect_eq swapoff-sizes-cpu "$(python3 bench.py sizes --cpu --small "$T/so-64g.csv" --large "$T/so-1t.csv" |
	awk '/^patched/ { $1 = $2 = $3 = $4 = $5 = ""; sub(/^ */, ""); print }')" "1.00 [1.00..1.00]: met"
expect_fail swapoff-report-cpu-missing 'a row has no CPU time' \
	python3 bench.py report --csv "$T/so-steps.csv" --cpu
# The mTHP collector: one row per scenario line, with the guest's facts.
printf '%s\n' 'SWAPQ-FACT cpus=2 clocksource=tsc' \
	'# mthp one_device: faulted=2048 swpout=2040 swpout_fallback=8 pageout_us=1500' \
	'ok 1 one_device # 0 pages wrong' >"$T/mthp.log"
expect_eq mthp-collect "$(python3 bench_mthp.py collect --kernel base --rep 2 --results "$T/mthp.log")" \
	"base,2,one_device,2048,2040,8,1500,2,tsc"
# Its report: the page-out time's ratio over the pairs, labelled icount.
{
	echo '# smp=2 mem=3G icount accel=tcg'
	echo kernel,rep,scenario,faulted,swpout,swpout_fallback,pageout_us,cpus,clocksource
	for r in 1 2 3; do echo "base,$r,none_fits,64,0,64,1000,2,tsc"; echo "patched,$r,none_fits,64,0,64,1500,2,tsc"; done
} >"$T/mthp.csv"
got=$(python3 bench_mthp.py report --csv "$T/mthp.csv")
expect_eq mthp-report-time "$(echo "$got" | grep -c 'icount') $(echo "$got" | tail -n1)" \
	"1   pageout_us patched/base: 1.50 [1.50..1.50]"
# hibernate.sh's report: the slot's own time is the slot less the ioctl.
printf '%s\n' kernel,rep,write_ms,kbytes,slot_ns,ioctl_ns \
	base,1,900,1,1000,600 patched,1,900,1,1100,600 base,2,900,1,1000,600 \
	patched,2,900,1,1100,600 base,3,900,1,1000,600 patched,3,900,1,1100,600 >"$T/hib.csv"
got=$(python3 bench.py hibernate-report --csv "$T/hib.csv" | tail -n1)
if [ "$got" = "    patched/base: 1.25 [1.25..1.25] over 3 pairs" ]; then
	ok hibernate-report-slot
else
	notok hibernate-report-slot "$got"
fi
# The lock_stat collector: per device count, each class's own line, not
# the call-site lines under it; two classes of one name are added up; a
# block cut before its end is not counted.
cls() {
	printf '                 %s:          10          %s           0.10          5.00         %s           3.00         500         %s           0.10           1.00          50.00           0.05\n' "$@"
}
{
	echo 'SWAPQ-FACT cpus=2 clocksource=tsc'
	echo 'SWAPQ-LOCKSTAT-BEGIN devs=4'
	cls '&ci->lock' 40 120.00 900
	echo '                 &ci->lock          30          [<0>] cluster_alloc_swap_entry+0x1/0x2'
	cls 'swap_avail_lock' 1 0.50 7
	cls '&ci->lock' 2 0.25 100
	echo 'SWAPQ-LOCKSTAT-END'
	echo 'SWAPQ-LOCKSTAT-BEGIN devs=16'
	cls '&ci->lock' 5 1.00 9
} >"$T/ls.log"
expect_eq lockstat-collect "$(python3 bench_lockstat.py collect --kernel base --rep 1 --results "$T/ls.log")" \
	"base,1,4,&ci->lock,42,120.25,1000,2,tsc
base,1,4,swap_avail_lock,1,0.50,7,2,tsc"
{
	echo 'kernel,rep,devs,lock,contentions,wait_us,acquisitions,cpus,clocksource'
	for r in 1 2 3; do
		echo "base,$r,4,&ci->lock,40,1.0,900,2,tsc"
		echo "patched,$r,4,&ci->lock,20,1.0,900,2,tsc"
	done
} >"$T/ls.csv"
if python3 bench_lockstat.py report --csv "$T/ls.csv" | grep -q '&ci->lock .* 0.50 \[0.50..0.50\]'; then
	ok lockstat-report-ratio
else
	notok lockstat-report-ratio "$(python3 bench_lockstat.py report --csv "$T/ls.csv" 2>&1 | tail -n 2)"
fi
# bench_alloc's report: a device count run twice in a boot counts as the
# median of its runs (here 12 and 8 for base's rep 1, so 10).
{
	echo '# params'
	echo kernel,rep,devs,elapsed_ms,sys_ms,out_mibs,in_mibs,peak_kb,cpus,clocksource
	for r in 1 2 3; do
		echo "patched,$r,1,20,20,1,1,4,2,tsc"
		echo "patched,$r,1,20,20,1,1,4,2,tsc"
	done
	echo 'base,1,1,12,10,1,1,4,2,tsc'
	echo 'base,1,1,8,10,1,1,4,2,tsc'
	echo 'base,2,1,10,10,1,1,4,2,tsc'
	echo 'base,3,1,10,10,1,1,4,2,tsc'
} >"$T/alloc.csv"
got=$(python3 bench_alloc.py report --csv "$T/alloc.csv" | sed -n '/^elapsed_ms/{n;p}' | tr -s ' ' | sed 's/ *$//')
if [ "$got" = " 1 10.0 [10.0..10.0] 20.0 [20.0..20.0] 2.00 [2.00..2.00]" ]; then
	ok alloc-runs-per-boot
else
	notok alloc-runs-per-boot "$got"
fi
# The full top device's case (DEVS=topfull) is collected by name and
# reported after the device counts.
printf '%s\n' 'SWAPQ-FACT cpus=2 clocksource=tsc' \
	'SWAPQ-ALLOC elapsed_ms=30 sys_ms=20 out_mibs=1.0 in_mibs=2.0 peak_kb=4/8 devs=topfull' >"$T/topfull.log"
expect_eq alloc-collect-topfull "$(python3 bench_alloc.py collect --kernel base --rep 4 --results "$T/topfull.log")" \
	"base,4,topfull,30,20,1.0,2.0,4/8,2,tsc"
for r in 1 2 3; do echo "base,$r,topfull,30,20,1,1,4/8,2,tsc"; echo "patched,$r,topfull,33,20,1,1,4/8,2,tsc"; done >>"$T/alloc.csv"
got=$(python3 bench_alloc.py report --csv "$T/alloc.csv" | sed -n '/^elapsed_ms/{n;n;p}' | tr -s ' ' | sed 's/ *$//')
expect_eq alloc-report-topfull "$got" " topfull 30.0 [30.0..30.0] 33.0 [33.0..33.0] 1.10 [1.10..1.10]"
# The usage spread at the peak: per-boot medians, and patched's over
# base's with the interval of the pairs (2.0 on base, 1.0 patched).
for r in 1 2 3; do echo "base,$r,4,30,20,1,1,4096/8192/6144/6144,2,tsc"; echo "patched,$r,4,30,20,1,1,5120/5120/5120/5120,2,tsc"; done >>"$T/alloc.csv"
got=$(python3 bench_alloc.py report --csv "$T/alloc.csv" | sed -n '/^peak usage/{n;n;p;n;p}' | tr -s ' ' | sed 's/ *$//')
expect_eq alloc-report-usage-ratio "$got" "4 base 2.000 [2.000..2.000] (4.0) patched 1.000 [1.000..1.000] (0.0)
 patched/base 0.50 [0.50..0.50]"
# The priority inversion collector: one row per order line.
printf '%s\n' 'SWAPQ-FACT cpus=2 clocksource=tsc' '# prio order0: low_kb=1984 high_kb=2112' \
	'ok 1 order0 # 0 pages wrong, 4096 kB swapped' >"$T/prio.log"
expect_eq prio-collect "$(python3 bench_prio.py collect --kernel patched --rep 1 --results "$T/prio.log")" \
	"patched,1,order0,1984,2112,2,tsc"

# The accelerator is the CSV's (bench_csv writes accel= on its params
# line): a KVM run is reported as KVM, an older CSV without it as TCG.
{ echo "# smp=2 mem=3G accel=kvm"; cat "$T/hib.csv"; } >"$T/hib-kvm.csv"
h_kvm=$(python3 bench.py hibernate-report --csv "$T/hib-kvm.csv" | sed -n 1p)
h_tcg=$(python3 bench.py hibernate-report --csv "$T/hib.csv" | sed -n 1p)
# hibernate.sh ICOUNT=1 writes " icount" on the CSV's first line.
{ echo "# icount accel=tcg"; cat "$T/hib.csv"; } >"$T/hib-icount.csv"
# Under -icount the image write's guest time is the disk's, not a path:
# it is left out of the report.
got=$(python3 bench.py hibernate-report --csv "$T/hib-icount.csv")
expect_eq hibernate-report-icount "$(echo "$got" | sed -n 1p) $(echo "$got" | grep -c 'image write (uncompressed)')" \
	"hibernation, QEMU TCG -icount shift=0 (guest time counts instructions), 2 vCPUs, medians over the boots; patched/base 0"
# The write up to its 90% line (queue_ms) is reported, under -icount too:
# the slots and the queueing are instructions, the final wait is not.
{
	echo "# icount accel=tcg"
	echo kernel,rep,write_ms,kbytes,slot_ns,ioctl_ns,queue_ms
	for r in 1 2 3; do echo "base,$r,2000,1,1000,600,200"; echo "patched,$r,9000,1,1100,600,220"; done
} >"$T/hib-queue.csv"
got=$(python3 bench.py hibernate-report --csv "$T/hib-queue.csv" | grep -A3 'to its 90% line' | tail -n1)
expect_eq hibernate-report-queue "$got" "    patched/base: 1.10 [1.10..1.10] over 3 pairs"
case "$h_kvm|$h_tcg" in
"hibernation, QEMU KVM,"*"|hibernation, QEMU TCG,"*) ok report-names-accel ;;
*) notok report-names-accel "$h_kvm / $h_tcg" ;;
esac
# bench_csv: a CSV made under another accelerator is started over, so one
# comparison never mixes KVM and TCG runs.
# Nor kernels built from another source (source_id): a rerun after the
# series changed starts over; one from the same source resumes.
# csv_twice ACCEL SOURCE ACCEL SOURCE: the CSV after a row and a rerun
csv_twice() {
	rm -f "$T/mix.csv"
	sh -c '. "$TOP/scripts/lib.sh"; source_id() { echo "$src"; }; csv=$1
	accel=$2 src=$3; bench_csv "smp=2" kernel,rep; echo "base,1" >>"$csv"
	accel=$4 src=$5; bench_csv "smp=2" kernel,rep 2>/dev/null; cat "$csv"' sh "$T/mix.csv" "$@" |
		tr '\n' ' '
}
expect_eq bench-csv-accel-starts-over "$(csv_twice kvm s1 tcg s1)" "# smp=2 accel=tcg source=s1 kernel,rep "
expect_eq bench-csv-source-starts-over "$(csv_twice tcg s1 tcg s2)" "# smp=2 accel=tcg source=s2 kernel,rep "
expect_eq bench-csv-resumes "$(csv_twice tcg s1 tcg s1)" "# smp=2 accel=tcg source=s1 kernel,rep base,1 "

# bench_reps: each kernel named, REPS times, in an order that rotates from
# one rep to the next, each image where kernel_image puts it; a rerun
# boots only the runs its CSV lacks.
f=$T/fake
mkdir -p "$f/scripts/kernel" "$f/scripts/bench" && cp -r "$TOP/config" "$f/"
cat >"$f/scripts/kernel/boot.sh" <<'EOS'
#!/bin/sh
echo "$3 ${1#"$BUILD"/obj/}" >>"$BUILD/boots"
: >"$BUILD/logs/$3.results.log"
EOS
chmod +x "$f/scripts/kernel/boot.sh"
echo 'import sys; a = dict(zip(sys.argv[2::2], sys.argv[3::2])); print("%s,%s,1" % (a["--kernel"], a["--rep"]))' \
	>"$f/scripts/bench/c.py"
reps() {
	(TOP=$f BUILD=$T/bb REPS=3 ARCH=x86_64 && . "$lib" && mkdir -p "$BUILD/logs" && touch "$BUILD/k.csv" &&
		bench_reps k t c.py "$BUILD/k.csv" plain base step3 patched 2>/dev/null)
}
lib=$TOP/scripts/lib.sh
reps
expect_eq bench-reps-rotate "$(tr '\n' ' ' <"$T/bb/boots")" \
"bench-k-base-1 x86_64-base-plain/arch/x86/boot/bzImage bench-k-step3-1 x86_64-step3-plain/arch/x86/boot/bzImage \
bench-k-patched-1 x86_64-patched-plain/arch/x86/boot/bzImage bench-k-step3-2 x86_64-step3-plain/arch/x86/boot/bzImage \
bench-k-patched-2 x86_64-patched-plain/arch/x86/boot/bzImage bench-k-base-2 x86_64-base-plain/arch/x86/boot/bzImage \
bench-k-patched-3 x86_64-patched-plain/arch/x86/boot/bzImage bench-k-base-3 x86_64-base-plain/arch/x86/boot/bzImage \
bench-k-step3-3 x86_64-step3-plain/arch/x86/boot/bzImage "
sed -i '/^step3,2,/d' "$T/bb/k.csv"
rm "$T/bb/boots"
reps
expect_eq bench-reps-resume "$(cat "$T/bb/boots") $(wc -l <"$T/bb/k.csv")" \
	"bench-k-step3-2 x86_64-step3-plain/arch/x86/boot/bzImage 9"

# build_kernel: built_image is where kernel_image puts that kernel (its
# OBJ_NAME and ARCH taken from the settings given), empty after a failure.
printf '#!/bin/sh\n[ -z "${FAIL:-}" ]\n' >"$f/scripts/kernel/kernel.sh"
chmod +x "$f/scripts/kernel/kernel.sh"
got=$( (TOP=$f BUILD=$T/bb ARCH=x86_64 && . "$lib" &&
	build_kernel mutant debug OBJ_NAME=step2 && echo "${built_image#"$BUILD"/obj/}" &&
	build_kernel patched kunit ARCH=arm64 && echo "${built_image#"$BUILD"/obj/}"
	build_kernel patched plain FAIL=1 || echo "[$built_image]") 2>/dev/null | tr '\n' ' ')
expect_eq build-kernel-image "$got" \
	"x86_64-step2-debug/arch/x86/boot/bzImage arm64-patched-kunit/arch/arm64/boot/Image [] "

# make bench-cover: a part it does not have is named, before anything runs.
got=$(PARTS="c1-64g nope" sh "$TOP/scripts/bench/cover.sh" 2>&1)
rc=$?
case "$rc|$got" in
[1-9]*"|"*"no part nope (parts: c1-64g "*) ok bench-cover-unknown-part ;;
*) notok bench-cover-unknown-part "exit $rc: $got" ;;
esac
