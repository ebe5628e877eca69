#!/bin/sh
# The stages of make check and check-full (scripts/lib.sh): with RESUME=1 a
# stage a run of this tree finished is not run again and its counts,
# failures too, are added as they were; a stage cut short runs again.
. "$(dirname "$0")/lib.sh"
. "$TOP/scripts/lib.sh"
STAGES=$T/stages
# make check-full RESUME=1 runs these tests too, as a stage: each case sets
# these itself.
unset RESUME CHECK_STAGE

# run_stages: stages a (passes), b (fails) and c (cut short before its
# end); prints which ran and the totals.
run_stages() {
	pass=0 fail=0 ran=
	stage_init
	if stage a; then
		ran="$ran a"
		result a-case 0 >/dev/null
		stage_done
	fi
	if stage b; then
		ran="$ran b"
		result b-case 1 broken >/dev/null
		stage_done
	fi
	if stage c; then
		ran="$ran c"
		result c-case 0 >/dev/null
	fi
	echo "ran:$ran; $pass passed, $fail failed"
}

STAGE_ID=one
expect_eq stages-first-run "$(run_stages | tail -n1)" "ran: a b c; 2 passed, 1 failed"
expect_eq stages-resume "$(RESUME=1 run_stages | tail -n1)" "ran: c; 2 passed, 1 failed"
# The count a resumed stage adds is the one it recorded, said as such.
if RESUME=1 run_stages | grep -q '^# resumed b: 0 passed, 1 failed'; then
	ok stages-resume-says-so
else
	notok stages-resume-says-so "no '# resumed b' line"
fi
STAGE_ID=two
expect_eq stages-other-commit "$(RESUME=1 run_stages | tail -n1)" "ran: a b c; 2 passed, 1 failed"
STAGE_ID=one
expect_eq stages-no-resume "$(run_stages | tail -n1)" "ran: a b c; 2 passed, 1 failed"
# A step that ends without its closing line counts as a failure and is
# not recorded: a resumed run runs it again (check.sh's step_log).
: >"$T/empty.log"
cut_short() {
	pass=0 fail=0 ran=
	stage_init
	if stage d; then
		ran=d
		count "$T/empty.log" d >/dev/null && stage_done
	fi
	echo "ran:$ran; $pass passed, $fail failed"
}
STAGE_ID=three
expect_eq stages-no-closing-line "$(cut_short)" "ran:d; 0 passed, 1 failed"
expect_eq stages-no-closing-line-runs-again "$(RESUME=1 cut_short)" "ran:d; 0 passed, 1 failed"

# A long stage's parts (prefix-boot.sh's prefixes): a resumed run goes on
# from the part cut short (3 here); a script run alone, outside a stage,
# runs every part.
run_parts() {
	pass=0 fail=0 ran=
	stage_init
	for n in 1 2 3; do
		part "$n" || continue
		ran="$ran $n"
		result "part-$n" 0 >/dev/null
		[ "$n" = 3 ] || part_done
	done
	echo "ran:$ran; $pass passed, $fail failed"
}
STAGE_ID=four
expect_eq stages-parts-first-run "$(CHECK_STAGE=p run_parts | tail -n1)" "ran: 1 2 3; 3 passed, 0 failed"
expect_eq stages-parts-resume "$(RESUME=1 CHECK_STAGE=p run_parts | tail -n1)" "ran: 3; 3 passed, 0 failed"
expect_eq stages-parts-alone "$(RESUME=1 run_parts | tail -n1)" "ran: 1 2 3; 3 passed, 0 failed"

# Records committed with the tree (make record-stages): read with RESUME=1
# only, whatever machine wrote them.
STAGE_RECORDS=$T/records
: >"$STAGES"
echo "one a 1 0 0123456789ab 2026-12-01T08:00Z 5" >"$T/records"
STAGE_ID=one
expect_eq stages-records-resume "$(RESUME=1 run_stages | tail -n1)" "ran: b c; 2 passed, 1 failed"
expect_eq stages-records-need-resume "$(run_stages | tail -n1)" "ran: a b c; 2 passed, 1 failed"

# The tree's identity: its content and uncommitted changes, records/ aside.
r=$T/repo
git init -q "$r" && mkdir -p "$r/records" && echo x >"$r/x" && : >"$r/records/check-stages" &&
	echo /build/ >"$r/.gitignore" &&
	git -C "$r" add . && git -C "$r" -c user.name=t -c user.email=t@t commit -qm one
id() { (TOP=$r stage_id); }
id1=$(id)
echo "$id1 a 1 0" >>"$r/records/check-stages"
git -C "$r" -c user.name=t -c user.email=t@t commit -qam record
expect_eq stages-id-leaves-records-out "$(id)" "$id1"
echo y >"$r/x"
id2=$(id)
[ -n "$id1" ] && [ "$id2" != "$id1" ]
expect_eq stages-id-sees-changes "$?" 0
git -C "$r" -c user.name=t -c user.email=t@t commit -qam two
[ "$(id)" != "$id1" ]
expect_eq stages-id-sees-commits "$?" 0

# A parameter that changes what a stage runs is part of the identity: a
# record made with another SMP, MEM or FULL_PREFIXES is not reused.
moved=
for kv in SMP=4 MEM=6G FULL_PREFIXES=3 TESTS_FIRST=2 ACCEL=tcg; do
	[ "$(env "$kv" sh -c '. "$TOP/scripts/lib.sh"; TOP=$1 stage_id' sh "$r")" != "$(id)" ] || moved="$moved $kv"
done
expect_eq stages-id-sees-parameters "${moved:-none}" none

# make record-stages takes this tree's finished stages, each once.
mkdir -p "$r/build/logs"
id3=$(id)
printf '%s b 2 0 c e 1\nother c 1 0 c e 1\n%s d/1 0 1 c e 1\n%s d 0 1 c e 1\n' "$id3" "$id3" "$id3" \
	>"$r/build/logs/check-stages"
rec() { TOP=$r BUILD=$r/build STAGE_RECORDS= sh "$TOP/scripts/check/record-stages.sh" 2>&1; }
rec >/dev/null
rec >"$T/rec.out"
expect_eq stages-record-this-tree-once "$(awk -v i="$id3" '$1 == i { s = s $2 }
	END { print s }' "$r/records/check-stages")" "bd/1d"
# A part's counts are in its stage's: the totals leave parts out.
if grep -q "recorded for this tree: b d (2 passed, 1 failed)" "$T/rec.out"; then
	ok stages-record-says-totals
else
	notok stages-record-says-totals "$(tail -n1 "$T/rec.out")"
fi
expect_fail stages-record-nothing-to-read "no stage records" \
	env TOP="$r" BUILD="$T/none" STAGE_RECORDS= sh "$TOP/scripts/check/record-stages.sh"

# step_log: a stage that prints a passing closing line and then exits
# non-zero fails; one whose line has its failures already is not counted
# twice; a clean one adds its counts.
steps() {
	BUILD=$T sh -c '. "$TOP/scripts/lib.sh"; mkdir -p "$BUILD/logs"; STAGES=$BUILD/steps STAGE_ID=x
		pass=0 fail=0; stage_init
		step_log lying "a stage" sh -c "echo \"3 passed, 0 failed\"; exit 2" >/dev/null 2>&1
		step_log failing "a stage" sh -c "echo \"2 passed, 1 failed\"; exit 1" >/dev/null 2>&1
		step_log clean "a stage" sh -c "echo \"4 passed, 0 failed\"" >/dev/null 2>&1
		echo "$pass $fail"'
}
expect_eq stages-exit-status-counts "$(steps)" "9 2"
