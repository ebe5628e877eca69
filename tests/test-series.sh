#!/bin/sh
# Work tree round trip on the fixture series under tests/fixture/, and the
# guards that keep a half-applied or unexported tree from looking good.
. "$(dirname "$0")/lib.sh"
. "$TOP/scripts/lib.sh"
base_tree
COMMIT=$base_commit
export SERIES=$T/series WORK=$BUILD/test-work MBOX=$T/series.mbox
# The fixture series applies to the bare base: no prerequisites.
export PREREQS=$T/no-prereqs
cp -r "$TOP/tests/fixture/series" "$SERIES"
tree() { "$TOP/scripts/tree.sh" "$@" >"$T/log" 2>&1; }
# The scratch work tree outlives a run: one cut short (^C in the middle of
# the guards below) leaves it dirty or half-applied.  Start from clean.
if [ -d "$WORK/.git" ]; then
	git -C "$WORK" am --abort >/dev/null 2>&1
	git -C "$WORK" reset -q --hard && git -C "$WORK" clean -qfdx
fi

if FORCE=1 tree work; then ok apply-fixture; else notok apply-fixture "$(tail -n1 "$T/log")"; fi
d=$(git -C "$WORK" diff --name-only "$COMMIT" HEAD | tr '\n' ' ')
if [ "$d" = "mm/swapfile.c mm/tests/swapq_fixture.c " ] &&
	! cmp -s "$WORK/mm/swapfile.c" "$(git -C "$WORK" show "$COMMIT:mm/swapfile.c" >"$T/base.c"; echo "$T/base.c")" &&
	! git -C "$WORK" check-ignore -q mm/tests/swapq_fixture.c; then
	ok patched-tree-differs
else
	notok patched-tree-differs "changed: $d"
fi
if tree export && diff -r "$TOP/tests/fixture/series" "$SERIES" >"$T/diff"; then
	ok roundtrip-identical
else
	notok roundtrip-identical "$(head -c 300 "$T/diff" | tr '\n' ' ')"
fi

# The mbox: from the poster's git identity, never the series' own; To:
# and Cc: from get_maintainer.pl; threaded on the cover letter; git am of
# it onto a fresh base gives the work tree's tree, and git send-email
# --dry-run would send every message.
export OUTGOING=$T/outgoing
printf '' >"$T/noid.gitconfig"
GIT_CONFIG_GLOBAL=$T/noid.gitconfig expect_fail mbox-needs-identity \
	'set your identity first' "$TOP/scripts/mbox.sh"
printf '[user]\n\tname = Fixture Author\n\temail = someone@kernel-dev.org\n' >"$T/same.gitconfig"
GIT_CONFIG_GLOBAL=$T/same.gitconfig expect_fail mbox-refuses-placeholder-identity \
	"the series' placeholder" "$TOP/scripts/mbox.sh"
printf '[user]\n\tname = Tess Poster\n\temail = tess@kernel-dev.org\n' >"$T/poster.gitconfig"
if GIT_CONFIG_GLOBAL=$T/poster.gitconfig "$TOP/scripts/mbox.sh" >"$T/mbox.log" 2>&1 &&
	[ "$(grep -c '^In-Reply-To: <swapq-' "$MBOX")" -eq 2 ] &&
	[ "$(grep -c '^From: Tess Poster <tess@kernel-dev.org>$' "$MBOX")" -eq 3 ] &&
	! grep -q 'Fixture Author\|fixture@example.org' "$MBOX" &&
	[ "$(grep -l '^To: .*linux-mm@kvack.org\|^	linux-mm@kvack.org' "$OUTGOING"/*.patch | wc -l)" -eq 3 ] &&
	grep -q '^Cc: .*Andrew Morton <akpm@linux-foundation.org>' "$MBOX" &&
	sed -n '/^Cc:/,/^[^[:space:]C]/p' "$OUTGOING"/0000-cover-letter.patch |
		grep -q 'Extra Reviewer <extra@kernel-dev.org>' &&
	grep -q 'reproduces the work tree' "$T/mbox.log" &&
	grep -q 'send-email --dry-run: 3 messages' "$T/mbox.log"; then
	ok mbox-git-am-reproduces
else
	notok mbox-git-am-reproduces "$(tail -n1 "$T/mbox.log")"
fi

# An edit in the work tree reaches series/, cover text kept.
git -C "$WORK" -c user.name=T -c user.email=t@t commit -q --allow-empty -m "mm: an empty fixture commit"
tree export
if [ "$(ls "$SERIES" | wc -l)" -eq 4 ] && grep -q 'harness fixture: two small patches' "$SERIES/0000-cover-letter.patch" &&
	grep -q '^Subject: \[PATCH 0/3\]' "$SERIES/0000-cover-letter.patch" &&
	grep -q 'An indented table line' "$SERIES/0000-cover-letter.patch"; then
	ok export-keeps-cover-text
else
	notok export-keeps-cover-text "$(ls "$SERIES" | tr '\n' ' ')"
fi

# An edit of the cover letter is not lost, even when the work tree has a
# new commit at the same time: the export reads the edit against the
# commits it was written for and keeps it.
sed -i 's/harness fixture: two small patches/harness fixture: edited text/' \
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
expect_fail refuse-dirty-worktree 'uncommitted changes' "$TOP/scripts/tree.sh" work
# A kernel build stops at the tree's error, not at a later step.
if VARIANT=patched FLAVOR=plain "$TOP/scripts/build-kernel.sh" >"$T/out" 2>&1; then
	notok build-stops-at-tree-error "succeeded, expected a failure"
elif grep -q 'uncommitted changes' "$T/out" && ! grep -q 'allnoconfig\|configuring' "$T/out"; then
	ok build-stops-at-tree-error
else
	notok build-stops-at-tree-error "$(tail -n 2 "$T/out" | tr '\n' ' ')"
fi
git -C "$WORK" checkout -q -- mm/swapfile.c
git -C "$WORK" -c user.name=T -c user.email=t@t commit -q --allow-empty -m "mm: not exported"
expect_fail refuse-unexported-commits 'not in series/' "$TOP/scripts/tree.sh" work

# A series that does not apply: named, and no stamp left behind.
rm -f "$SERIES"/*.patch
cp "$TOP"/tests/fixture/series/*.patch "$SERIES"
sed -i 's/^ static unsigned int find_next_to_unuse/ static unsigned int find_next_to_unused/' \
	"$SERIES"/0001-*.patch
FORCE=1 expect_fail patch-does-not-apply '0001-mm-swap-fixture-mark-find_next_to_unuse.patch does not apply' \
	"$TOP/scripts/tree.sh" work
if [ ! -e "$WORK/.git/swapq-stamp" ] && [ ! -d "$WORK/.git/rebase-apply" ] &&
	[ "$(git -C "$WORK" rev-parse HEAD)" = "$COMMIT" ]; then
	ok no-half-applied-tree
else
	notok no-half-applied-tree "stamp or am state left in $WORK"
fi
# Asking again does not take the bare base for the applied series.
expect_fail retry-still-fails 'does not apply' "$TOP/scripts/tree.sh" work
