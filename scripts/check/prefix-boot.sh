#!/bin/sh
# Every prefix of the series boots and passes the tests it has: for each
# patch N of series/ (after the prerequisites), the debug kernel (KASAN,
# lockdep, DEBUG_VM) of base + prerequisites + patches 1..N boots and runs
# the KUnit suites and kselftests that prefix contains; the suites must
# pass, not skip.  The series puts its tests first (TESTS_FIRST=4: after
# TESTS_PREP=1 patch they need, which keeps the hibernation lookups off
# KUnit's devices, the cluster KUnit suite, the swapoff and the
# swap_devices kselftests), so the first prefixes show what the base does
# before any allocator patch changes it.
# The kselftests run whole up to prefix TESTS_FIRST (base + tests: they
# pass before any allocator patch); the later prefixes run the quick cases
# of guest/tests/quick-* (data kept, spread, swapoff under load, bad
# input), as the whole series runs every case in the guest stage: here
# base + tests took 2420 s in the guest with every case (debug kernel,
# QEMU TCG), the quick cases 668 s at prefix 4.
# Under make check-full each prefix is a part of the stage (lib.sh): a
# resumed run goes on from the prefix it was cut short in.
#   PREFIXES="1 2 ..."  which prefixes (default: every one)
#   FULL_PREFIXES="..."  which run every kselftest case (default: 1 to
#   TESTS_FIRST)
#   PREFIX_TIMEOUT  the guest's hang guard (default: GUEST_TIMEOUT)
set -u
. "$(dirname "$0")/../lib.sh"
: "${TESTS_FIRST:=4}"
: "${TESTS_PREP:=1}"
: "${FULL_PREFIXES:=$(seq 1 "$TESTS_FIRST")}"
: "${PREFIX_TIMEOUT:=$GUEST_TIMEOUT}"
pass=0 fail=0
arch_load
work_tree 2>/dev/null || die "no work tree"
work=$WORK
from=$("$TOP/scripts/kernel/tree.sh" prereq-tip) || die "no work tree"
total=$(git -C "$work" rev-list --count "$from..HEAD")
[ "$total" -gt 0 ] || die "the series has no patches"
: "${PREFIXES:=$(seq 1 "$total")}"

# The tests come first: after the TESTS_PREP patches they need, the
# patches up to TESTS_FIRST add tests only.
sha=$(series_commit "$work" "$TESTS_FIRST")
[ -n "$sha" ] || die "the series has no patch $TESTS_FIRST"
subjects=$(git -C "$work" log --reverse --format=%s "$from..$sha" | tail -n +$((TESTS_PREP + 1)))
[ -n "$subjects" ] && ! printf '%s\n' "$subjects" | grep -vqiE 'kunit|selftests'
result tests-first-order $? "patches $((TESTS_PREP + 1)) to $TESTS_FIRST are not all tests: $(printf '%s' "$subjects" | tr '\n' ';')"

# in_tree SHA PATH PATTERN: the file at SHA has PATTERN.
in_tree() {
	git -C "$work" show "$1:$2" 2>/dev/null | grep -q -- "$3"
}

for n in $PREFIXES; do
	part "$n" || continue
	sha=$(series_commit "$work" "$n")
	[ -n "$sha" ] || { result "prefix-$n" 1 "the series has no patch $n"; continue; }
	say "prefix $n/$total: $(git -C "$work" log -1 --format=%s "$sha")"
	quick=quick-
	case " $(echo $FULL_PREFIXES) " in *" $n "*) quick= ;; esac
	tests=sanity selftests=
	for t in $SERIES_SELFTESTS; do
		git -C "$work" cat-file -e "$sha:tools/testing/selftests/mm/$t.c" 2>/dev/null || continue
		# A kselftest without quick cases runs whole.
		q=$quick
		[ -x "$TOP/guest/tests/$q$t" ] || q=
		tests="$tests,$q$t" selftests="$selftests $t"
	done
	prefix_kernel "$work" "$sha" prefix-boot debug
	k=$built_image
	if [ ! -r "$k" ]; then
		result "prefix-$n-build" 1 "the debug kernel at patch $n did not build (see build/logs/build-$ARCH-prefix-boot-debug.log)"
		continue
	fi
	log=$BUILD/logs/prefix-$n
	SRC=$BUILD/prefix-boot SELFTESTS=$selftests STRICT_SKIP=1 \
		TIMEOUT="$PREFIX_TIMEOUT" \
		"$TOP/scripts/kernel/boot.sh" "$k" "$tests" "prefix-$n" >"$log.out" 2>&1
	results_of "prefix-$n" $? "$log.out"
	# Each case a quick test names ran and passed (a name the kselftest
	# lacks would select nothing).
	cases_passed "$log.results.log" "prefix-$n" "$tests"
	# Each KUnit suite of this prefix ran and passed (a suite that is
	# missing from the console did not run at all).
	for suite in swap_cluster swap_queue; do
		in_tree "$sha" mm/tests/swapfile_kunit.h "\.name = \"$suite\"" || continue
		tr -d '\r' <"$log.console.log" |
			grep -Eq "(^|\] )ok [0-9]+ $suite[[:space:]]*\$"
		result "prefix-$n-$suite-suite" $? "the $suite suite did not pass at patch $n (see $log.*)"
	done
	part_done
done
results_end
