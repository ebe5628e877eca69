#!/bin/sh
# stage.sh NAME: the stages of make check that are no script of their own
# (scripts/check/stages.py names them).  Each writes its results to
# $RESULTS (lib.sh) and ends with results_end.  The test kernels a stage
# boots were built before it by check.py: kernel_image finds them.
set -u
. "$(dirname "$0")/../lib.sh"
[ $# -eq 1 ] || die "usage: stage.sh NAME"
pass=0 fail=0
mkdir -p "$BUILD/logs"
: "${GUEST_TESTS:=$CHECK_TESTS}"
: "${SELFTESTS:=$SERIES_SELFTESTS}"
export SELFTESTS
arch_load
kernel=$(kernel_image patched debug)
[ "$1" = series ] || work_tree 2>/dev/null || die "no work tree: the series stage did not run"
src=$WORK

# guest NAME TESTS [VAR=VALUE...]: the debug kernel boots and runs TESTS,
# logs as build/logs/check-NAME.*; its cases go to $RESULTS.
guest() {
	_n=$1 _t=$2
	shift 2
	if [ ! -r "$kernel" ]; then
		result "$_n-boots" 1 "no debug kernel at $kernel"
		return
	fi
	env SRC="$src" STRICT_SKIP=1 TIMEOUT="$GUEST_TIMEOUT" "$@" \
		"$TOP/scripts/kernel/boot.sh" "$kernel" "$_t" "check-$_n"
}

case $1 in
series)
	# The series first: one that does not apply stops the run here,
	# with the patch and git's cause, not stages later as a kernel that
	# did not build.
	"$TOP/scripts/kernel/deps.sh" || die "cannot install the build dependencies"
	base_tree
	say "applying prereqs/ and series/ to $base_commit"
	if "$TOP/scripts/kernel/tree.sh" work >/dev/null 2>"$BUILD/logs/check-worktree.log"; then
		result series-applies 0
	else
		why=$(grep -m1 'error:' "$BUILD/logs/check-worktree.log" | sed 's/^[^:]*: error: //')
		result series-applies 1 "${why:-see build/logs/check-worktree.log}"
	fi
	;;
test-kernel)
	[ -r "$kernel" ]
	result build-debug-kernel $? "the patched debug kernel did not build (see build/logs/build-$ARCH-patched-debug.log)"
	if [ -r "$kernel" ]; then
		# The guest's swap drivers are as the selftests' own config has
		# them, brd at its default size: the tests must load what they use.
		want=$(grep -E '^CONFIG_(SWAP|ZRAM|BLK_DEV_RAM)=' "$src/tools/testing/selftests/mm/config" 2>/dev/null)
		lost=$(printf '%s\nCONFIG_BLK_DEV_RAM_SIZE=4096\n' "$want" |
			grep -vxF -f "${kernel%/arch/*}/.config")
		[ -n "$want" ] && [ -z "$lost" ]
		result selftests-config $? "the test kernel lacks $lost (or $src has no selftests config)"
		# The accelerator the guests get, probed afresh with this kernel:
		# KVM where a boot under it finishes here, TCG with the reason.
		pi=$BUILD/initramfs-probe.cpio.gz
		v=$(SELFTESTS= MODULES= "$TOP/scripts/kernel/initramfs.sh" "$pi" &&
			sh -c '. "$TOP/scripts/lib.sh"; arch_load; PROBE=1 accel_probe "$1" "$2"
			echo "$accel: $accel_why"' sh "$kernel" "$pi")
		echo "# accelerator: $v"
		case $v in kvm:* | "tcg: "?*) true ;; *) false ;; esac
		result accel-probe $? "the KVM probe gave no verdict"
	fi
	;;
guest)
	# The guest stage (all of SERIES_TESTS then) took 650 to 1148 s on
	# idle hosts here, 2298 and 2524 s on ones whose QEMU TCG ran about
	# half as fast, so make check runs CHECK_TESTS; the timeout is a hang
	# guard, not a speed limit.
	say "the debug kernel: KUnit, the kselftests' cases of $GUEST_TESTS"
	guest guest "$GUEST_TESTS"
	cases_passed "$BUILD/logs/check-guest.results.log" guest "$GUEST_TESTS"
	;;
