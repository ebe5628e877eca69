#!/bin/sh
# Run the harness's own tests (tests/test-*.sh); print each result and a
# closing "N passed, N failed".  HARNESS_TESTS="parse gates" selects some
# (not TESTS: make passes its own TESTS, the guest tests, down to us).
cd "$(dirname "$0")" || exit 1
pass=0 fail=0
for t in ${HARNESS_TESTS:-$(ls test-*.sh | sed 's/^test-//; s/\.sh$//')}; do
	out=$(sh "./test-$t.sh" 2>&1)
	rc=$?
	printf '%s\n' "$out" | grep -E '^(not )?ok ' | sed "s/^/[$t] /"
	p=$(printf '%s\n' "$out" | grep -c '^ok ')
	f=$(printf '%s\n' "$out" | grep -c '^not ok ')
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		echo "[$t] not ok $t - exited $rc: $(printf '%s\n' "$out" | tail -n 2 | tr '\n' ' ')"
		f=1
	fi
	if [ "$p" -eq 0 ] && [ "$f" -eq 0 ]; then
		echo "[$t] not ok $t - no result"
		f=1
	fi
	pass=$((pass + p))
	fail=$((fail + f))
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
