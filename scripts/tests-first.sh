#!/bin/sh
# The tests come first: on the base, the prerequisites and only the
# series' leading test patches (TESTS_FIRST=2: the cluster KUnit suite and
# the swapoff kselftest), the debug kernel passes them, so that they show
# what the base does before any allocator patch changes it.  The same
# tests then run on the whole series in make check.
set -u
. "$(dirname "$0")/lib.sh"
: "${TESTS_FIRST:=2}"
pass=0 fail=0
work=$(lastline "$TOP/scripts/tree.sh" work 2>/dev/null) || die "no work tree"
from=$(lastline "$TOP/scripts/tree.sh" prereq-tip) || die "no work tree"
sha=$(series_commit "$work" "$TESTS_FIRST")
[ -n "$sha" ] || die "the series has no patch $TESTS_FIRST"
git -C "$work" log --format=%s "$from..$sha" | grep -vqiE 'kunit|selftests' &&
	die "the first $TESTS_FIRST patches are not all tests: $(git -C "$work" log --format=%s "$from..$sha" | tr '\n' ';')"
st=$BUILD/tests-first
k=$(prefix_kernel "$work" "$sha" tests-first debug)
if [ ! -r "$k" ]; then
	result build-tests-first 1 "the debug kernel at $sha did not build"
else
	SRC=$st SELFTESTS=swapoff STRICT_SKIP=1 "$TOP/scripts/run-vm.sh" "$k" \
		sanity,swapoff tests-first >"$BUILD/logs/tests-first.out" 2>&1
	grep -E '^FAIL |passed, ' "$BUILD/logs/tests-first.out" | sed 's/^/# /'
	count "$BUILD/logs/tests-first.out" tests-first
	tr -d '\r' <"$BUILD/logs/tests-first.console.log" |
		grep -Eq '(^|\] )ok [0-9]+ swap_cluster[[:space:]]*$'
	result tests-first-swap_cluster-suite $? "the swap_cluster suite did not pass (see build/logs/tests-first.*)"
fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
