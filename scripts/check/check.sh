#!/bin/sh
# make check: the harness's own tests, the series' review gates, and the
# debug test kernel booted with the KUnit suites and the swap kselftests.
# Ends with "N passed, N failed" over every check, KUnit case and
# kselftest case; a skip counts as a failure (our config enables all).
set -u
. "$(dirname "$0")/../lib.sh"
: "${GUEST_TESTS:=$CHECK_TESTS}"
: "${SELFTESTS:=$SERIES_SELFTESTS}"
export SELFTESTS
pass=0 fail=0
t_start=$(date +%s)
mkdir -p "$BUILD/logs"
# RESUME=1 skips the stages this tree's runs finished (lib.sh).
STAGES=$BUILD/logs/check-stages
STAGE_ID=$(stage_id)
stage_init

say "installing dependencies"
"$TOP/scripts/kernel/deps.sh" || die "cannot install the build dependencies"

# The series first: a series that does not apply stops the run here, with
# the patch and git's cause, not stages later as a kernel that did not build.
base_tree
say "applying prereqs/ and series/ to $base_commit"
if ! src=$(lastline "$TOP/scripts/kernel/tree.sh" work 2>"$BUILD/logs/check-worktree.log"); then
	why=$(grep -m1 'error:' "$BUILD/logs/check-worktree.log" | sed 's/^[^:]*: error: //')
	echo "not ok series-applies - ${why:-see build/logs/check-worktree.log}"
	echo "0 passed, 1 failed"
	exit 1
fi

step_log harness "harness tests" "$TOP/tests/run.sh"
step_log gates "series gates" "$TOP/scripts/check/gates.sh"
step_log kunit-uml "KUnit as mm/tests/.kunitconfig documents it: kunit.py on UML (no THP_SWAP)" \
	"$TOP/scripts/check/kunit-uml.sh"

# The debug test kernel, built unless a resumed run has recorded every
# stage that boots it (a fresh machine then skips a long cold build).
booted="test-kernel guest runner"
[ "${CHECK_FULL:-}" = 1 ] && booted="$booted guest-all guest-4cpu user-machine errno stress faultinj"
kernel= recorded=1
for s in $booted; do
	[ -n "$(stage_record "$s")" ] || recorded=
done
if [ -z "$recorded" ]; then
	say "test kernel"
	kernel=$(VARIANT=patched FLAVOR=debug "$TOP/scripts/kernel/kernel.sh" | tail -n1)
fi
if stage test-kernel; then
	if [ -r "$kernel" ]; then
		result build-debug-kernel 0
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
		stage_done
	else
		result build-debug-kernel 1 "the patched debug kernel did not build"
	fi
