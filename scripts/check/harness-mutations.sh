#!/bin/sh
# The harness's own checks can fail.  Each deliberate breakage under
# tests/harness-mutations/ is applied to a copy of the harness (scripts/,
# tests/, config/, guest/, the Makefile; README.md, docs/ and series/, which
# tests/test-readme.sh compares), the harness test
# file its "Expect-red: FILE:TEST" line names is run there, and TEST must
# turn red.  Then each splat pattern of results.py
# is deleted in turn, and the test of its sample line must turn red.
# The unbroken copy must be green first.  One result line per breakage.
set -u
. "$(dirname "$0")/../lib.sh"
pass=0 fail=0
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
copy() {
	rm -rf "$t/c" && mkdir -p "$t/c" &&
		cp -r "$TOP/scripts" "$TOP/tests" "$TOP/guest" "$TOP/config" "$TOP/docs" \
			"$TOP/Makefile" "$TOP/README.md" "$TOP/series" "$t/c/"
}
# run FILE: the copy's harness tests of tests/test-FILE.sh, into $t/out
run() {
	results_private env HARNESS_TESTS="$1" sh "$t/c/tests/run.sh" >"$t/out" 2>&1
}
# red FILE TEST: TEST of the copy's tests/test-FILE.sh is not ok
red() {
	run "$1"
	grep -Eq "^\[$1\] not ok $2( |\$)" "$t/out"
}

copy || die "cannot copy the harness to $t"
files=$({ echo parse; sed -n 's/^Expect-red: \([a-z-]*\):.*/\1/p' \
	"$TOP"/tests/harness-mutations/*.patch; } | sort -u)
for f in $files; do
	run "$f"
	result "harness-unbroken-$f" $? "tests/test-$f.sh is not green before any breakage: $(grep '^\[.*not ok' "$t/out" | head -n1)"
done

for p in "$TOP"/tests/harness-mutations/*.patch; do
	n=$(basename "$p" .patch)
	want=$(sed -n 's/^Expect-red: //p' "$p")
	case $want in
	?*:?*) ;;
	*) result "harness-mutation $n" 1 "no 'Expect-red: FILE:TEST' line"; continue ;;
	esac
	copy
	if ! (cd "$t/c" && git apply "$p"); then
		result "harness-mutation $n" 1 "does not apply"
		continue
	fi
	red "${want%%:*}" "${want#*:}"
	result "harness-mutation $n turns $want red" $? "it stayed green"
done

names=$(cd "$TOP/scripts" && python3 -c \
	'import results; print(" ".join(n for n, _ in results.SPLATS))') ||
	die "cannot list the splat patterns of results.py"
for name in $names; do
	copy
	grep -v "^    (\"$name\", r\"" "$TOP/scripts/results.py" \
		>"$t/c/scripts/results.py"
	if cmp -s "$TOP/scripts/results.py" "$t/c/scripts/results.py"; then
		result "harness-mutation splat-$name" 1 "cannot find the pattern's line in results.py"
		continue
	fi
	red parse "splat-pattern-$name"
	result "harness-mutation without splat pattern $name turns parse:splat-pattern-$name red" $? "it stayed green"
done
results_end
