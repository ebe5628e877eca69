#!/bin/sh
# The KUnit cases and guest tests can fail: apply each deliberate breakage
# under tests/mutations/ to the work tree, rebuild the debug kernel (an
# incremental build of the file it touches), boot it, and expect the case
# named in the patch's "Expect-fail:" line to fail: kunit:SUITE.CASE, or
# PROG:CASE for a program of guest/tests or one of the kselftests in
# $SELFTESTS (booted with that program).  The work tree is put back and
# the kernel rebuilt afterwards.  One result line per breakage.
#   MUTATIONS="NAME..."           only these breakages
#   mutations.sh --headers [DIR]  only check each patch's header: exactly
#                                 one well-formed "Expect-fail:" line
set -u
. "$(dirname "$0")/../lib.sh"
: "${SELFTESTS:=$SERIES_SELFTESTS}"
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
	_prog=${_w%%:*}
	if printf '%s\n' "$_w" | grep -Eqx 'kunit:[A-Za-z0-9_]+\.[A-Za-z0-9_.-]+'; then
		:
	elif ! printf '%s\n' "$_w" | grep -Eqx '[a-z0-9_-]+:[A-Za-z0-9_.-]+' ||
		{ [ ! -e "$TOP/guest/tests/$_prog" ] && [ ! -e "$TOP/guest/tests/$_prog.c" ] &&
			! echo " $SELFTESTS " | grep -q " $_prog "; }; then
		echo "Expect-fail: '$_w' is not kunit:SUITE.CASE or PROG:CASE (guest/tests, SELFTESTS)"
		return 1
	fi
	echo "$_w"
}

if [ "${1:-}" = --headers ]; then
	for p in "${2:-$TOP/tests/mutations}"/*.patch; do
		why=$(expect_of "$p")
		result "mutation-header $(basename "$p" .patch)" $? "$why"
	done
	results_end
	exit
fi

work_tree || die "no work tree"
work=$WORK
restore() {
	git -C "$work" checkout -q -- . 2>/dev/null
}
# Stopped, put the tree back and stop (a restore alone would go on to
# the next mutation and leave it applied when the SIGKILL comes).
trap restore EXIT
trap 'restore; exit 130' INT TERM HUP
for p in "$TOP"/tests/mutations/*.patch; do
	n=$(basename "$p" .patch)
	# MUTATIONS="a b": only those (names without .patch).
	case " ${MUTATIONS:-$n} " in *" $n "*) ;; *) continue ;; esac
	if ! want=$(expect_of "$p"); then
		result "mutation $n" 1 "$want"
		continue
	fi
	restore
	if ! git -C "$work" apply "$p"; then
		result "mutation $n" 1 "does not apply"
		continue
	fi
	build_kernel mutant debug SRC_TREE="$work" OBJ_NAME=patched
	k=$built_image
	if [ ! -r "$k" ]; then
		result "mutation $n" 1 "build failed"
		continue
	fi
	# KUnit runs at boot; a guest program case boots that program.
	prog=${want%%:*} limit=1800 st=
	[ "$prog" = kunit ] && prog=sanity limit=300
	# A quick-NAME program of guest/tests runs cases of the kselftest NAME.
	[ -f "$work/tools/testing/selftests/mm/${prog#quick-}.c" ] && st=${prog#quick-}
	results_private env SRC="$work" SELFTESTS="$st" TIMEOUT=$limit \
		"$TOP/scripts/kernel/boot.sh" "$k" "$prog" "mutant-$n" \
		>"$BUILD/logs/mutant-$n.out" 2>&1
	# The named case, or one of its parameters, failed.
	awk -v w="$want" '$1 == "FAIL" && ($2 == w || index($2, w ".") == 1) \
		{ f = 1 } END { exit !f }' "$BUILD/logs/mutant-$n.out"
	result "mutation $n makes $want fail" $? "it did not (build/logs/mutant-$n.out)"
done
restore
trap - EXIT INT TERM HUP
VARIANT=patched FLAVOR=debug "$TOP/scripts/kernel/kernel.sh" >/dev/null ||
	die "cannot rebuild the debug kernel after the mutations"
results_end
