#!/bin/sh
# The KUnit cases can fail: apply each deliberate breakage under
# tests/mutations/ to the work tree, rebuild the debug kernel (an
# incremental build of the file it touches), boot it, and expect the case
# named in the patch's "Expect-fail:" line to fail.  The work tree is put
# back and the kernel rebuilt afterwards.  One result line per breakage.
#   mutations.sh --headers [DIR]  only check each patch's header: exactly
#                                 one "Expect-fail: kunit:SUITE.CASE" line
set -u
. "$(dirname "$0")/lib.sh"
pass=0 fail=0

# expect_of PATCH: the one case PATCH must make fail; fails (with the
# reason on stdout) when the header names none, an empty one, or several.
# An empty name would accept any failure at all.
expect_of() {
	_w=$(sed -n 's/^Expect-fail:[[:space:]]*//p' "$1")
	case $_w in
	"") echo "no case named in an Expect-fail: line"; return 1 ;;
	*"
"*) echo "more than one Expect-fail: line"; return 1 ;;
	esac
	printf '%s\n' "$_w" | grep -Eqx 'kunit:[A-Za-z0-9_]+\.[A-Za-z0-9_.-]+' || {
		echo "Expect-fail: '$_w' is not kunit:SUITE.CASE"
		return 1
	}
	echo "$_w"
}

if [ "${1:-}" = --headers ]; then
	for p in "${2:-$TOP/tests/mutations}"/*.patch; do
		why=$(expect_of "$p")
		result "mutation-header $(basename "$p" .patch)" $? "$why"
	done
	echo "$pass passed, $fail failed"
	[ "$fail" -eq 0 ]
	exit
fi

work=$(lastline "$TOP/scripts/tree.sh" work) || die "no work tree"
restore() {
	git -C "$work" checkout -q -- . 2>/dev/null
}
trap restore EXIT INT TERM
for p in "$TOP"/tests/mutations/*.patch; do
	n=$(basename "$p" .patch)
	if ! want=$(expect_of "$p"); then
		result "mutation $n" 1 "$want"
		continue
	fi
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
	# The named case, or one of its parameters, failed.
	awk -v w="$want" '$1 == "FAIL" && ($2 == w || index($2, w ".") == 1) \
		{ f = 1 } END { exit !f }' "$BUILD/logs/mutant-$n.out"
	result "mutation $n makes $want fail" $? "it did not (build/logs/mutant-$n.out)"
done
restore
trap - EXIT INT TERM
VARIANT=patched FLAVOR=debug "$TOP/scripts/build-kernel.sh" >/dev/null ||
	die "cannot rebuild the debug kernel after the mutations"
echo "$pass passed, $fail failed"
