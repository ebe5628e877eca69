#!/bin/sh
# KTAP parsing and splat detection on saved logs.
. "$(dirname "$0")/lib.sh"
. "$TOP/scripts/lib.sh"
# The results are parsed by the kernel's own kunit_parser: the base tree's.
base_tree
mkdir -p "$T/k"
git -C "$base_repo" archive "$base_commit" tools/testing/kunit | tar -x -C "$T/k" ||
	die "cannot take tools/testing/kunit from the base tree"
SRC=$T/k
export SRC
R="python3 $TOP/scripts/results.py"

# guest_doc RC NAME: the results channel of a guest that ran one program,
# NAME, whose output is standard input and whose exit status is RC (none:
# it never finished), as guest/init writes it, through guest/ktap-nest.
guest_doc() {
	echo 'KTAP version 1'
	echo "# SWAPQ-FACT cpus=${CPUS:-2} clocksource=${CS:-tsc} kernel=7.3.4 mem_kb=3000000"
	echo '1..1'
	{
		cat
		[ "$1" = none ] || echo "SWAPQ-EXIT $1"
	} | sh "$TOP/guest/ktap-nest" "$2" 1
	echo "# SWAPQ-FACT clocksource_end=${CS_END:-${CS:-tsc}}"
	echo '# SWAPQ-DONE'
}
for c in mixed crash; do
	if $R ktap "$TOP/tests/data/ktap-$c.log" >"$T/$c" &&
		diff -u "$TOP/tests/data/ktap-$c.expected" "$T/$c" >"$T/$c.diff"; then
		ok "ktap-$c"
	else
		notok "ktap-$c" "$(head -c 300 "$T/$c.diff" | tr '\n' ' ')"
	fi
done
for s in lockdep kasan warning rcu hung; do
	if [ -n "$($R splats "$TOP/tests/data/splat-$s.log")" ]; then
		ok "splat-$s-found"
	else
		notok "splat-$s-found" "not detected"
	fi
done
# Each pattern, by name: its sample line is reported under it, so a
# pattern that is deleted (or shadowed by a more general one) fails here;
# and every pattern has a sample.
grep -v '^#' "$TOP/tests/data/splat-lines.txt" | while IFS='|' read -r name line; do
	printf '%s\n' "$line" >"$T/one.log"
	got=$($R splats "$T/one.log")
	case $got in
	"1: [$name] "*) ok "splat-pattern-$name" ;;
	*) notok "splat-pattern-$name" "reported as: ${got:-nothing}" ;;
	esac
done
for name in $(cd "$TOP/scripts" && python3 -c 'import results; print(" ".join(n for n, _ in results.SPLATS))'); do
	if grep -q "^$name|" "$TOP/tests/data/splat-lines.txt"; then
		ok "splat-sample-$name"
	else
		notok "splat-sample-$name" "no sample line in tests/data/splat-lines.txt"
	fi
done
if [ -z "$($R splats "$TOP/tests/data/clean.log")" ]; then
	ok "splat-clean-log"
else
	notok "splat-clean-log" "false positive: $($R splats "$TOP/tests/data/clean.log" | head -n1)"
fi

# A whole judged run: KUnit on the console, a program's TAP on the
# results channel, facts checked.  Skips fail only with --skip-fails.
cp "$TOP/tests/data/ktap-mixed.log" "$T/con"
printf '%s\n' 'TAP version 13' '1..2' 'ok 1 swapoff.zram.data_intact' \
	'ok 2 swapoff.brd.data_intact # SKIP no brd' | guest_doc 0 prog >"$T/res"
echo 'qemu_status=1 elapsed=30' >>"$T/res"
# The document is KTAP as the kernel's own tool reads it.
if python3 "$SRC/tools/testing/kunit/kunit.py" parse "$T/res" >"$T/kpy" 2>&1 &&
	grep -q 'Ran 2 tests: passed: 1, skipped: 1' "$T/kpy"; then
	ok results-doc-kunit-py
else
	notok results-doc-kunit-py "$(tail -n 1 "$T/kpy")"
fi
$R judge --name t --console "$T/con" --results "$T/res" >"$T/j" 2>&1
if grep -q '^t: 5 passed, 1 failed, 2 skipped' "$T/j"; then ok judge-counts; else notok judge-counts "$(tail -n1 "$T/j")"; fi
$R judge --name t --console "$T/con" --results "$T/res" --skip-fails >"$T/j" 2>&1
if grep -q '^t: 5 passed, 3 failed, 2 skipped' "$T/j"; then ok judge-skip-fails; else notok judge-skip-fails "$(tail -n1 "$T/j")"; fi
# Under a stage of make check the judge adds each case to the stage's
# results file ($RESULTS), after what is there, and does not end it: the
# script that owns it (RESULTS_PID, scripts/lib.sh) writes the plan.
echo 'ok 1 before' >"$T/tap"
RESULTS=$T/tap RESULTS_PID=1 $R judge --name t --console "$T/con" --results "$T/res" \
	--skip-fails >/dev/null 2>&1
