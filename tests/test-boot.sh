#!/bin/sh
# make boot fits what it boots: the flavour make kernel built last unless
# one is said, and a hang guard that follows the tests and the kernel.
. "$(dirname "$0")/lib.sh"
. "$TOP/scripts/lib.sh"
printf 'CONFIG_KASAN=y\n' >"$T/debug.config"
printf 'CONFIG_SWAP=y\n' >"$T/plain.config"
got="$(guest_timeout sanity "$T/debug.config") $(guest_timeout sanity,lkdtm-WARNING "$T/plain.config")"
got="$got $(guest_timeout sanity,vmtests-swap "$T/debug.config") $(guest_timeout swapoff "$T/plain.config")"
expect_eq boot-timeout-follows-tests-and-kernel "$got" "600 600 $GUEST_TIMEOUT $((GUEST_TIMEOUT / 3))"

# The guest gets a user's install of the mm selftests when, and only
# when, user-install is among its tests.
got="$(ksft_install_for user-install)|$(ksft_install_for sanity,user-install,kunit-live)"
got="$got|$(ksft_install_for sanity,user-own-swap)|$(ksft_install_for user-installer)"
expect_eq boot-installs-selftests-for-user-install "$got" "1|1||"

# The recipes make would run (make -n): the kernel they build, "VARIANT
# FLAVOR".
flavor_of() {
	make -s -n -C "$TOP" BUILD="$T/build" "$@" 2>/dev/null |
		sed -n 's/.*build_kernel \([a-z]*\) \([a-z]*\) .*/\1 \2/p' | head -n1
}
mkdir -p "$T/build"
expect_eq boot-plain-when-nothing-built "$(flavor_of boot)" "patched plain"
echo debug >"$T/build/last-flavor-patched-x86_64"
expect_eq boot-the-flavour-built-last "$(flavor_of boot)" "patched debug"
expect_eq boot-the-flavour-said "$(flavor_of boot KCSAN=1)" "patched kcsan"
expect_eq boot-base-has-its-own "$(flavor_of boot VARIANT=base)" "base plain"
expect_eq kernel-plain-unless-said "$(flavor_of kernel)" "patched plain"
expect_eq kernel-debug-said "$(flavor_of kernel DEBUG=1)" "patched debug"
if make -s -n -C "$TOP" BUILD="$T/build" kernel DEBUG=1 2>/dev/null |
	grep -q "echo debug >$T/build/last-flavor-patched-x86_64"; then
	ok kernel-records-its-flavour
else
	notok kernel-records-its-flavour "$(make -s -n -C "$TOP" BUILD="$T/build" kernel DEBUG=1 2>&1 | tail -n 2)"
fi

# Under TCG the swapoff kselftest gets the sizes the guest stages were
# timed with, unless the caller sets its own; under KVM its defaults.
got="$(guest_append tcg '')|$(guest_append tcg 'x=1')|$(guest_append tcg 'SWAPOFF_DISK_MB=64')|$(guest_append kvm '')"
expect_eq boot-tcg-swapoff-sizes "$got" \
	"$TCG_SWAPOFF_SIZES|x=1 $TCG_SWAPOFF_SIZES|SWAPOFF_DISK_MB=64|"

# No guest tests is no run: boot.sh refuses it, and the judge fails a run
# that reports no case (tests/test-arch.sh boots one).
: >"$T/bzImage"
expect_fail boot-needs-tests 'no guest tests given' "$TOP/scripts/kernel/boot.sh" "$T/bzImage" "" t
# make takes its defaults from lib.sh as the shell reads it: quoted
# otherwise there, they are the same.
mkdir -p "$T/mk"
cp -R "$TOP/Makefile" "$TOP/scripts" "$T/mk/"
sed -i "s/^SERIES_TESTS=.*/SERIES_TESTS='sanity,vmtests-swap'/; s/^SERIES_SELFTESTS=.*/SERIES_SELFTESTS='swapoff swap_devices'/" \
	"$T/mk/scripts/lib.sh"
if make -s -C "$T/mk" help 2>&1 | grep -q 'TESTS (sanity,vmtests-swap) SELFTESTS (swapoff swap_devices)'; then
	ok make-defaults-as-the-shell-reads-them
else
	notok make-defaults-as-the-shell-reads-them "$(make -s -C "$T/mk" help 2>&1 | grep 'TESTS (')"
fi

# A ^C at the terminal stops the guest: QEMU stays in the process group
# of the run that booted it (timeout(1) would otherwise give it one of its
# own, which the ^C never reaches, and the guest would run on for hours).
cat >"$T/qemu" <<'EOQ'
#!/bin/sh
echo "$$" >"$QEMU_PID"
exec sleep 304
EOQ
chmod +x "$T/qemu"
QEMU_PID=$T/qemu.pid python3 "$TOP/tests/job.py" sh -c '. "$2/scripts/lib.sh"
	arch_qemu=$1/qemu arch_results=serial arch_console=ttyS0 arch_append= arch_qemu_args=
	SMP=1 MEM=64M qemu_boot "$1/guest" 600 tcg "" k i sanity' sh "$T" "$TOP" &
group=$!
i=0
while [ ! -s "$T/qemu.pid" ] && [ "$i" -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
kill -INT "-$group"
# running PID: PID is there and not a zombie (a container's init may
# not reap what it inherits).
running() {
	_s=$(ps -o stat= -p "$1" 2>/dev/null)
	[ -n "$_s" ] && [ "${_s#Z}" = "$_s" ]
}
i=0
while running "$(cat "$T/qemu.pid")" && [ "$i" -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
if running "$(cat "$T/qemu.pid")"; then
	notok boot-interrupt-stops-guest "QEMU runs on after a ^C to the run's process group"
	kill "$(cat "$T/qemu.pid")"
else
	ok boot-interrupt-stops-guest
fi
wait
