#!/bin/sh
# The stages of make check and check-full (scripts/check/check.py): a stage
# passes only when its command exits 0 and its results file is complete;
# the closing line is the sum of those files; with RESUME=1 a stage this
# tree finished, under the same parameters, is not run again.  The driver
# runs here in a repository of its own, with a table of fake stages.
. "$(dirname "$0")/lib.sh"
unset RESUME RESULTS RESULTS_PID STAGE_KEY STAGE_DONE RECORDS
r=$T/repo
mkdir -p "$r/scripts/check" "$r/config" "$r/records" "$T/s"
cp "$TOP/scripts/check/check.py" "$TOP/scripts/check/stages.py" "$TOP/scripts/check/procs.py" \
	"$r/scripts/check/"
cp "$TOP/scripts/lib.sh" "$r/scripts/"
cp "$TOP/config/params" "$r/config/"
echo /build/ >"$r/.gitignore"
git init -q "$r" && git -C "$r" add . &&
	git -C "$r" -c user.name=t -c user.email=t@t commit -qm one ||
	notok stages-repo "cannot make the test repository"

# fake NAME BODY: a stage's command, $T/s/NAME.sh, which logs that it ran.
fake() {
	printf '. "%s/scripts/lib.sh"\nTOP=%s\npass=0 fail=0\necho "$0" >>"%s/ran"\n%s\n' \
		"$TOP" "$r" "$T" "$2" >"$T/s/$1.sh"
}
fake pass 'result a 0; result b 0; results_end'
fake prose 'result p 0; results_end'
fake fail 'result c 0; result d 1 broken; results_end'
# Dies after a script it ran printed its own passing summary (cross.sh
# after arm64's guest): no plan at the end of its results.
fake cut 'result arm64 0; sh -c ". $TOP/scripts/lib.sh; pass=1 fail=0; results_end"; exit 3'
fake lying 'result e 0; results_end; exit 2'
fake zero 'results_end'
# Writes results only when told to: a later run must not read them again.
fake missing '[ -z "${FIRST:-}" ] || { result x 0; results_end; }; exit 0'
fake parts 'for n in 1 2 3; do
	part "$n" || continue
	echo "part $n" >>"'"$T"'/ran"
	result "part-$n" 0
	[ "$n" = 3 ] && [ -n "${CUT:-}" ] && exit 1
	part_done
done
results_end'
# What a stage's own children see of WORK: the driver reads the work
# tree's path but must not export it (the harness's tests would make their
# trees there).
fake env 'sh -c "echo \${WORK-unset}" >"'"$T"'/work-env"; result env 0; results_end'
fake first-fails 'result series-applies 1 "does not apply"; results_end'
# table NAME STAGE...: a table of these stages.
table() {
	_t=$T/$1.py
	shift
	echo "STAGES = [" >"$_t"
	for _s in "$@"; do
		echo "    stage('$_s', 'the $_s stage', ['sh', '$T/s/$_s.sh'], seconds=1)," >>"$_t"
	done
	echo "]" >>"$_t"
}
table abc pass fail cut
# drive TABLE [VAR=VALUE...]: run the driver; prints the stages that ran,
# then its closing line.
drive() {
	_t=$T/$1.py
	shift
	: >"$T/ran"
	env BUILD="$r/build" "$@" python3 "$r/scripts/check/check.py" --table "$_t" >"$T/out" 2>&1
	echo "ran:$(sed -n 's|.*/s/\(.*\)\.sh$| \1|p; s|^part \(.*\)| p\1|p' "$T/ran" | tr -d '\n');" \
		"$(tail -n1 "$T/out")"
}

expect_eq stages-first-run "$(drive abc)" "ran: pass fail cut; 3 passed, 2 failed"
if grep -q '^not ok cut - exited 3, its results cut short after 1 (no plan' "$T/out"; then
	ok stages-cut-short
else
	notok stages-cut-short "$(grep '^not ok cut' "$T/out")"
fi
# A finished stage is not run again, its counts added as they were, and
# said so; the stage cut short runs again.
expect_eq stages-resume "$(drive abc RESUME=1)" "ran: cut; 3 passed, 2 failed"
if grep -q '^# resumed fail: 1 passed, 1 failed' "$T/out"; then
	ok stages-resume-says-so
else
	notok stages-resume-says-so "no '# resumed fail' line"
fi
expect_eq stages-no-resume "$(drive abc)" "ran: pass fail cut; 3 passed, 2 failed"