expect_eq judge-results-file "$(grep -c '^ok ' "$T/tap") $(grep -c '^not ok ' "$T/tap") $(tail -n1 "$T/tap" | cut -c1-10)" \
	"6 3 not ok 9 t"
sed -i 's/cpus=2/cpus=1/; s/clocksource_end=tsc/clocksource_end=jiffies/' "$T/res"
expect_fail judge-one-cpu 'saw 1 CPU' $R judge --name t --console "$T/con" --results "$T/res"
expect_fail judge-clocksource 'clocksource_end is jiffies' $R judge --name t --console "$T/con" --results "$T/res"
# One vCPU asked for (the swapoff profile's SMP=1) is not a lost CPU;
# fewer than asked for is.
$R judge --name t --smp 1 --console "$T/con" --results "$T/res" >"$T/j1" 2>&1
if grep -q 'clocksource_end is jiffies' "$T/j1" && ! grep -q 'saw 1 CPU' "$T/j1"; then
	ok judge-one-cpu-asked
else
	notok judge-one-cpu-asked "$(tail -n1 "$T/j1")"
fi
sed 's/cpus=1/cpus=2/' "$T/res" >"$T/res4"
expect_fail judge-fewer-cpus-than-asked 'saw 2 CPU.*need at least 4' \
	$R judge --name t --smp 4 --console "$T/con" --results "$T/res4"
sed -i '/SWAPQ-DONE/d; /^ok 1 prog/d' "$T/res"
expect_fail judge-unfinished 'did not finish' $R judge --name t --console "$T/con" --results "$T/res"
sed -i 's/qemu_status=1/qemu_status=124/' "$T/res"
expect_fail judge-timeout 'timed out after 30s' $R judge --name t --console "$T/con" --results "$T/res"
cat "$TOP/tests/data/splat-kasan.log" >>"$T/con"
expect_fail judge-splat 'splat .*BUG: KASAN' $R judge --name t --console "$T/con" --results "$T/res"
# The report's lines follow (CI keeps no guest log): the task and where.
if $R judge --name t --console "$T/con" --results "$T/res" 2>&1 |
	grep -qx '# console Read of size 2 at addr ffff888004a3c00c by task swapoff/91'; then
	ok judge-splat-report
else
	notok judge-splat-report "no report lines after the splat's FAIL"
fi

# The expected clocksource follows the architecture (arm64: arch_sys_counter).
cp "$TOP/tests/data/clean.log" "$T/con2"
printf '%s\n' 'TAP version 13' '1..1' 'ok 1 stress' | CS=arch_sys_counter guest_doc 0 prog >"$T/res2"
echo 'qemu_status=0 elapsed=30' >>"$T/res2"
if $R judge --name a --console "$T/con2" --results "$T/res2" --clocksource arch_sys_counter >"$T/j2" 2>&1; then
	ok judge-arm64-clocksource
else
	notok judge-arm64-clocksource "$(tail -n1 "$T/j2")"
fi
expect_fail judge-arm64-not-tsc 'clocksource is arch_sys_counter, not tsc' \
	$R judge --name a --console "$T/con2" --results "$T/res2"

# A memory cgroup with nothing to kill fails its charge (swapoff's ENOMEM
# test): not a splat.  The whole system with nothing to kill panics: one.
printf '%s\n' '[   50.1] swapoff invoked oom-killer: gfp_mask=0x140dca, order=0, oom_score_adj=0' \
	'[   50.2] memory: usage 8192kB, limit 8192kB, failcnt 12' \
	'[   50.3] Out of memory and no killable processes...' >"$T/memcg-oom.log"
if [ -z "$($R splats "$T/memcg-oom.log")" ]; then
	ok splat-memcg-oom-not-splat
else
	notok splat-memcg-oom-not-splat "$($R splats "$T/memcg-oom.log" | head -n1)"
fi
printf '%s\n' '[   50.3] Out of memory and no killable processes...' \
	'[   50.4] Kernel panic - not syncing: System is deadlocked on memory' >"$T/global-oom.log"
if [ -n "$($R splats "$T/global-oom.log")" ]; then
	ok splat-global-oom-found
else
	notok splat-global-oom-found "not detected"
fi

# Each rule for a test program's TAP on the results channel.
prog_run() {	# prog_run RC LINES...: a run whose one program printed LINES
	_rc=$1
	shift
	printf '%s\n' "$@" | guest_doc "$_rc" prog >"$T/res3"
	echo 'qemu_status=0 elapsed=30' >>"$T/res3"
}
prog_run 0 'TAP version 13' '1..1' 'ok 1 one'
if $R judge --name p --console "$TOP/tests/data/clean.log" --results "$T/res3" >"$T/j3" 2>&1; then
	ok judge-program-passes
