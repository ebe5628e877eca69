#!/bin/sh
# Run the harness's own tests (tests/test-*.sh); print each result and a
# closing "N passed, N failed".  HARNESS_TESTS="parse gates" selects some
# (not TESTS: make passes its own TESTS, the guest tests, down to us).
# As a stage of make check (scripts/check/check.py) each result goes to
# $RESULTS too, as TAP ending with its plan (scripts/lib.sh); the tests
# themselves run without it: their fixtures' results are not ours.
cd "$(dirname "$0")" || exit 1
pass=0 fail=0
[ -z "${RESULTS:-}" ] || : >"$RESULTS"
# tap STATUS NAME: one line of $RESULTS, if a stage gave us one.
tap() {
	[ -n "${RESULTS:-}" ] || return 0
	echo "$1 $((pass + fail)) $2" >>"$RESULTS"
}
for t in ${HARNESS_TESTS:-$(ls test-*.sh | sed 's/^test-//; s/\.sh$//')}; do
	out=$(env -u RESULTS -u RESULTS_PID sh "./test-$t.sh" 2>&1)
	rc=$?
	lines=$(printf '%s\n' "$out" | grep -E '^(not )?ok ')
	if [ "$rc" -ne 0 ] && ! printf '%s\n' "$lines" | grep -q '^not ok '; then
		lines="$lines
not ok $t - exited $rc: $(printf '%s\n' "$out" | tail -n 2 | tr '\n' ' ')"
	fi
	printf '%s\n' "$lines" | grep -q . || lines="not ok $t - no result"
	printf '%s\n' "$lines" | while IFS= read -r l; do echo "[$t] $l"; done
	while IFS= read -r l; do
		case $l in
		"ok "*) pass=$((pass + 1)); tap ok "$t: $(printf '%s' "${l#ok }" | tr '#' _)" ;;
		"not ok "*) fail=$((fail + 1)); tap "not ok" "$t: $(printf '%s' "${l#not ok }" | sed 's/ - / # /')" ;;
		esac
	done <<EOT
$lines
EOT
done
[ -z "${RESULTS:-}" ] || echo "1..$((pass + fail))" >>"$RESULTS"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