fi
if [ -r "$kernel" ] || [ -n "$recorded" ]; then
	# The guest stage (all of SERIES_TESTS then) took 650 to 1148 s on
	# idle hosts here, 2298 and 2524 s on ones whose QEMU TCG ran about
	# half as fast, so make check runs CHECK_TESTS; the timeout is a hang
	# guard, not a speed limit.
	if stage guest; then
		say "the debug kernel: KUnit, the kselftests' cases of $GUEST_TESTS"
		SRC="$src" STRICT_SKIP=1 TIMEOUT="$GUEST_TIMEOUT" \
			"$TOP/scripts/kernel/boot.sh" "$kernel" "$GUEST_TESTS" check-guest |
			tee "$BUILD/logs/check-guest.log"
		if count "$BUILD/logs/check-guest.log" guest; then
			cases_passed "$BUILD/logs/check-guest.results.log" guest "$GUEST_TESTS"
			stage_done
		fi
	fi

	# The runner itself, against real splats and a real hang.
	if stage runner; then
		for c in WARNING:'splat .*(WARNING|cut here)' EXCEPTION:'splat .*(Oops|BUG)' \
			READ_AFTER_FREE:'splat .*KASAN' HUNG_TASK:'timed out after'; do
			t=${c%%:*} want=${c#*:}
			SELFTESTS= TIMEOUT=${HANG_TIMEOUT:-60} "$TOP/scripts/kernel/boot.sh" "$kernel" "lkdtm-$t" \
				"runner-$t" >"$BUILD/logs/runner-$t.out" 2>&1
			rc=$?
			if [ "$rc" -ne 0 ] && grep -Eq "$want" "$BUILD/logs/runner-$t.out"; then
				result "runner-detects-$t" 0
			else
				result "runner-detects-$t" 1 "exit $rc, no '$want' in build/logs/runner-$t.out"
			fi
		done
		stage_done
	fi
fi

step_log prefix "bisectability: every prefix builds what it touches, W=1" \
	"$TOP/scripts/check/prefix-build.sh"

if stage swap-n; then
	say "the series with CONFIG_SWAP=n"
	k0=$(VARIANT=patched FLAVOR=noswap "$TOP/scripts/kernel/kernel.sh" | tail -n1)
	[ -r "$k0" ]
	result build-swap-n $? "the series does not build with CONFIG_SWAP=n (see build/logs/build-x86_64-patched-noswap.log)"
	# The kselftests on it, as on a user's kernel without swap: every
	# case skips with the reason, as root and as nobody.
	if [ -r "$k0" ]; then
		SRC="$src" "$TOP/scripts/kernel/boot.sh" "$k0" user-skips check-noswap |
			tee "$BUILD/logs/check-noswap.log"
		count "$BUILD/logs/check-noswap.log" noswap && stage_done
	fi
fi

if [ "${CHECK_FULL:-}" = 1 ]; then
	# First what boots the debug kernel just built, as
	# build/logs/check-PROGRAM.*; then the stages that build their own.
	if [ -r "$kernel" ] || [ -n "$recorded" ]; then
		all_resumed=$(stage_record guest-all)
		step_log guest-all "check-full: the debug kernel, every kselftest case (run_vmtests.sh)" \
			env SRC="$src" STRICT_SKIP=1 TIMEOUT="$GUEST_TIMEOUT" \
			"$TOP/scripts/kernel/boot.sh" "$kernel" "$SERIES_TESTS" check-guest-all

		step_log guest-4cpu "device selection with 4 vCPUs on 2 host cores (function, not timing)" \
			env SRC="$src" SMP=4 STRICT_SKIP=1 TIMEOUT="$GUEST_TIMEOUT" \
			"$TOP/scripts/kernel/boot.sh" "$kernel" swap_devices check-guest-4cpu

		# Five runs of run_vmtests.sh -t swap, four of them whole or
		# nearly (the last through run_kselftest.sh): three times the
		# hang guard of one.
		step_log user-machine "the kselftests beside the machine's own swap, stopped half way and run again" \
			env SRC="$src" STRICT_SKIP=1 TIMEOUT=$((GUEST_TIMEOUT * 3)) \
			"$TOP/scripts/kernel/boot.sh" "$kernel" "$USER_TESTS" check-user-machine

		errnos() { tr -d '\r' <"$1" | sed -n 's/.*:bad_input:\(.*: [0-9][0-9]* (.*)\)$/\1/p'; }
		if stage errno; then
			say "swapon/swapoff errors on bad input: the base kernel side by side"
			kb=$(VARIANT=base FLAVOR=plain lastline "$TOP/scripts/kernel/kernel.sh")
			if [ -r "$kb" ] && SRC=$src STRICT_SKIP=1 "$TOP/scripts/kernel/boot.sh" "$kb" bad-input \
				check-errno-base >"$BUILD/logs/check-errno-base.out" 2>&1; then
				errnos "$BUILD/logs/check-errno-base.results.log" >"$BUILD/logs/errno-base.txt"
				# The patched kernel's errnos, from this run's guest-all
				# stage, or from a boot of their own when it was resumed.
				pr=$BUILD/logs/check-guest-all.results.log
				if [ -n "$all_resumed" ]; then
					SRC=$src STRICT_SKIP=1 "$TOP/scripts/kernel/boot.sh" "$kernel" bad-input \
						check-errno-patched >"$BUILD/logs/check-errno-patched.out" 2>&1
					pr=$BUILD/logs/check-errno-patched.results.log
				fi
				errnos "$pr" >"$BUILD/logs/errno-patched.txt"
				[ -s "$BUILD/logs/errno-base.txt" ] &&
					cmp -s "$BUILD/logs/errno-base.txt" "$BUILD/logs/errno-patched.txt"
				result errno-same-as-base $? "build/logs/errno-base.txt and errno-patched.txt differ or are empty"
			else
				result errno-same-as-base 1 "the base kernel did not build or boot (see build/logs/check-errno-base.*)"
			fi
			stage_done
		fi

		step_log stress "check-full: a bounded stress run on the debug kernel" \
			env SELFTESTS= STRICT_SKIP=1 TIMEOUT="${STRESS_TIMEOUT:-1200}" \
			"$TOP/scripts/kernel/boot.sh" "$kernel" stress check-stress
		step_log faultinj "check-full: every allocation of swapon and swapoff failing in turn (fail-nth)" \
			env SELFTESTS= STRICT_SKIP=1 TIMEOUT="${FAULTINJ_TIMEOUT:-1800}" \
			"$TOP/scripts/kernel/boot.sh" "$kernel" faultinj check-faultinj
	fi
	step_log mutations "check-full: deliberate breakages must fail KUnit cases" \
		"$TOP/scripts/check/mutations.sh"
	step_log harness-mutations "check-full: deliberate breakages of the harness must turn its tests red" \
		"$TOP/scripts/check/harness-mutations.sh"

	kk= kcsan_recorded=$(stage_record kcsan)
	if [ -z "$kcsan_recorded" ]; then
		say "check-full: the KCSAN kernel"
		kk=$(VARIANT=patched FLAVOR=kcsan "$TOP/scripts/kernel/kernel.sh" | tail -n1)
	fi
	if [ -r "$kk" ] || [ -n "$kcsan_recorded" ]; then
		step_log kcsan "the KCSAN kernel: KUnit, every kselftest case through run_vmtests.sh -t swap" \
			env SRC="$src" STRICT_SKIP=1 TIMEOUT="$GUEST_TIMEOUT" \
			"$TOP/scripts/kernel/boot.sh" "$kk" "$SERIES_TESTS" check-kcsan
	else
		result build-kcsan-kernel 1 "the patched KCSAN kernel did not build"
	fi
	step_log prefix-boot "check-full: every prefix of the series boots and passes its tests" \
		"$TOP/scripts/check/prefix-boot.sh"
	step_log hibernate "check-full: hibernation round trip, base and patched (image write timed)" \
		"$TOP/scripts/check/hibernate.sh"
	step_log cross "check-full: i386 and arm64 (arm64 boots the KUnit suites and kselftests)" \
		"$TOP/scripts/check/cross.sh"
	step_log compilers "check-full: sparse, clang, and gcc W=1 for arm64 and i386 on the touched files" \
		"$TOP/scripts/check/compilers.sh"

	if stage base-again; then
		say "check-full: the base commit is the same when derived again from scratch"
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
			echo "# skip base-commit-deterministic: KERNEL_SRC is a tree of the user's, not derived"
		else
			echo "# skip base-commit-deterministic: no cached Debian package"
		fi
		stage_done
	fi

fi

say "make check took $(($(date +%s) - t_start)) s"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
