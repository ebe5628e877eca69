#!/bin/sh
# The KUnit suites run the way mm/tests/.kunitconfig tells a user to:
#   ./tools/testing/kunit/kunit.py run --kunitconfig=mm/tests
# in the work tree, on UML, whose config has no THP_SWAP (only order 0
# has cluster lists there) and no HIBERNATION.  One result line per case;
# a case skipped because it needs CONFIG_THP_SWAP or CONFIG_HIBERNATION is
# listed but not counted, any other skip fails.  Ends with "N passed, N failed".
set -u
. "$(dirname "$0")/../lib.sh"
pass=0 fail=0
work=$(lastline "$TOP/scripts/kernel/tree.sh" work 2>/dev/null) || die "no work tree"
out=$BUILD/obj/um-kunit
log=$BUILD/logs/kunit-uml.log
mkdir -p "$out" "$BUILD/logs"
use_ccache
say "kunit.py run --kunitconfig=mm/tests (UML; log: $log)"
(cd "$work" && python3 tools/testing/kunit/kunit.py run --kunitconfig=mm/tests \
	--build_dir="$out" --jobs="$(nproc)" --make_options "CC=ccache gcc") >"$log" 2>&1
rc=$?
tr -d '\r' <"$log" | sed -E 's/^\[[0-9:]+\] //' | grep -E '^\[(PASSED|FAILED|CRASHED|SKIPPED)\] ' >"$log.cases"
while IFS= read -r line; do
	st=${line%%]*}
	st=${st#[}
	rest=${line#*] }
	case $st in
	PASSED) result "kunit-uml:$rest" 0 ;;
	SKIPPED)
		case $rest in
		*"needs CONFIG_THP_SWAP"* | *"needs CONFIG_HIBERNATION"*) echo "# skip kunit-uml:$rest" ;;
		*) result "kunit-uml:$rest" 1 "skipped" ;;
		esac ;;
	*) result "kunit-uml:$rest" 1 "$st" ;;
	esac
done <"$log.cases"
summary=$(grep -E 'Testing complete\. Ran [0-9]+ tests' "$log" | sed -E 's/^\[[0-9:]+\] //')
if [ "$rc" -ne 0 ] || [ -z "$summary" ]; then
	result kunit-uml-run 1 "kunit.py exited $rc: ${summary:-no summary} (see $log)"
else
	result kunit-uml-run 0
fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
