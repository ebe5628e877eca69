#!/bin/sh
# make record-stages [FROM=build/logs/check-stages]: add the stages that a
# run of this tree finished to records/check-stages, to be committed with
# the tree, so that `make check-full RESUME=1` on another machine (a clean
# clone, say) runs only the rest.  Takes only records of this tree's
# content and parameters, each stage once.
set -u
. "$(dirname "$0")/../lib.sh"
from=${FROM:-$BUILD/logs/check-stages}
[ -r "$from" ] || die "no stage records at $from: run make check or check-full first"
STAGE_ID=$(stage_id)
mkdir -p "$(dirname "$STAGE_RECORDS")"
touch "$STAGE_RECORDS"
awk -v i="$STAGE_ID" 'FNR == NR { if ($1 == i) had[$2] = 1; next }
	$1 == i && !($2 in had) { had[$2] = 1; print }' "$STAGE_RECORDS" "$from" >"$STAGE_RECORDS.new" ||
	die "cannot read $from"
n=$(wc -l <"$STAGE_RECORDS.new")
cat "$STAGE_RECORDS.new" >>"$STAGE_RECORDS"
rm -f "$STAGE_RECORDS.new"
say "$n stage(s) of tree $STAGE_ID added to ${STAGE_RECORDS#"$TOP"/}"
# A part's counts (prefix-boot/3) are in its stage's (prefix-boot) too.
awk -v i="$STAGE_ID" '$1 == i && $2 !~ /\// { p += $3; f += $4; s = s " " $2 }
	END { printf "recorded for this tree:%s (%d passed, %d failed)\n", s, p, f }' "$STAGE_RECORDS"