runner)
	# The runner itself, against real splats and a real hang: these
	# boots must fail, and their results are not ours.
	for c in WARNING:'splat .*(WARNING|cut here)' EXCEPTION:'splat .*(Oops|BUG)' \
		READ_AFTER_FREE:'splat .*KASAN' HUNG_TASK:'timed out after'; do
		t=${c%%:*} want=${c#*:}
		results_private env SELFTESTS= TIMEOUT="${HANG_TIMEOUT:-60}" \
			"$TOP/scripts/kernel/boot.sh" "$kernel" "lkdtm-$t" \
			"runner-$t" >"$BUILD/logs/runner-$t.out" 2>&1
		rc=$?
		[ "$rc" -ne 0 ] && grep -Eq "$want" "$BUILD/logs/runner-$t.out"
		result "runner-detects-$t" $? "exit $rc, no '$want' in build/logs/runner-$t.out"
	done
	;;
swap-n)
	k0=$(kernel_image patched noswap)
	[ -r "$k0" ]
	result build-swap-n $? "the series does not build with CONFIG_SWAP=n (see build/logs/build-$ARCH-patched-noswap.log)"
	# The kselftests on it, as on a user's kernel without swap: every
	# case skips with the reason, as root and as nobody.
	[ ! -r "$k0" ] || SRC="$src" "$TOP/scripts/kernel/boot.sh" "$k0" user-skips check-noswap
	;;
guest-all)
	guest guest-all "$SERIES_TESTS"
	;;
guest-4cpu)
	guest guest-4cpu swap_devices SMP=4
	;;
user-machine)
	# Five runs of run_vmtests.sh -t swap, four of them whole or nearly
	# (the last through run_kselftest.sh): three times the hang guard
	# of one.
	guest user-machine "$USER_TESTS" TIMEOUT=$((GUEST_TIMEOUT * 3))
	;;
errno)
	# The errnos of every bad input, the base kernel's and ours.
	kb=$(kernel_image base plain)
	errnos() { tr -d '\r' <"$1" | sed -n 's/.*:bad_input:\(.*: [0-9][0-9]* (.*)\)$/\1/p'; }
	for v in base patched; do
		case $v in base) k=$kb ;; *) k=$kernel ;; esac
		if [ -r "$k" ]; then
			results_private env SRC="$src" STRICT_SKIP=1 "$TOP/scripts/kernel/boot.sh" "$k" \
				bad-input "check-errno-$v" >"$BUILD/logs/check-errno-$v.out" 2>&1
		fi
		errnos "$BUILD/logs/check-errno-$v.results.log" >"$BUILD/logs/errno-$v.txt" 2>/dev/null
	done
	[ -s "$BUILD/logs/errno-base.txt" ] &&
		cmp -s "$BUILD/logs/errno-base.txt" "$BUILD/logs/errno-patched.txt"
	result errno-same-as-base $? "build/logs/errno-base.txt and errno-patched.txt differ or are empty (see build/logs/check-errno-*)"
	;;
stress)
	guest stress stress SELFTESTS= TIMEOUT="${STRESS_TIMEOUT:-1200}"
	;;
faultinj)
	guest faultinj faultinj SELFTESTS= TIMEOUT="${FAULTINJ_TIMEOUT:-1800}"
	;;
kcsan)
	kernel=$(kernel_image patched kcsan)
	guest kcsan "$SERIES_TESTS"
	;;
base-again)
	base_tree
	deb=$(ls "$SWAPQ_CACHE"/apt/*.deb 2>/dev/null | head -n1)
	if [ -z "${KERNEL_SRC:-}" ] && [ -n "$deb" ]; then
		d=$(mktemp -d)
		mkdir -p "$d/apt" && cp "$deb" "$d/apt/"
		again=$(SWAPQ_CACHE=$d HOME=$d GIT_AUTHOR_NAME=other GIT_COMMITTER_NAME=other \
			"$TOP/scripts/kernel/base.sh" 2>/dev/null | cut -d' ' -f2)
		rm -rf "$d"
		[ "$again" = "$base_commit" ]
		result base-commit-deterministic $? "derived $again, cached $base_commit"
	elif [ -n "${KERNEL_SRC:-}" ]; then
		results_skip base-commit-deterministic "KERNEL_SRC is a tree of the user's, not derived"
	else
		result base-commit-deterministic 1 "no cached Debian package to derive the base from again"
	fi
	;;
*)
	die "no stage '$1' (scripts/check/stages.py names them)"
	;;
esac
results_end
