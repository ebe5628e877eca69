#!/bin/sh
# The stages of make check and check-full (scripts/lib.sh): with RESUME=1 a
# stage this commit's last run finished is not run again and its counts,
# failures too, are added as they were; a stage cut short runs again.
. "$(dirname "$0")/lib.sh"
. "$TOP/scripts/lib.sh"
STAGES=$T/stages
# make check-full RESUME=1 runs these tests too: each case sets it itself.
unset RESUME

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
