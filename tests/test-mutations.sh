#!/bin/sh
# The headers of the KUnit mutations (scripts/check/mutations.sh --headers):
# each must name exactly one case that it makes fail.
. "$(dirname "$0")/lib.sh"
M="sh $TOP/scripts/check/mutations.sh --headers"
if $M >"$T/all" 2>&1; then
	ok mutation-headers-of-the-series
else
	notok mutation-headers-of-the-series "$(grep '^not ok' "$T/all" | head -n1)"
fi
one() {	# one NAME HEADER: a directory holding one patch with HEADER
	mkdir -p "$T/$1"
	printf '%s\n\ndiff --git a/x b/x\n' "$2" >"$T/$1/$1.patch"
}
one good 'Expect-fail: kunit:swap_cluster.swap_cluster_test_scan_bad_slots'
if $M "$T/good" >"$T/out" 2>&1; then ok mutation-header-good; else notok mutation-header-good "$(cat "$T/out")"; fi
one empty 'Expect-fail: '
expect_fail mutation-header-empty 'no case named' $M "$T/empty"
one none 'Subject: no header'
expect_fail mutation-header-missing 'no case named' $M "$T/none"
one two 'Expect-fail: kunit:a.b
Expect-fail: kunit:c.d'
expect_fail mutation-header-two 'more than one' $M "$T/two"
one loose 'Expect-fail: swap_cluster'
expect_fail mutation-header-malformed 'is not kunit:SUITE.CASE' $M "$T/loose"
one guest 'Expect-fail: faultinj:kmemleak_clean'
if $M "$T/guest" >"$T/out" 2>&1; then ok mutation-header-guest-program; else notok mutation-header-guest-program "$(cat "$T/out")"; fi
one noprog 'Expect-fail: nosuchprogram:case'
expect_fail mutation-header-unknown-program 'is not kunit:SUITE.CASE' $M "$T/noprog"

# Each harness mutation still applies to the harness as it is now (make
# check-full applies them; an edit of the code they break can leave one
# behind, and only check-full would notice).
for p in "$TOP"/tests/harness-mutations/*.patch; do
	n=$(basename "$p" .patch)
	if (cd "$TOP" && git apply --check "$p") >"$T/apply" 2>&1; then
		ok "harness-mutation-applies-$n"
	else
		notok "harness-mutation-applies-$n" "$(head -n1 "$T/apply")"
	fi
done
