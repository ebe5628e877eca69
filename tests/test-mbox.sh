#!/bin/sh
# make mbox on the fixture series (tests/fixture/series) applied to the
# Debian base: it needs the kernel's own scripts/get_maintainer.pl and
# MAINTAINERS.  From the poster's git identity, never the series' own;
# To: and Cc: from get_maintainer.pl; threaded on the cover letter; git am
# of it onto a fresh base gives the work tree's tree, and git send-email
# --dry-run would send every message.
. "$(dirname "$0")/lib.sh"
. "$TOP/scripts/lib.sh"
base_tree
export SERIES=$T/series WORK=$BUILD/test-work MBOX=$T/series.mbox
# The fixture series applies to the bare base: no prerequisites.
export PREREQS=$T/no-prereqs
cp -r "$TOP/tests/fixture/series" "$SERIES"
# The scratch work tree (a checkout of the whole kernel) outlives a run:
# one cut short leaves it dirty or half-applied.  Start from clean.
if [ -d "$WORK/.git" ]; then
	git -C "$WORK" am --abort >/dev/null 2>&1
	git -C "$WORK" reset -q --hard && git -C "$WORK" clean -qfdx
fi
if FORCE=1 "$TOP/scripts/kernel/tree.sh" work >"$T/log" 2>&1 &&
	! git -C "$WORK" check-ignore -q mm/tests/swapq_fixture.c; then
	ok mbox-fixture-applies
else
	notok mbox-fixture-applies "$(tail -n1 "$T/log")"
fi
export OUTGOING=$T/outgoing
printf '' >"$T/noid.gitconfig"
GIT_CONFIG_GLOBAL=$T/noid.gitconfig expect_fail mbox-needs-identity \
	'set your identity first' "$TOP/scripts/post/mbox.sh"
printf '[user]\n\tname = Fixture Author\n\temail = someone@kernel-dev.org\n' >"$T/same.gitconfig"
GIT_CONFIG_GLOBAL=$T/same.gitconfig expect_fail mbox-refuses-placeholder-identity \
	"the series' placeholder" "$TOP/scripts/post/mbox.sh"
printf '[user]\n\tname = Tess Poster\n\temail = tess@kernel-dev.org\n' >"$T/poster.gitconfig"
if GIT_CONFIG_GLOBAL=$T/poster.gitconfig "$TOP/scripts/post/mbox.sh" >"$T/mbox.log" 2>&1 &&
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


# Two postings (the fixture's patches one each): a thread each, the
# second's cover letter naming the first's by its Message-ID and its patch
# by patch-id; git am of both, in order, reproduces the work tree.
export SERIES=$T/postings MBOX=$T/p.mbox OUTGOING=$T/p-outgoing
mkdir -p "$SERIES/1-a" "$SERIES/2-b"
cp "$TOP"/tests/fixture/series/0001-*.patch "$SERIES/1-a/"
cp "$TOP"/tests/fixture/series/0002-*.patch "$SERIES/2-b/"
FORCE=1 "$TOP/scripts/kernel/tree.sh" work >"$T/log" 2>&1 &&
	"$TOP/scripts/kernel/tree.sh" export >>"$T/log" 2>&1
for c in "$SERIES"/*/0000-cover-letter.patch; do
	sed -i "s/\*\*\* SUBJECT HERE \*\*\*/fixture posting $(basename "${c%/*}")/; s/^\*\*\* BLURB HERE \*\*\*$/A fixture posting./" "$c"
done
id1=
if GIT_CONFIG_GLOBAL=$T/poster.gitconfig "$TOP/scripts/post/mbox.sh" >"$T/mbox.log" 2>&1; then
	id1=$(sed -n 's/^Message-ID: //p' "$OUTGOING/1-a/0000-cover-letter.patch")
fi
p1=$(cat "$SERIES"/1-a/0001-*.patch | git patch-id --stable | cut -d' ' -f1)
if [ -n "$id1" ] && [ -n "$p1" ] &&
	grep -qx "prerequisite-message-id: $id1" "$T/p-2.mbox" &&
	grep -qx "prerequisite-patch-id: $p1" "$T/p-2.mbox" &&
	! grep -q '^prerequisite-' "$T/p-1.mbox" &&
	[ "$(grep -c '^In-Reply-To: <swapq-' "$T/p-1.mbox")" -eq 1 ] &&
	[ "$(grep -c '^In-Reply-To: <swapq-' "$T/p-2.mbox")" -eq 1 ] &&
	grep -q 'reproduces the work tree' "$T/mbox.log" &&
	grep -q 'send-email --dry-run: 4 messages' "$T/mbox.log"; then
	ok mbox-postings-in-order
else
	notok mbox-postings-in-order "id1 '$id1' $(tail -n1 "$T/mbox.log")"
fi
