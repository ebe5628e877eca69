#!/bin/sh
# make mbox: series/ as the messages you post, From: and Signed-off-by: you
# (git config user.name / user.email), To:/Cc: from the work tree's
# scripts/get_maintainer.pl; then prove them: git am of the mboxes, in
# order, onto the base and the prerequisites reproduces the work tree
# exactly, posting by posting, and git send-email --dry-run prints what it
# would send.  One posting (series/*.patch):
#   build/series.mbox       the whole thread, for git am or b4
#   build/outgoing/*.patch  one message a file: git send-email build/outgoing
# Several (series/1-NAME/, series/2-NAME/, ...): build/series-K.mbox and
# build/outgoing/K-NAME/ for each, a thread each; a later posting's cover
# letter names the earlier one's by a prerequisite-message-id line beside
# its prerequisite-patch-id lines (as b4 writes them).
set -eu
. "$(dirname "$0")/../lib.sh"
: "${SERIES:=$TOP/series}"
out=${MBOX:-$BUILD/series.mbox}
outdir=${OUTGOING:-$BUILD/outgoing}

# The poster, from their own git configuration (not the pinned one).
name=$(git config user.name || true)
mail=$(git config user.email || true)
[ -n "$name" ] && [ -n "$mail" ] ||
	die "set your identity first: git config --global user.name 'Your Name'; git config --global user.email you@example.org"
case $mail in
*.example | *.example.* | *@localhost | *noreply*)
	die "'$mail' is not an address you can be reached at: set git config user.email" ;;
esac
postings=$(SERIES=$SERIES "$TOP/scripts/kernel/tree.sh" postings | cut -d' ' -f1)
first=$(echo "$postings" | head -n1)
ident=$(sed -n '2{s/^From: //p}' "$first/0000-cover-letter.patch" 2>/dev/null || true)
case "$ident" in
"$name"*) die "your git identity is the series' placeholder ($ident): set your own" ;;
esac
poster="$name <$mail>"

"$TOP/scripts/kernel/deps.sh" git-email libmailtools-perl || die "cannot install git-email"
base_tree
commit=$base_commit
work_tree || exit 1
work=$WORK
mkdir -p "$BUILD"
addr=$(mktemp -d)
chk=
trap 'rm -rf "$addr" "$chk"' EXIT
"$TOP/scripts/kernel/tree.sh" bounds >"$addr/bounds" || die "cannot find series/'s postings in $work"
np_all=$(wc -l <"$addr/bounds")
[ "$np_all" -eq "$(echo "$postings" | wc -l)" ] ||
	die "$work holds $np_all posting(s), series/ $(echo "$postings" | wc -l): run 'make worktree'"
rm -rf "$outdir"
k=0 prev_id= mboxes=
while read -r dir from to; do
	k=$((k + 1))
	a=$addr/$k
	mkdir -p "$a"
	if [ "$np_all" -eq 1 ]; then
		mb=$out od=$outdir
	else
		mb=${out%.mbox}-$k.mbox od=$outdir/${dir##*/}
	fi
	# Per patch: To the lists get_maintainer names, Cc its people; the
	# cover letter goes to everyone any of its posting's patches goes to.
	for p in $("$TOP/scripts/kernel/tree.sh" patches "$dir"); do
		n=${p##*/}
		(cd "$work" && perl scripts/get_maintainer.pl --no-rolestats --no-git \
			--no-git-fallback "$p") >"$a/$n.all" 2>"$a/$n.err" ||
			die "get_maintainer.pl failed on $n: $(head -n1 "$a/$n.err")"
		grep -v '@' "$a/$n.all" >&2 || true
		grep '^[^<]*@[^>]*$' "$a/$n.all" >"$a/$n.to" || true
		grep '<' "$a/$n.all" >"$a/$n.cc" || true
		cat "$a/$n.to" >>"$a/0000-cover-letter.patch.to"
		cat "$a/$n.cc" >>"$a/0000-cover-letter.patch.cc"
	done
	# The cover letter's base-commit and prerequisite-patch-id lines:
	# those of the work tree the mbox is proved on (KERNEL_SRC's commit
	# and the prerequisites it lacked, and the earlier postings), not
	# those series/ was exported with.
	"$TOP/scripts/kernel/tree.sh" base-lines "$k" >"$a/base-lines" ||
		die "cannot take the work tree's base-commit line"
	[ -z "$prev_id" ] || echo "prerequisite-message-id: $prev_id" >>"$a/base-lines"
	prev_id=$(python3 "$TOP/scripts/post/mbox.py" "$mb" "$od" "$dir" "$a" "$poster" \
		"$a/base-lines") || die "cannot write $mb"
	echo "$mb $od $to" >>"$addr/made"
	mboxes="$mboxes $mb"
done <"$addr/bounds"

# git am of each, in order, onto the base and the prerequisites the work
# tree applied: after each, the tree of the work tree's posting.
onto=$("$TOP/scripts/kernel/tree.sh" prereq-tip) || exit 1
chk=$(mktemp -d "$BUILD/mbox-check.XXXXXX")
pgit clone -q --shared --no-checkout "$work" "$chk"
pgit -C "$chk" checkout -q --detach "$onto"
while read -r mb od to; do
	pgit -C "$chk" am -q --empty=drop "$mb" || die "git am of $mb onto $(git -C "$chk" rev-parse --short HEAD) failed"
	want=$(git -C "$work" rev-parse "$to^{tree}")
	got=$(git -C "$chk" rev-parse 'HEAD^{tree}')
	[ "$want" = "$got" ] || die "git am of $mb gives tree $got, the work tree has $want"
done <"$addr/made"
n=$(git -C "$chk" rev-list --count "$onto..HEAD")
np=$(git -C "$chk" rev-list --count "$commit..$onto")
authors=$(git -C "$chk" log --format='%an <%ae>' "$onto..HEAD" | sort -u)
rm -rf "$chk"
[ "$authors" = "$poster" ] || die "git am of ${mboxes# } gives authors '$authors', not '$poster'"
say "${mboxes# }: $n patches by $poster; git am onto $commit + $np prerequisites reproduces the work tree (tree $got)"

# What git send-email would send: every message, its From, To and Cc.
dry=$BUILD/send-email-dry-run.txt
: >"$dry"
while read -r mb od to; do
	pgit send-email --dry-run --confirm=never --suppress-cc=bodycc --suppress-cc=sob \
		--suppress-cc=misc-by --suppress-cc=self --no-thread \
		--from="$poster" --8bit-encoding=UTF-8 --transfer-encoding=8bit \
		"$od" >>"$dry" 2>&1 </dev/null ||
		die "git send-email --dry-run failed on $od (see $dry)"
done <"$addr/made"
sent=$(grep -c '^Dry-OK\. Log says:' "$dry" || true)
[ "$sent" -eq "$((n + np_all))" ] ||
	die "git send-email --dry-run would send $sent messages, not $((n + np_all)) (see $dry)"
say "git send-email --dry-run: $sent messages (see $dry); to post: $(sed 's/^[^ ]* \([^ ]*\) .*/git send-email \1/' "$addr/made" | paste -sd ';' | sed 's/;/, then /g')"
echo "$mboxes" | tr ' ' '\n' | sed '/^$/d'
