#!/bin/sh
# make check: the harness's own tests, the series' review gates, and the
# debug test kernel booted with the KUnit suites and the swap kselftests.
# Ends with "N passed, N failed" over every check, KUnit case and
# kselftest case; a skip counts as a failure (our config enables all).
set -u
. "$(dirname "$0")/lib.sh"
: "${GUEST_TESTS:=sanity,vmtests-swap}"
: "${SELFTESTS:=swapoff swap_devices}"
export SELFTESTS
pass=0 fail=0
t_start=$(date +%s)
mkdir -p "$BUILD/logs"

say "installing dependencies"
"$TOP/scripts/deps.sh" || die "cannot install the build dependencies"

say "harness tests"
"$TOP/tests/run.sh" | tee "$BUILD/logs/check-harness.log"
count "$BUILD/logs/check-harness.log" harness

say "series gates"
"$TOP/scripts/gates.sh" | tee "$BUILD/logs/check-gates.log"
count "$BUILD/logs/check-gates.log" gates

say "KUnit as mm/tests/.kunitconfig documents it: kunit.py on UML (no THP_SWAP)"
"$TOP/scripts/kunit-uml.sh" | tee "$BUILD/logs/check-kunit-uml.log"
count "$BUILD/logs/check-kunit-uml.log" kunit-uml

say "test kernel"
kernel=$(VARIANT=patched FLAVOR=debug "$TOP/scripts/build-kernel.sh" | tail -n1)
if [ ! -r "$kernel" ]; then
	result build-debug-kernel 1 "the patched debug kernel did not build"
