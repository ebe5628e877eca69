#!/bin/sh
# KTAP parsing and splat detection on saved logs.
. "$(dirname "$0")/lib.sh"
R="python3 $TOP/scripts/results.py"
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
if [ -z "$($R splats "$TOP/tests/data/clean.log")" ]; then
	ok "splat-clean-log"
else
	notok "splat-clean-log" "false positive: $($R splats "$TOP/tests/data/clean.log" | head -n1)"
fi

# A whole judged run: KUnit on the console, a program's TAP on the
# results channel, facts checked.  Skips fail only with --skip-fails.
cp "$TOP/tests/data/ktap-mixed.log" "$T/con"
cat >"$T/res" <<'EOR'
SWAPQ-FACT cpus=2 clocksource=tsc kernel=7.3.4 mem_kb=3000000
SWAPQ-BEGIN prog
TAP version 13
1..2
ok 1 swapoff.zram.data_intact
ok 2 swapoff.brd.data_intact # SKIP no brd
SWAPQ-END prog rc=0
SWAPQ-FACT clocksource_end=tsc
SWAPQ-DONE
qemu_status=1 elapsed=30
EOR
$R judge --name t --console "$T/con" --results "$T/res" >"$T/j" 2>&1
if grep -q '^t: 5 passed, 1 failed, 2 skipped' "$T/j"; then ok judge-counts; else notok judge-counts "$(tail -n1 "$T/j")"; fi
$R judge --name t --console "$T/con" --results "$T/res" --skip-fails >"$T/j" 2>&1
if grep -q '^t: 5 passed, 3 failed, 2 skipped' "$T/j"; then ok judge-skip-fails; else notok judge-skip-fails "$(tail -n1 "$T/j")"; fi
sed -i 's/cpus=2/cpus=1/; s/clocksource_end=tsc/clocksource_end=jiffies/' "$T/res"
expect_fail judge-one-cpu 'saw 1 CPU' $R judge --name t --console "$T/con" --results "$T/res"
expect_fail judge-clocksource 'clocksource_end is jiffies' $R judge --name t --console "$T/con" --results "$T/res"
sed -i '/SWAPQ-DONE/d; /SWAPQ-END/d' "$T/res"
expect_fail judge-unfinished 'did not finish' $R judge --name t --console "$T/con" --results "$T/res"
sed -i 's/qemu_status=1/qemu_status=124/' "$T/res"
expect_fail judge-timeout 'timed out after 30s' $R judge --name t --console "$T/con" --results "$T/res"
cat "$TOP/tests/data/splat-kasan.log" >>"$T/con"
expect_fail judge-splat 'splat .*BUG: KASAN' $R judge --name t --console "$T/con" --results "$T/res"
