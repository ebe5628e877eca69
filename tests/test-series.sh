#!/bin/sh
# Work tree round trip on the synthetic base (tests/fixture/synthetic, no
# download), and the guards that keep a half-applied or unexported tree
# from looking good.  (make mbox, which needs the kernel's own
# get_maintainer.pl, is tests/test-mbox.sh, on the Debian base.)
. "$(dirname "$0")/lib.sh"
. "$TOP/scripts/lib.sh"
fix=$TOP/tests/fixture/synthetic
COMMIT=$(synthetic_base "$T/base") || { notok synthetic-base "cannot commit the synthetic base"; exit 0; }
export KERNEL_SRC=$T/base SERIES=$T/series WORK=$T/work PREREQS=$fix/prereqs
cp -r "$fix/series" "$SERIES"
tree() { "$TOP/scripts/kernel/tree.sh" "$@" >"$T/log" 2>&1; }

if tree work; then ok apply-fixture; else notok apply-fixture "$(tail -n1 "$T/log")"; fi
d=$(git -C "$WORK" diff --name-only "$COMMIT" HEAD | tr '\n' ' ')
if [ "$d" = "README mm/swapfile.c mm/tests/fixture.c " ] &&
	! cmp -s "$WORK/mm/swapfile.c" "$fix/base/mm/swapfile.c"; then
	ok patched-tree-differs
else
	notok patched-tree-differs "changed: $d"
fi
if tree export && diff -r "$fix/series" "$SERIES" >"$T/diff"; then
	ok roundtrip-identical
else
	notok roundtrip-identical "$(head -c 300 "$T/diff" | tr '\n' ' ')"
fi

# The same series and prerequisites kept in another clone (another path)
# find the work tree up to date: clones may share one BUILD.
cp -r "$fix/prereqs" "$T/prereqs2" && cp -r "$fix/series" "$T/series2"
SERIES=$T/series2 PREREQS=$T/prereqs2 tree work
expect_eq work-same-in-another-clone "$(grep -c 'work tree is up to date' "$T/log")" 1

# Patches are found by subject (bench-alloc's default STEPS).
n=$(series_number "$WORK" '^mm/tests: fixture: add a file$')
m=$(series_number "$WORK" 'no such subject')
if [ "$n" = 2 ] && [ -z "$m" ]; then ok series-number-by-subject; else notok series-number-by-subject "got '$n' and '$m'"; fi

# An edit in the work tree reaches series/, cover text kept.
git -C "$WORK" -c user.name=T -c user.email=t@t commit -q --allow-empty -m "mm: an empty fixture commit"
tree export
if [ "$(ls "$SERIES" | wc -l)" -eq 4 ] && grep -q 'Two small patches on the synthetic base' "$SERIES/0000-cover-letter.patch" &&
	grep -q '^Subject: \[PATCH 0/3\]' "$SERIES/0000-cover-letter.patch" &&
	grep -q 'An indented table line' "$SERIES/0000-cover-letter.patch"; then
	ok export-keeps-cover-text
else
	notok export-keeps-cover-text "$(ls "$SERIES" | tr '\n' ' ')"
fi

# An edit of the cover letter is not lost, even when the work tree has a
# new commit at the same time: the export reads the edit against the
# commits it was written for and keeps it.
sed -i 's/Two small patches on the synthetic base/harness fixture: edited text/' \
	"$SERIES/0000-cover-letter.patch"
if tree export && grep -q 'harness fixture: edited text' "$SERIES/0000-cover-letter.patch"; then
	ok export-keeps-edited-cover
else
	notok export-keeps-edited-cover "$(tail -n1 "$T/log")"
fi
sed -i 's/harness fixture: edited text/harness fixture: edited again/' \
	"$SERIES/0000-cover-letter.patch"
