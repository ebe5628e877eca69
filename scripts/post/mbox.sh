#!/bin/sh
# make mbox: series/ as the messages you post, From: and Signed-off-by: you
# (git config user.name / user.email), To:/Cc: from the work tree's
# scripts/get_maintainer.pl; then prove them: git am of the mbox onto the
# base and the prerequisites reproduces the work tree exactly, and
# git send-email --dry-run prints what it would send.
#   build/series.mbox       the whole thread, for git am or b4
#   build/outgoing/*.patch  one message a file: git send-email build/outgoing
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
ident=$(sed -n '2{s/^From: //p}' "$SERIES/0000-cover-letter.patch" 2>/dev/null || true)
case "$ident" in
"$name"*) die "your git identity is the series' placeholder ($ident): set your own" ;;
esac
poster="$name <$mail>"

"$TOP/scripts/kernel/deps.sh" git-email libmailtools-perl || die "cannot install git-email"
base_tree
commit=$base_commit
work=$(lastline "$TOP/scripts/kernel/tree.sh" work) || exit 1
mkdir -p "$BUILD"
addr=$(mktemp -d)
chk=
trap 'rm -rf "$addr" "$chk"' EXIT
# Per patch: To the lists get_maintainer names, Cc its people; the cover
# letter goes to everyone any patch goes to.
for p in $("$TOP/scripts/kernel/tree.sh" patches); do
	n=${p##*/}
	(cd "$work" && perl scripts/get_maintainer.pl --no-rolestats --no-git \
		--no-git-fallback "$p") >"$addr/$n.all" 2>"$addr/$n.err" ||
		die "get_maintainer.pl failed on $n: $(head -n1 "$addr/$n.err")"
	grep -v '@' "$addr/$n.all" >&2 || true
	grep '^[^<]*@[^>]*$' "$addr/$n.all" >"$addr/$n.to" || true
	grep '<' "$addr/$n.all" >"$addr/$n.cc" || true
	cat "$addr/$n.to" >>"$addr/0000-cover-letter.patch.to"
	cat "$addr/$n.cc" >>"$addr/0000-cover-letter.patch.cc"
done
# The cover letter's base-commit and prerequisite-patch-id lines: those of
# the work tree the mbox is proved on (KERNEL_SRC's commit and the
# prerequisites it lacked), not those series/ was exported with.
"$TOP/scripts/kernel/tree.sh" base-lines >"$addr/base-lines" ||
	die "cannot take the work tree's base-commit line"
rm -rf "$outdir"
python3 "$TOP/scripts/post/mbox.py" "$out" "$outdir" "$SERIES" "$addr" "$poster" \
	"$addr/base-lines"

# git am of it onto the base and the prerequisites the work tree applied.
onto=$(lastline "$TOP/scripts/kernel/tree.sh" prereq-tip) || exit 1
chk=$(mktemp -d "$BUILD/mbox-check.XXXXXX")
pgit clone -q --shared --no-checkout "$work" "$chk"
pgit -C "$chk" checkout -q --detach "$onto"
pgit -C "$chk" am -q --empty=drop "$out" || die "git am of $out onto $onto failed"
want=$(git -C "$work" rev-parse 'HEAD^{tree}')
got=$(git -C "$chk" rev-parse 'HEAD^{tree}')
n=$(git -C "$chk" rev-list --count "$onto..HEAD")
np=$(git -C "$chk" rev-list --count "$commit..$onto")
authors=$(git -C "$chk" log --format='%an <%ae>' "$onto..HEAD" | sort -u)
rm -rf "$chk"
[ "$want" = "$got" ] || die "git am of $out gives tree $got, the work tree has $want"
[ "$authors" = "$poster" ] || die "git am of $out gives authors '$authors', not '$poster'"
say "$out: $n patches by $poster; git am onto $commit + $np prerequisites reproduces the work tree (tree $got)"

# What git send-email would send: every message, its From, To and Cc.
dry=$BUILD/send-email-dry-run.txt
pgit send-email --dry-run --confirm=never --suppress-cc=bodycc --suppress-cc=sob \
	--suppress-cc=misc-by --suppress-cc=self --no-thread \
	--from="$poster" --8bit-encoding=UTF-8 --transfer-encoding=8bit \
	"$outdir" >"$dry" 2>&1 </dev/null ||
	die "git send-email --dry-run failed (see $dry)"
sent=$(grep -c '^Dry-OK\. Log says:' "$dry" || true)
[ "$sent" -eq "$((n + 1))" ] ||
	die "git send-email --dry-run would send $sent messages, not $((n + 1)) (see $dry)"
say "git send-email --dry-run: $sent messages (see $dry); to post: git send-email $outdir"
echo "$out"
