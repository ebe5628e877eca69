#!/bin/sh
# The KUnit cases can fail: apply each deliberate breakage under
# tests/mutations/ to the work tree, rebuild the debug kernel (an
# incremental build of the file it touches), boot it, and expect the case
# named in the patch's "Expect-fail:" line to fail.  The work tree is put
# back and the kernel rebuilt afterwards.  One result line per breakage.
set -u
. "$(dirname "$0")/lib.sh"
pass=0 fail=0
work=$(lastline "$TOP/scripts/tree.sh" work) || die "no work tree"
restore() {
	git -C "$work" checkout -q -- . 2>/dev/null
}
trap restore EXIT INT TERM
for p in "$TOP"/tests/mutations/*.patch; do
	n=$(basename "$p" .patch)
	want=$(sed -n 's/^Expect-fail: //p' "$p")
	restore
	if ! git -C "$work" apply "$p"; then
		result "mutation $n" 1 "does not apply"
		continue
	fi
	k=$(VARIANT=mutant SRC_TREE=$work FLAVOR=debug OBJ_NAME=patched \
		"$TOP/scripts/build-kernel.sh" | tail -n1)
	if [ ! -r "$k" ]; then
		result "mutation $n" 1 "build failed"
		continue
	fi
	SELFTESTS= TIMEOUT=300 "$TOP/scripts/run-vm.sh" "$k" sanity "mutant-$n" \
		>"$BUILD/logs/mutant-$n.out" 2>&1
	grep -q "^FAIL $want" "$BUILD/logs/mutant-$n.out"
	result "mutation $n makes $want fail" $? "it did not (build/logs/mutant-$n.out)"
done
restore
trap - EXIT INT TERM
VARIANT=patched FLAVOR=debug "$TOP/scripts/build-kernel.sh" >/dev/null ||
	die "cannot rebuild the debug kernel after the mutations"
echo "$pass passed, $fail failed"
