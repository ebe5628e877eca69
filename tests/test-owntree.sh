#!/bin/sh
# A developer's own tree (KERNEL_SRC, KERNEL_REF) on synthetic trees (no
# download): a prerequisite upstream reworded is still found in the base;
# a branch known only as a remote's (mm-unstable as akpm/mm-unstable, or
# fetched shallow) is a base; uncommitted changes of the tree are named;
# the cover letter's base-commit and prerequisite-patch-id lines, written
# by the export and by make mbox, are those of the tree applied to; a
# git am cut short in the work tree is cleaned up, and git's own fatal
# cause is shown.
. "$(dirname "$0")/lib.sh"
. "$TOP/scripts/lib.sh"
fix=$TOP/tests/fixture/synthetic
pre=$(ls "$fix"/prereqs/0001-*.patch)
subj=$(pgit mailinfo /dev/null /dev/null <"$pre" | sed -n 's/^Subject: //p')
synthetic_base "$T/base" >/dev/null || notok synthetic-base "cannot commit the synthetic base"

# work NAME SRC [REF]: tree.sh work of the fixture series on SRC at REF
# into the work tree $T/w.NAME, log in $T/w.NAME.log, series/ $T/w.NAME.series.
work() {
	rm -rf "$T/w.$1" "$T/w.$1.series"
	cp -r "$fix/series" "$T/w.$1.series"
	KERNEL_SRC=$2 KERNEL_REF=${3:-} SERIES=$T/w.$1.series WORK=$T/w.$1 \
		PREREQS=$fix/prereqs "$TOP/scripts/kernel/tree.sh" work >"$T/w.$1.log" 2>&1
}
# export_ NAME SRC [REF]: tree.sh export of that work tree into its series/
export_() {
	KERNEL_SRC=$2 KERNEL_REF=${3:-} SERIES=$T/w.$1.series WORK=$T/w.$1 PREREQS=$fix/prereqs \
		"$TOP/scripts/kernel/tree.sh" export >>"$T/w.$1.log" 2>&1
}
log() { tail -c 300 "$T/w.$1.log" | tr '\n' ' '; }
commits() { git -C "$T/w.$1" rev-list --count "$2..HEAD"; }
cover() { cat "$T/w.$1.series/0000-cover-letter.patch"; }
state() {	# state REPO: what must not change in a tree we only read
	{ git -C "$1" for-each-ref; git -C "$1" rev-parse HEAD; cat "$1/.git/index"; } | sha256sum
}

work plain "$T/base" || notok plain-work "$(log plain)"
want=$(git -C "$T/w.plain" rev-parse 'HEAD^{tree}')

# 1. The prerequisite's change committed upstream under another subject.
pgit clone -q "$T/base" "$T/reworded"
pgit -C "$T/reworded" apply "$pre" &&
	pgit -C "$T/reworded" commit -q -a --no-gpg-sign --no-verify -m "README: say what the tree stands in for"
s0=$(state "$T/reworded")
if work reworded "$T/reworded" &&
	grep -q "prerequisite already in the base, skipped: $subj (its change is in the base's tree)" "$T/w.reworded.log" &&
	[ "$(git -C "$T/w.reworded" rev-parse 'HEAD^{tree}')" = "$want" ] &&
	[ "$(commits reworded "$(git -C "$T/reworded" rev-parse HEAD)")" -eq 2 ] &&
	[ "$(state "$T/reworded")" = "$s0" ]; then
	ok prereq-reworded-skipped-by-content
else
	notok prereq-reworded-skipped-by-content "$(log reworded)"
fi
# ... and changed again since: its change is no longer in the tree as
# such, but the commit that made it is (the same patch-id).
pgit clone -q "$T/reworded" "$T/changed"
sed -i '2s/builds/builds (yet)/' "$T/changed/README" &&
	pgit -C "$T/changed" commit -q -a --no-gpg-sign --no-verify -m "README: hedge"
c=$(git -C "$T/changed" rev-parse --short=12 HEAD~1)
if work changed "$T/changed" &&
	grep -q "prerequisite already in the base, skipped: $subj (the base's commit $c has its patch-id)" "$T/w.changed.log" &&
	[ "$(commits changed "$(git -C "$T/changed" rev-parse HEAD)")" -eq 2 ]; then
	ok prereq-reworded-skipped-by-patch-id