# A parameter of config/params changes every key: a record made with
# another SMP, MEM or FULL_PREFIXES is not reused.
table p pass
drive p >/dev/null
moved=
for kv in SMP=4 MEM=6G FULL_PREFIXES=3 TESTS_FIRST=2 ACCEL=tcg GUEST_TESTS=sanity; do
	[ "$(drive p RESUME=1 "$kv")" = "ran: pass; 2 passed, 0 failed" ] || moved="$moved $kv"
done
expect_eq stages-key-sees-parameters "${moved:-none}" none
expect_eq stages-key-same-parameters "$(drive p RESUME=1)" "ran:; 2 passed, 0 failed"
# The tree: a change runs it again, a record committed does not.
echo x >"$r/records/x"
git -C "$r" add records && git -C "$r" -c user.name=t -c user.email=t@t commit -qm record
expect_eq stages-key-leaves-records-out "$(drive p RESUME=1)" "ran:; 2 passed, 0 failed"
echo y >"$r/y"
expect_eq stages-key-sees-changes "$(drive p RESUME=1)" "ran: pass; 2 passed, 0 failed"
git -C "$r" add y && git -C "$r" -c user.name=t -c user.email=t@t commit -qm two
expect_eq stages-key-sees-commits "$(drive p RESUME=1)" "ran: pass; 2 passed, 0 failed"
# The prose (docs/, README.md) is an input of the stages that declare it
# (inputs=ALL) only: an edit there runs those again, not the others.
table pd pass prose
sed -i "/s\/prose.sh/s/seconds=1)/seconds=1, inputs=ALL)/" "$T/pd.py"
drive pd >/dev/null
mkdir -p "$r/docs" && echo z >"$r/docs/z.md" && echo z >"$r/README.md"
expect_eq stages-key-inputs "$(drive pd RESUME=1)" "ran: prose; 3 passed, 0 failed"

# A stage that builds and boots kernels (kernel_side()) runs again when
# the source the series makes changes (the work tree, $WORK): a commit's
# content, a hunk moved between patches, an uncommitted edit; not when
# the harness's tests, a changelog or a cover letter do.
table ks pass
sed -i "s/seconds=1)/seconds=1, inputs=kernel_side())/" "$T/ks.py"
mkdir -p "$r/series/1-a" "$r/tests" "$T/work"
echo p >"$r/series/1-a/0001-a.patch" && echo c >"$r/series/1-a/0000-cover-letter.patch" && echo t >"$r/tests/t.sh"
git -C "$r" add series tests && git -C "$r" -c user.name=t -c user.email=t@t commit -qm series
wcommit() { # wcommit FILE TEXT MESSAGE: commit FILE with TEXT in the work tree
	echo "$2" >"$T/work/$1" && git -C "$T/work" add "$1" &&
		git -C "$T/work" -c user.name=t -c user.email=t@t commit -qm "$3"
}
git init -q "$T/work" && wcommit base b base && wcommit f 1 one && wcommit g 2 two
wdrive() { drive ks WORK="$T/work" RESUME=1; }
wdrive >/dev/null
echo c2 >"$r/series/1-a/0000-cover-letter.patch" && echo t2 >"$r/tests/t.sh" && echo p2 >"$r/series/1-a/0001-a.patch"
git -C "$T/work" -c user.name=t -c user.email=t@t commit -q --amend -m "two, its changelog reworded"
got="$(wdrive)"
echo 3 >"$T/work/g"
got="$got | $(wdrive)"
git -C "$T/work" checkout -q g
got="$got | $(wdrive)"
# The same last tree, reached by other patches: g's line moved into one.
git -C "$T/work" reset -q --hard HEAD~2 && wcommit f 1 one && echo 2 >"$T/work/g" &&
	git -C "$T/work" add g && git -C "$T/work" -c user.name=t -c user.email=t@t commit -q --amend -m one &&
	wcommit h 0 three && git -C "$T/work" rm -q h && git -C "$T/work" -c user.name=t -c user.email=t@t commit -qm four
got="$got | $(wdrive)"
expect_eq stages-key-kernel-side "$got" "ran:; 2 passed, 0 failed | ran: pass; 2 passed, 0 failed | ran:; 2 passed, 0 failed | ran: pass; 2 passed, 0 failed"

# The driver reads the work tree's path for that key, but does not hand
# it to the stages: harness's tests under a stage would take it for theirs.
table ke env
sed -i "s/seconds=1)/seconds=1, inputs=kernel_side())/" "$T/ke.py"
drive ke >/dev/null
expect_eq stages-work-not-exported "$(cat "$T/work-env" 2>/dev/null)" unset

