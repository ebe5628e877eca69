#!/bin/sh
# make check stops first, with the cause, when the series does not apply
# (it used to go on for an hour and report a kernel that did not build).
# A synthetic base and a series whose patch's context is not in it.
. "$(dirname "$0")/lib.sh"
. "$TOP/scripts/lib.sh"
fix=$TOP/tests/fixture/synthetic
synthetic_base "$T/base" >/dev/null || notok synthetic-base "cannot commit the synthetic base"
cp -r "$fix/series" "$T/series"
sed -i 's/^ 	for (i = prev + 1; i < si->max; i++) {$/ 	for (i = prev + 2; i < si->max; i++) {/' \
	"$T/series/0001-mm-swap-fixture-comment-the-scan.patch"
# Should check.py go on past the series, the harness tests it would run
# are none and the guard ends it: no recursion into this test.
if timeout 120 env KERNEL_SRC="$T/base" SERIES="$T/series" PREREQS="$fix/prereqs" BUILD="$T/build" \
	HARNESS_TESTS=none python3 "$TOP/scripts/check/check.py" >"$T/out" 2>&1; then
	notok check-stops-series-not-applying "check.py passed"
elif grep -qx 'not ok series-applies - 0001-mm-swap-fixture-comment-the-scan.patch does not apply to [0-9a-f]*: .*' "$T/out" &&
	[ "$(tail -n1 "$T/out")" = "0 passed, 1 failed" ] && ! grep -q 'harness tests' "$T/out"; then
	ok check-stops-series-not-applying
else
	notok check-stops-series-not-applying "$(grep -v '^==>' "$T/out" | tail -n 3 | tr '\n' ' ')"
fi