echo "/* new */" >>"$WORK/README"
git -C "$WORK" commit -q -a -m "fixture: a commit made after the cover edit"
n=$(ls "$SERIES" | wc -l)
if tree export && grep -q 'harness fixture: edited again' "$SERIES/0000-cover-letter.patch" &&
	[ "$(ls "$SERIES" | wc -l)" -eq $((n + 1)) ] &&
	grep -q 'fixture: a commit made after the cover edit' "$SERIES/0000-cover-letter.patch"; then
	ok export-keeps-cover-edit-with-new-commit
else
	notok export-keeps-cover-edit-with-new-commit "$(tail -n1 "$T/log")"
fi
git -C "$WORK" reset -q --hard HEAD~1
tree export >/dev/null 2>&1 || notok export-after-reset "$(tail -n1 "$T/log")"

# Guards: uncommitted edits, unexported commits.
echo "/* dirty */" >>"$WORK/mm/swapfile.c"
expect_fail refuse-dirty-worktree 'uncommitted changes' "$TOP/scripts/kernel/tree.sh" work
# A kernel build stops at the tree's error, not at a later step.
if VARIANT=patched FLAVOR=plain "$TOP/scripts/kernel/kernel.sh" >"$T/out" 2>&1; then
	notok build-stops-at-tree-error "succeeded, expected a failure"
elif grep -q 'uncommitted changes' "$T/out" && ! grep -q 'allnoconfig\|configuring' "$T/out"; then
	ok build-stops-at-tree-error
else
	notok build-stops-at-tree-error "$(tail -n 2 "$T/out" | tr '\n' ' ')"
fi
git -C "$WORK" checkout -q -- mm/swapfile.c
git -C "$WORK" -c user.name=T -c user.email=t@t commit -q --allow-empty -m "mm: not exported"
expect_fail refuse-unexported-commits 'not in series/' "$TOP/scripts/kernel/tree.sh" work