# stopped TABLE SIGNAL KILL-ARGUMENT SLEEPS: run the driver on TABLE as a
# terminal's job (tests/job.py) until its stage has written $T/up; send it
# SIGNAL (to "pid" or to its "group"); print its status, how many of the
# sleeps SLEEPS (an awk pattern of their seconds) are left, and its
# closing line; then end those left.
stopped() {
	: >"$T/up"
	python3 "$TOP/tests/job.py" env BUILD="$r/build" python3 "$r/scripts/check/check.py" \
		--table "$T/$1.py" >"$T/out" 2>&1 &
	_drv=$!
	_i=0
	while [ ! -s "$T/up" ] && [ "$_i" -lt 300 ]; do sleep 0.1; _i=$((_i + 1)); done
	if [ "$3" = group ]; then kill "-$2" "-$_drv"; else kill "-$2" "$_drv"; fi
	wait "$_drv"
	_rc=$?
	_left=$(ps -eo pid=,args= | awk -v s="^($4)\$" '$2 == "sleep" && $3 ~ s { print $1 }')
	echo "$_rc $(echo $_left | wc -w) $(tail -n1 "$T/out")"
	echo $_left | xargs -r kill
}
# Stopped by SIGTERM (as by a CI's timeout), the driver stops the stage
# under way and all it runs, a timeout(1) in a process group of its own
# included, and prints what it counted.
fake linger 'result l 0; timeout 300 sleep 301 & sh -c "sleep 302" &
echo up >"'"$T"'/up"; wait'
table linger pass linger
expect_eq stages-stop-leaves-nothing "$(stopped linger TERM pid '301|302')" "130 0 2 passed, 1 failed"
# A ^C at the terminal: the whole process group gets SIGINT, the stage's
# shell dies of it at once, and a job it started in the background, which
# ignores SIGINT as such jobs do, is left without its parent: the driver
# still stops it.
fake orphan 'result o 0; sleep 303 & echo up >"'"$T"'/up"; wait'
table orphan pass orphan
expect_eq stages-interrupt-leaves-nothing "$(stopped orphan INT group 303)" "130 0 2 passed, 1 failed"

# A passing closing line is not a pass: a stage that exits non-zero with
# no failure in its results fails; one whose results are an empty plan, or
# missing, fails.
table lie lying
expect_eq stages-exit-status "$(drive lie)" "ran: lying; 1 passed, 1 failed"
table z zero
expect_eq stages-no-results "$(drive z)" "ran: zero; 0 passed, 1 failed"
table m missing
drive m FIRST=1 >/dev/null
expect_eq stages-missing-results "$(drive m)" "ran: missing; 0 passed, 1 failed"
# None of them is kept: a resumed run runs each again.
expect_eq stages-failed-verdicts-run-again "$(drive lie RESUME=1)" "ran: lying; 1 passed, 1 failed"

# A long stage's parts (prefix-boot.sh's prefixes): a resumed run goes on
# from the part cut short.
table pt parts
expect_eq stages-parts-first-run "$(drive pt CUT=1)" "ran: parts p1 p2 p3; 0 passed, 1 failed"
expect_eq stages-parts-resume "$(drive pt RESUME=1)" "ran: parts p3; 3 passed, 0 failed"
expect_eq stages-parts-done "$(drive pt RESUME=1)" "ran:; 3 passed, 0 failed"

# A first stage (the series applies) that fails ends the run.
table fs first-fails pass
sed -i "s/seconds=1)/seconds=1, first=True)/" "$T/fs.py"
sed -i "/s\/pass.sh/s/, first=True//" "$T/fs.py"
expect_eq stages-first-fails-stops "$(drive fs)" "ran: first-fails; 0 passed, 1 failed"

# CHECK_STAGES: those stages alone; a name the run lacks is an error.
expect_eq stages-only-some "$(drive abc CHECK_STAGES=fail)" "ran: fail; 1 passed, 1 failed"
env BUILD="$r/build" CHECK_STAGES=nosuch python3 "$r/scripts/check/check.py" --table "$T/abc.py" >"$T/out" 2>&1
expect_eq stages-only-unknown "$? $(grep -c 'no stage nosuch in this run (pass fail cut)' "$T/out")" "2 1"