else
	result build-debug-kernel 0
	src=$(lastline "$TOP/scripts/tree.sh" work 2>/dev/null)
	# The guest's swap drivers are as the selftests' own config has them,
	# brd at its default size: the tests must load what they use.
	want=$(grep -E '^CONFIG_(SWAP|ZRAM|BLK_DEV_RAM)=' "$src/tools/testing/selftests/mm/config" 2>/dev/null)
	lost=$(printf '%s\nCONFIG_BLK_DEV_RAM_SIZE=4096\n' "$want" |
		grep -vxF -f "${kernel%/arch/*}/.config")
	[ -n "$want" ] && [ -z "$lost" ]
	result selftests-config $? "the test kernel lacks $lost (or $src has no selftests config)"
	# About 650 s here (the kselftests' own timeouts are larger): room
	# for a slower host.
	SRC=$src STRICT_SKIP=1 TIMEOUT=${GUEST_TIMEOUT:-1500} \
		"$TOP/scripts/run-vm.sh" "$kernel" "$GUEST_TESTS" check-guest |
		tee "$BUILD/logs/check-guest.log"
	count "$BUILD/logs/check-guest.log" guest

	say "device selection with 4 vCPUs on 2 host cores (function, not timing)"
	SRC=$src SMP=4 STRICT_SKIP=1 TIMEOUT=${GUEST_TIMEOUT:-1500} \
		"$TOP/scripts/run-vm.sh" "$kernel" swap_devices check-guest-4cpu |
		tee "$BUILD/logs/check-guest-4cpu.log"
	count "$BUILD/logs/check-guest-4cpu.log" guest-4cpu

	say "swapon/swapoff errors on bad input: the base kernel side by side"
	errnos() { tr -d '\r' <"$1" | sed -n 's/.*:bad_input:\(.*: [0-9][0-9]* (.*)\)$/\1/p'; }
	kb=$(VARIANT=base FLAVOR=plain lastline "$TOP/scripts/build-kernel.sh")
	if [ -r "$kb" ] && SRC=$src STRICT_SKIP=1 "$TOP/scripts/run-vm.sh" "$kb" bad-input \
		check-errno-base >"$BUILD/logs/check-errno-base.out" 2>&1; then
		errnos "$BUILD/logs/check-errno-base.results.log" >"$BUILD/logs/errno-base.txt"
		errnos "$BUILD/logs/check-guest.results.log" >"$BUILD/logs/errno-patched.txt"
		[ -s "$BUILD/logs/errno-base.txt" ] &&
			cmp -s "$BUILD/logs/errno-base.txt" "$BUILD/logs/errno-patched.txt"
		result errno-same-as-base $? "build/logs/errno-base.txt and errno-patched.txt differ or are empty"
	else
		result errno-same-as-base 1 "the base kernel did not build or boot (see build/logs/check-errno-base.*)"
	fi

	say "bisectability: every prefix builds what it touches, W=1"
	"$TOP/scripts/prefix-build.sh" | tee "$BUILD/logs/check-prefix.log"
	count "$BUILD/logs/check-prefix.log" prefix-build

	# The runner itself, against real splats and a real hang.
	for c in WARNING:'splat .*(WARNING|cut here)' EXCEPTION:'splat .*(Oops|BUG)' \
		READ_AFTER_FREE:'splat .*KASAN' HUNG_TASK:'timed out after'; do
		t=${c%%:*} want=${c#*:}
		SELFTESTS= TIMEOUT=${HANG_TIMEOUT:-60} "$TOP/scripts/run-vm.sh" "$kernel" "lkdtm-$t" \
			"runner-$t" >"$BUILD/logs/runner-$t.out" 2>&1
		rc=$?
		if [ "$rc" -ne 0 ] && grep -Eq "$want" "$BUILD/logs/runner-$t.out"; then
			result "runner-detects-$t" 0
		else
			result "runner-detects-$t" 1 "exit $rc, no '$want' in build/logs/runner-$t.out"
		fi
	done
fi

say "the series with CONFIG_SWAP=n"
k0=$(VARIANT=patched FLAVOR=noswap "$TOP/scripts/build-kernel.sh" | tail -n1)
[ -r "$k0" ]
result build-swap-n $? "the series does not build with CONFIG_SWAP=n (see build/logs/build-x86_64-patched-noswap.log)"

if [ "${CHECK_FULL:-}" = 1 ]; then
	say "check-full: deliberate breakages must fail KUnit cases"
	"$TOP/scripts/mutations.sh" | tee "$BUILD/logs/check-mutations.log"
	count "$BUILD/logs/check-mutations.log" mutations

	say "check-full: deliberate breakages of the harness must turn its tests red"
	"$TOP/scripts/harness-mutations.sh" | tee "$BUILD/logs/check-harness-mutations.log"
	count "$BUILD/logs/check-harness-mutations.log" harness-mutations

	say "check-full: every prefix of the series boots and passes its tests"
	"$TOP/scripts/prefix-boot.sh" | tee "$BUILD/logs/check-prefix-boot.log"
	count "$BUILD/logs/check-prefix-boot.log" prefix-boot

	# debug_guest PROGRAM TIMEOUT: one of our guest programs on the debug
	# kernel, as build/logs/check-PROGRAM.*.
	debug_guest() {
		[ -r "$kernel" ] || return 0
		SELFTESTS= STRICT_SKIP=1 TIMEOUT=$2 \
			"$TOP/scripts/run-vm.sh" "$kernel" "$1" "check-$1" |
			tee "$BUILD/logs/check-$1.log"
		count "$BUILD/logs/check-$1.log" "$1"
	}
	say "check-full: a bounded stress run on the debug kernel"
	debug_guest stress "${STRESS_TIMEOUT:-1200}"

	say "check-full: every allocation of swapon and swapoff failing in turn (fail-nth)"
	debug_guest faultinj "${FAULTINJ_TIMEOUT:-1800}"

	say "check-full: hibernation round trip, base and patched (image write timed)"
	"$TOP/scripts/hibernate.sh" | tee "$BUILD/logs/check-hibernate.log"
	count "$BUILD/logs/check-hibernate.log" hibernate

	say "check-full: i386 and arm64 (arm64 boots the KUnit suites and kselftests)"
	"$TOP/scripts/cross.sh" | tee "$BUILD/logs/check-cross.log"
	count "$BUILD/logs/check-cross.log" cross

	say "check-full: sparse, clang, and gcc W=1 for arm64 and i386 on the touched files"
	"$TOP/scripts/compilers.sh" | tee "$BUILD/logs/check-compilers.log"
	count "$BUILD/logs/check-compilers.log" compilers

	say "check-full: the base commit is the same when derived again from scratch"
	set -- $("$TOP/scripts/fetch-base.sh" 2>/dev/null)
	deb=$(ls "$SWAPQ_CACHE"/apt/*.deb 2>/dev/null | head -n1)
	if [ -z "${KERNEL_SRC:-}" ] && [ -n "$deb" ]; then
		d=$(mktemp -d)
		mkdir -p "$d/apt" && cp "$deb" "$d/apt/"
		again=$(SWAPQ_CACHE=$d HOME=$d GIT_AUTHOR_NAME=other GIT_COMMITTER_NAME=other \
			"$TOP/scripts/fetch-base.sh" 2>/dev/null | cut -d' ' -f2)
		rm -rf "$d"
		[ "$again" = "$2" ]
		result base-commit-deterministic $? "derived $again, cached $2"
	else
		echo "# skip base-commit-deterministic: ${KERNEL_SRC:+KERNEL_SRC is a tree of the user's, not derived}${KERNEL_SRC:-no cached Debian package}"
	fi

	say "check-full: the KCSAN kernel"
	kk=$(VARIANT=patched FLAVOR=kcsan "$TOP/scripts/build-kernel.sh" | tail -n1)
	if [ -r "$kk" ]; then
		src=$(lastline "$TOP/scripts/tree.sh" work 2>/dev/null)
		SRC=$src STRICT_SKIP=1 "$TOP/scripts/run-vm.sh" "$kk" "$GUEST_TESTS" check-kcsan |
			tee "$BUILD/logs/check-kcsan.log"
		count "$BUILD/logs/check-kcsan.log" kcsan
	else
		result build-kcsan-kernel 1 "the patched KCSAN kernel did not build"
	fi
fi

say "make check took $(($(date +%s) - t_start)) s"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
