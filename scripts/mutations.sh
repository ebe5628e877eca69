#!/bin/sh
# The KUnit cases can fail: apply each deliberate breakage under
# tests/mutations/ on top of the series, boot the debug kernel, and expect
# the case named in its "Expect-fail:" line to fail.  One result line each.
set -u
. "$(dirname "$0")/lib.sh"
pass=0 fail=0
work=$("$TOP/scripts/tree.sh" work | tail -n1) || die "no work tree"
mut=$BUILD/mutant-src
if [ ! -d "$mut/.git" ]; then
	git clone -q --shared "$work" "$mut" || die "cannot clone $work"
fi
for p in "$TOP"/tests/mutations/*.patch; do
	n=$(basename "$p" .patch)
	want=$(sed -n 's/^Expect-fail: //p' "$p")
	git -C "$mut" fetch -q "$work" HEAD && git -C "$mut" checkout -q -f --detach FETCH_HEAD
	if ! git -C "$mut" apply "$p"; then
		echo "not ok mutation $n - does not apply"; fail=$((fail + 1)); continue
	fi
	k=$(VARIANT=mutant SRC_TREE=$mut FLAVOR=debug "$TOP/scripts/build-kernel.sh" | tail -n1)
	if [ ! -r "$k" ]; then
		echo "not ok mutation $n - build failed"; fail=$((fail + 1)); continue
	fi
	TIMEOUT=300 "$TOP/scripts/run-vm.sh" "$k" sanity "mutant-$n" >"$BUILD/logs/mutant-$n.out" 2>&1
	if grep -q "^FAIL $want" "$BUILD/logs/mutant-$n.out"; then
		echo "ok mutation $n makes $want fail"; pass=$((pass + 1))
	else
		echo "not ok mutation $n - $want did not fail (build/logs/mutant-$n.out)"; fail=$((fail + 1))
	fi
done
git -C "$mut" checkout -q -f --detach HEAD
echo "$pass passed, $fail failed"