else
	notok prereq-reworded-skipped-by-patch-id "$(log changed)"
fi

# 4a. The export writes the lines of the tree it applied to: its commit,
# and a prerequisite-patch-id line only for a prerequisite applied.
pgit clone -q "$T/base" "$T/mine"
echo "next" >"$T/mine/NEXT" && pgit -C "$T/mine" add NEXT &&
	pgit -C "$T/mine" commit -q --no-gpg-sign --no-verify -m "mine: next"
mine=$(git -C "$T/mine" rev-parse HEAD)
pid=$(pgit patch-id --stable <"$pre" | cut -d' ' -f1)
if work mine "$T/mine" && export_ mine "$T/mine" &&
	[ "$(cover mine | grep -E '^(base-commit|prerequisite-patch-id): ')" = \
		"base-commit: $mine
prerequisite-patch-id: $pid" ]; then
	ok export-owntree-base-lines
else
	notok export-owntree-base-lines "$(log mine) $(cover mine | tail -n 3 | tr '\n' ' ')"
fi
if [ -d "$T/w.reworded/.git" ] && export_ reworded "$T/reworded" &&
	[ "$(cover reworded | grep -E '^(base-commit|prerequisite-patch-id): ')" = \
		"base-commit: $(git -C "$T/reworded" rev-parse HEAD)" ]; then
	ok export-owntree-no-skipped-prereq-line
else
	notok export-owntree-no-skipped-prereq-line "$(log reworded)"
fi

# 4b. make mbox's cover letter: the work tree's lines (tree.sh base-lines),
# in place of those series/ holds.
KERNEL_SRC=$T/mine SERIES=$T/w.mine.series WORK=$T/w.mine PREREQS=$fix/prereqs \
	"$TOP/scripts/kernel/tree.sh" base-lines >"$T/base-lines" 2>"$T/base-lines.err"
expect_eq base-lines-owntree "$(cat "$T/base-lines" "$T/base-lines.err")" "base-commit: $mine
prerequisite-patch-id: $pid"
mkdir -p "$T/addr"
for p in "$fix"/series/*.patch; do echo "linux-mm@kvack.org" >"$T/addr/${p##*/}.to"; done
if python3 "$TOP/scripts/post/mbox.py" "$T/mbox" "$T/outgoing" "$fix/series" "$T/addr" \
	"Tess Poster <tess@kernel-dev.org>" "$T/base-lines" >"$T/mbox.log" 2>&1 &&
	[ "$(sed -n '/^ create mode/,$p' "$T/outgoing/0000-cover-letter.patch")" = " create mode 100644 mm/tests/fixture.c


base-commit: $mine
prerequisite-patch-id: $pid" ] &&
	[ "$(grep -c "^base-commit: $mine\$" "$T/mbox")" -eq 1 ] &&
	! grep -q "^base-commit: $(git -C "$T/base" rev-parse HEAD)" "$T/mbox"; then
	ok mbox-base-lines-owntree
else
	notok mbox-base-lines-owntree "$(tail -n 3 "$T/outgoing/0000-cover-letter.patch" "$T/mbox.log" 2>&1 | tr '\n' ' ')"
fi

# 2. KERNEL_REF a branch the tree has only as a remote's.
pgit clone -q "$T/base" "$T/up"
echo "queued" >"$T/up/QUEUED" && pgit -C "$T/up" add QUEUED &&
	pgit -C "$T/up" commit -q --no-gpg-sign --no-verify -m "up: queued" &&
	pgit -C "$T/up" branch -q mm-unstable
upc=$(git -C "$T/up" rev-parse HEAD)
pgit clone -q "$T/base" "$T/dev"
pgit -C "$T/dev" remote add akpm "$T/up" && pgit -C "$T/dev" fetch -q akpm
for r in akpm/mm-unstable mm-unstable; do
	n=remote-ref-$(echo "$r" | tr / -)
	if work remote "$T/dev" "$r" && [ "$(commits remote "$upc")" -eq 3 ] &&
		[ "$(git -C "$T/w.remote" rev-parse HEAD~3)" = "$upc" ]; then
		ok "$n"
	else
		notok "$n" "$(log remote)"
	fi
done
pgit -C "$T/dev" remote add other "$T/up" && pgit -C "$T/dev" fetch -q other
KERNEL_SRC=$T/dev KERNEL_REF=mm-unstable expect_fail remote-ref-ambiguous \
	'KERNEL_REF=mm-unstable is ambiguous in .*: refs/remotes/akpm/mm-unstable refs/remotes/other/mm-unstable' \
	"$TOP/scripts/kernel/base.sh"
# Fetched shallow (git fetch --depth=1): the base's parent is not there.
pgit init -q "$T/shallow"
pgit -C "$T/shallow" fetch -q --depth=1 "file://$T/up" mm-unstable:refs/remotes/akpm/mm-unstable
if work shallow "$T/shallow" akpm/mm-unstable && export_ shallow "$T/shallow" akpm/mm-unstable &&
	cover shallow | grep -q "^base-commit: $upc\$"; then
	ok remote-ref-shallow
else
	notok remote-ref-shallow "$(log shallow)"
fi

# 3. Uncommitted changes of the tree are named (untracked files are not).
pgit clone -q "$T/base" "$T/edit"
echo "an untracked file" >"$T/edit/NEW"
if work edit "$T/edit" && ! grep -q 'uncommitted' "$T/w.edit.log"; then
	ok owntree-untracked-no-note
else
	notok owntree-untracked-no-note "$(log edit)"
fi
echo "mid-edit" >>"$T/edit/README"
s0=$(state "$T/edit")
if work edit "$T/edit" &&
	[ "$(grep -c "note: $T/edit has uncommitted changes; they are not part of the base $(git -C "$T/edit" rev-parse HEAD)" "$T/w.edit.log")" -eq 1 ] &&
	[ "$(state "$T/edit")" = "$s0" ] && grep -q mid-edit "$T/edit/README"; then
	ok owntree-uncommitted-noted
else
	notok owntree-uncommitted-noted "$(log edit)"
fi

# 5. A git am cut short (^C in make worktree): tree.sh had dropped its
# stamp and left rebase-apply behind.  The next run cleans it up.
sed 's/^ The harness/ Not the harness/' "$pre" >"$T/bad.patch"
cut=$T/w.cut
if work cut "$T/base"; then
	rm "$cut/.git/swapq-stamp"
	pgit -C "$cut" checkout -q -f --detach "$(git -C "$T/base" rev-parse HEAD)"
	pgit -C "$cut" am -q "$T/bad.patch" >/dev/null 2>&1
fi
[ -d "$cut/.git/rebase-apply" ] || notok am-interrupted-cleaned "could not leave a git am unfinished"
if KERNEL_SRC=$T/base SERIES=$cut.series WORK=$cut PREREQS=$fix/prereqs \
	"$TOP/scripts/kernel/tree.sh" work >"$cut.log" 2>&1 &&
	[ "$(grep -c "aborted the git am an earlier run left unfinished" "$cut.log")" -eq 1 ] &&
	[ ! -d "$cut/.git/rebase-apply" ] &&
	[ "$(git -C "$cut" rev-parse 'HEAD^{tree}')" = "$want" ]; then
	ok am-interrupted-cleaned
else
	notok am-interrupted-cleaned "$(log cut)"
fi
# One the user started in the work tree themselves (its stamp is there):
# theirs to finish or drop, named.
work own "$T/base" && pgit -C "$T/w.own" am -q "$T/bad.patch" >/dev/null 2>&1
[ -d "$T/w.own/.git/rebase-apply" ] || notok am-in-progress-named "could not leave a git am unfinished"
KERNEL_SRC=$T/base SERIES=$T/w.own.series WORK=$T/w.own PREREQS=$fix/prereqs expect_fail \
	am-in-progress-named "has a git am in progress: .*git -C $T/w.own am --abort" \
	"$TOP/scripts/kernel/tree.sh" work

# git am's own cause, when it is a "fatal:" line: a patch with no author.
mkdir "$T/noauthor"
sed '/^From: /d' "$pre" >"$T/noauthor/0001-no-author.patch"
cp -r "$fix/series" "$T/noauthor.series"
KERNEL_SRC=$T/base SERIES=$T/noauthor.series WORK=$T/w.noauthor PREREQS=$T/noauthor \
	expect_fail am-fatal-cause-shown '0001-no-author.patch does not apply to [0-9a-f]+: fatal: ' \
	"$TOP/scripts/kernel/tree.sh" work