# A series that does not apply: named, and no stamp left behind.
rm -f "$SERIES"/*.patch
cp "$fix"/series/*.patch "$SERIES"
sed -i 's/^ 	for (i = prev + 1; i < si->max; i++) {/ 	for (i = prev; i < si->max; i++) {/' \
	"$SERIES"/0001-*.patch
FORCE=1 expect_fail patch-does-not-apply '0001-mm-swap-fixture-comment-the-scan.patch does not apply' \
	"$TOP/scripts/kernel/tree.sh" work
if [ ! -e "$WORK/.git/swapq-stamp" ] && [ ! -d "$WORK/.git/rebase-apply" ] &&
	[ "$(git -C "$WORK" rev-parse HEAD)" = "$COMMIT" ]; then
	ok no-half-applied-tree
else
	notok no-half-applied-tree "stamp or am state left in $WORK"
fi
# Asking again does not take the bare base for the applied series.
expect_fail retry-still-fails 'does not apply' "$TOP/scripts/kernel/tree.sh" work

# Two postings (series/1-first/, series/2-second/ as make export writes
# them): applied in order, exported back unchanged, the second naming
# the first's patch among its prerequisites, each ending where its last
# commit is after the work tree is rebased.
export SERIES=$T/postings WORK=$T/work2
cp -r "$fix/postings" "$SERIES"
if tree work && [ "$(git -C "$WORK" log --format=%s -3 | tr '\n' '|')" = \
	"mm/tests: fixture: add a file|mm/swap: fixture: comment the scan|fixture: a prerequisite queued upstream|" ]; then
	ok postings-apply-in-order
else
	notok postings-apply-in-order "$(tail -n1 "$T/log")"
fi
if tree export && diff -r "$fix/postings" "$SERIES" >"$T/diff"; then
	ok postings-roundtrip-identical
else
	notok postings-roundtrip-identical "$(head -c 300 "$T/diff" "$T/log" | tr '\n' ' ')"
fi
first=$(cat "$SERIES"/1-first/0001-*.patch | git patch-id --stable | cut -d" " -f1)
l1=$("$TOP/scripts/kernel/tree.sh" base-lines 1 2>"$T/log")
l2=$("$TOP/scripts/kernel/tree.sh" base-lines 2 2>>"$T/log")
if [ -n "$first" ] && ! echo "$l1" | grep -q "$first" &&
	echo "$l2" | grep -qx "prerequisite-patch-id: $first" &&
	[ "$(echo "$l2" | grep -c '^prerequisite-patch-id: ')" -eq 2 ] &&
	grep -qx "prerequisite-patch-id: $first" "$SERIES"/2-second/0000-cover-letter.patch; then
	ok postings-second-names-first
else
	notok postings-second-names-first "first $first; 1: $l1; 2: $l2 $(tail -n1 "$T/log")"
fi
# The first posting's patch changed (its subject kept) and a commit added
# at the top: the change stays in the first posting, the new commit goes
# to the last, every cover letter's text is kept.
# amend_scan N CMD: rebase the work tree's last N commits, running CMD
# there right after the first posting's commit ("comment the scan").
amend_scan() {
	git -C "$WORK" -c user.name=T -c user.email=t@t -c core.editor=true \
		rebase -q -x "if git log -1 --format=%s | grep -q 'comment the scan'; then $2; fi" \
		"$(git -C "$WORK" rev-parse "HEAD~$1")" >"$T/log" 2>&1
}
amend_scan 2 'echo "/* more */" >>mm/swapfile.c && git commit -q -a --amend --no-edit'
echo "/* top */" >>"$WORK/README"
git -C "$WORK" -c user.name=T -c user.email=t@t commit -q -a -m "fixture: a commit on top"
if tree export && grep -q '^+/\* more \*/' "$SERIES"/1-first/0001-*.patch &&
	[ "$(ls "$SERIES/1-first" | wc -l)" -eq 2 ] && [ "$(ls "$SERIES/2-second" | wc -l)" -eq 3 ] &&
	grep -q '^Subject: \[RFC PATCH 2/2\] fixture: a commit on top' "$SERIES"/2-second/0002-*.patch &&
	grep -q 'The first of two postings' "$SERIES"/1-first/0000-cover-letter.patch &&
	grep -q 'The second posting: it needs the first' "$SERIES"/2-second/0000-cover-letter.patch; then
	ok postings-export-after-rebase
else
	notok postings-export-after-rebase "$(ls "$SERIES"/* | tr '\n' ' ') $(tail -n1 "$T/log")"
fi
# The first posting's last commit reworded: the export cannot tell where
# that posting ends, and says so instead of moving patches across.
amend_scan 3 'git commit -q --amend -m "mm/swap: reworded"'
expect_fail postings-lost-end "posting 1-first ended at the commit 'mm/swap: fixture: comment the scan'" \
	"$TOP/scripts/kernel/tree.sh" export
export SERIES=$T/series WORK=$T/work

# The cases a wrapper selects (guest/tests/quick-PROG for prefix-boot,
# check-PROG for make check's guest) are cases the series' kselftest PROG
# has: a name it lacks would select nothing.
for q in "$TOP"/guest/tests/quick-* "$TOP"/guest/tests/check-*; do
	w=${q##*/}
	prog=${w#*-}
	p=$(grep -l "^+++ b/tools/testing/selftests/mm/$prog\.c" $(SERIES=$TOP/series "$TOP/scripts/kernel/tree.sh" patches))
	cases=$(quick_cases "$q")
	lost=
	for c in $cases; do
		[ -n "$p" ] && grep -Eq "^\+TEST_F(_TIMEOUT)?\([a-z_]+, ${c}[,)]" "$p" ||
			lost="$lost $c"
	done
	if [ -n "$cases" ] && [ -z "$lost" ]; then
		ok "$w-cases-exist"
	else
		notok "$w-cases-exist" "no case${lost:- at all} in $prog.c of series/"
	fi
done
