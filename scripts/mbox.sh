#!/bin/sh
# make mbox: series/ as build/series.mbox (threaded); then prove that
# git am of it onto a fresh base reproduces the work tree exactly.
set -eu
. "$(dirname "$0")/lib.sh"
: "${SERIES:=$TOP/series}"
out=${MBOX:-$BUILD/series.mbox}
mkdir -p "$BUILD"
python3 "$TOP/scripts/mbox.py" "$out" "$SERIES"
set -- $("$TOP/scripts/fetch-base.sh")
repo=$1 commit=$2
work=$(lastline "$TOP/scripts/tree.sh" work) || exit 1
chk=$BUILD/mbox-check
rm -rf "$chk"
pgit clone -q --shared --no-checkout "$repo" "$chk"
git -C "$chk" checkout -q --detach "$commit"
pgit -C "$chk" am -q --empty=drop "$out" || die "git am of $out onto $commit failed"
want=$(git -C "$work" rev-parse 'HEAD^{tree}')
got=$(git -C "$chk" rev-parse 'HEAD^{tree}')
n=$(git -C "$chk" rev-list --count "$commit..HEAD")
rm -rf "$chk"
[ "$want" = "$got" ] || die "git am of $out gives tree $got, the work tree has $want"
say "$out: $n patches; git am onto $commit reproduces the work tree (tree $got)"
echo "$out"