# make record-stages: this tree's finished stages into records/check/; a
# clean build then resumes from them with RESUME=1 only.
drive abc >/dev/null
env BUILD="$r/build" python3 "$r/scripts/check/check.py" --table "$T/abc.py" --record >"$T/rec" 2>&1
expect_eq stages-record-totals "$(tail -n1 "$T/rec")" "recorded for this tree: pass fail (3 passed, 1 failed)"
rm -rf "$r/build"
expect_eq stages-records-resume "$(drive abc RESUME=1)" "ran: cut; 3 passed, 2 failed"
rm -rf "$r/build"
expect_eq stages-records-need-resume "$(drive abc)" "ran: pass fail cut; 3 passed, 2 failed"
# make record-stages records check-full's stages too (it recorded make
# check's alone): the driver as the Makefile calls it.
fake fullonly 'result f 0; results_end'
table fo fullonly
sed -i "s/seconds=1)/seconds=1, full=True)/" "$T/fo.py"
env BUILD="$r/build" python3 "$r/scripts/check/check.py" --table "$T/fo.py" --full >/dev/null 2>&1
rec=$(sed -n '/^record-stages:/{n;s/^\t@//;p}' "$TOP/Makefile")
(cd "$r" && env BUILD="$r/build" $rec --table "$T/fo.py") >"$T/rec" 2>&1
expect_eq stages-record-full "$(tail -n1 "$T/rec")" "recorded for this tree: fullonly (1 passed, 0 failed)"

# Every variable a script reads with a default is a parameter or an
# internal one of config/params: none can be left out of the keys.
declared=$(grep -v '^#' "$TOP/config/params" | tr -s ' \n' '\n\n')
undeclared=$(cat "$TOP"/scripts/*.sh "$TOP"/scripts/*/*.sh "$TOP"/guest/tests/* "$TOP/Makefile" 2>/dev/null |
	grep -oE '\$\{[A-Z][A-Z0-9_]*:?[-=+?]' | sed -E 's/^\$\{//; s/:?[-=+?]$//' | sort -u |
	grep -vxF "$declared" | tr '\n' ' ')
expect_eq stages-parameters-declared "${undeclared:-none}" none

# A parameter given in the environment is the value lib.sh keeps: none is
# set over by a default (USER_TESTS and CHECK_TESTS were).
over=
for v in $(sed -n '/^# internal/q; /^#/d; p' "$TOP/config/params"); do
	got=$(env "$v=given-x" sh -c '. "$TOP/scripts/lib.sh" >/dev/null 2>&1; eval printf %s "\"\${$1-}\""' sh "$v")
	[ "$got" = given-x ] || over="$over $v"
done
expect_eq stages-parameters-kept "${over:-none}" none

# Each stage's inputs hold its command's script and every file that script
# names under $TOP: an edit there runs the stage again.
missing=$(cd "$TOP" && python3 - <<'EOP'
import os, re, sys
sys.path.insert(0, "scripts/check")
import stages
for st in stages.STAGES:
    files = {os.path.relpath(os.path.join(d, n)) for d, _, ns in os.walk(".") for n in ns
             if stages.in_inputs(os.path.relpath(os.path.join(d, n)), st.inputs)}
    script = st.command[0]
    named = re.findall(r'\$TOP"?/([A-Za-z0-9_./-]*[A-Za-z0-9_])', open(script).read())
    for f in [script] + named:
        f = f.rstrip("/")
        if os.path.isdir(f):
            if not any(x.startswith(f + "/") for x in files):
                print("%s:%s/" % (st.name, f))
        elif os.path.exists(f) and f not in files:
            print("%s:%s" % (st.name, f))
EOP
)
expect_eq stages-inputs-hold-scripts "$(echo ${missing:-none})" none

# The scripts that make a tree, a kernel or a static program hand back
# nothing in their output (one stray echo there would become a caller's
# path): no caller captures it; the paths are lib.sh's $WORK, $BASE_SRC,
# kernel_image and debian_static_path.
captured=$(grep -nE '\$\([^)]*(tree\.sh"? (work|base)|kernel\.sh|debian-static\.sh)' \
	"$TOP"/scripts/*.sh "$TOP"/scripts/*/*.sh "$TOP/Makefile" | sed "s|^$TOP/||" | tr '\n' ' ')
expect_eq stages-no-path-from-output "${captured:-none}" none

# A run of some stages ("CHECK_STAGES=harness make check", docs/resume.md)
# hands CHECK_STAGES to the harness's tests: lib.sh must drop it, or every
# driver fixture above runs none of its stages.
mkdir -p "$T/u/tests"
printf '. "%s/tests/lib.sh"\necho "${CHECK_STAGES-unset}"\n' "$TOP" >"$T/u/tests/x.sh"
expect_eq stages-callers-stages-dropped "$(CHECK_STAGES=harness sh "$T/u/tests/x.sh")" unset