else
	notok judge-program-passes "$(tail -n1 "$T/j3")"
fi
# kunit_parser ends a subtest at a result line named like it: a program
# whose case bears its own name is told so (the benchmarks' programs did).
prog_run 0 'TAP version 13' '1..1' 'ok 1 prog'
expect_fail judge-case-named-like-program 'FAIL prog +# a case is named like its program' \
	$R judge --name p --console "$TOP/tests/data/clean.log" --results "$T/res3"
for b in alloc-bench lockstat-bench; do
	grep -q '^echo "ok 1 every run done"$' "$TOP/guest/bench/$b" ||
		notok "bench-case-name-$b" "its case is not named 'every run done'"
done
prog_run 0 'starting, but no TAP'
expect_fail judge-no-tap 'FAIL prog +# no TAP result \(exit 0\)' \
	$R judge --name p --console "$TOP/tests/data/clean.log" --results "$T/res3"
prog_run 1 'TAP version 13' '1..1' 'ok 1 one'
expect_fail judge-exit-status 'FAIL prog +# exit status 1' \
	$R judge --name p --console "$TOP/tests/data/clean.log" --results "$T/res3"
prog_run none 'TAP version 13' '1..1' 'ok 1 one'
expect_fail judge-program-unfinished 'FAIL prog +# did not finish' \
	$R judge --name p --console "$TOP/tests/data/clean.log" --results "$T/res3"
# A suite that says "not ok" although every case of it passed.
printf '%s\n' 'KTAP version 1' '1..1' '    KTAP version 1' '    # Subtest: suite' \
	'    1..1' '    ok 1 case' 'not ok 1 suite' >"$T/con3"
prog_run 0 'TAP version 13' '1..1' 'ok 1 one'
expect_fail judge-parent-fail 'FAIL kunit:suite +# failed with no failing case' \
	$R judge --name p --console "$T/con3" --results "$T/res3"
# The guest's init never said it was done, though the program finished.
prog_run 0 'TAP version 13' '1..1' 'ok 1 one'
sed -i '/SWAPQ-DONE/d' "$T/res3"
expect_fail judge-guest-unfinished 'guest did not finish its tests' \
	$R judge --name p --console "$TOP/tests/data/clean.log" --results "$T/res3"
# A suite that stops short of its plan but still reports its own result.
printf '%s\n' 'KTAP version 1' '1..1' '    KTAP version 1' '    # Subtest: suite' \
	'    1..3' '    ok 1 a' '    ok 2 b' 'ok 1 suite' >"$T/con4"
prog_run 0 'TAP version 13' '1..1' 'ok 1 one'
expect_fail judge-nested-missing 'FAIL kunit:suite.missing3 +# planned but never reported' \
	$R judge --name p --console "$T/con4" --results "$T/res3"

# The kselftest runner through guest/tests/vmtests-swap: each program's
# TAP nested four spaces deep, the runner's plan after its results.  A
# program cut short (2 of its 3 cases) fails with its missing case, and a
# runner plan above the programs it reported fails too.
vmtests() {
	printf '%s\n' 'TAP version 13' '    ----------------' '    running ./swapoff' \
		'    TAP version 13' '    1..2' '    ok 1 swapoff.zram.a' '    ok 2 swapoff.zram.b' \
		'    [PASS]' 'ok 1 swapoff' '    TAP version 13' '    1..3' \
		'    ok 1 swap_devices.x' "    ok 2 swap_devices.y" "$1" \
		"$2" | guest_doc "$3" vmtests-swap >"$T/vres"
	echo 'qemu_status=1 elapsed=9' >>"$T/vres"
	printf 'boot\n' >"$T/vcon"
	$R judge --name v --console "$T/vcon" --results "$T/vres" 2>&1 | tail -n1
}
got=$(vmtests '    ok 3 swap_devices.z' 'ok 2 swap_devices
1..2' 0)
case $got in "v: 5 passed, 0 failed"*) ok vmtests-nested ;; *) notok vmtests-nested "$got" ;; esac
got=$(vmtests '    # killed' 'not ok 2 swap_devices # exit=139
1..2' 1)
case $got in "v: 4 passed, 1 failed"*) ok vmtests-cut-short ;; *) notok vmtests-cut-short "$got" ;; esac
got=$(vmtests '    ok 3 swap_devices.z' 'ok 2 swap_devices
1..3' 0)
case $got in "v: 5 passed, 1 failed"*) ok vmtests-trailing-plan ;; *) notok vmtests-trailing-plan "$got" ;; esac
