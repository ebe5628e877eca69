#!/bin/sh
# initramfs.sh OUT [SRC]: busybox-static, the guest init, our guest
# programs, the kselftests named in $SELFTESTS built (static) by the kernel
# tree SRC's tools/testing/selftests/mm/Makefile against the uapi headers in
# $HEADERS, with that directory's run_vmtests.sh and bash-static to run
# it, and the kernel's modules
# from $MODULES/lib/modules if that exists (modules_install's layout).  For
# another ARCH the programs are cross-built and busybox and bash come from
# Debian's packages of that architecture (config/ARCH.config).
set -eu
. "$(dirname "$0")/../lib.sh"
out=$1
src=${2:-}
: "${SELFTESTS:=}" "${KSFT_INSTALL:=}"
arch_load
cc=$arch_cc
need cpio gzip "$cc"
bash=
if [ -n "$arch_debian_arch" ]; then
	"$TOP/scripts/kernel/debian-static.sh" busybox-static bin/busybox || die "no $ARCH busybox"
	bb=$(debian_static_path busybox-static bin/busybox)
	if [ -n "$SELFTESTS$KSFT_INSTALL" ]; then
		"$TOP/scripts/kernel/debian-static.sh" bash-static bin/bash-static || die "no $ARCH bash"
		bash=$(debian_static_path bash-static bin/bash-static)
	fi
else
	bb=$(static_prog busybox) ||
		die "no statically linked busybox (Debian's busybox-static; or set BUSYBOX_STATIC=)"
	[ -z "$SELFTESTS$KSFT_INSTALL" ] || bash=$(static_prog bash) ||
		die "no statically linked bash for run_vmtests.sh (Debian's bash-static; or set BASH_STATIC=)"
fi
stage=$(mktemp -d)
# The root of the guest: mktemp makes it 0700, which would keep users other
# than root (guest/tests/user-skips) from everything.
chmod 755 "$stage"
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/bin" "$stage/tests" "$stage/dev" "$stage/proc" "$stage/sys" "$stage/tmp"
cp "$bb" "$stage/bin/busybox"
ln -s busybox "$stage/bin/sh"
cp "$TOP/guest/init" "$stage/init"
cp "$TOP/guest/ktap-nest" "$stage/bin/ktap-nest"
# qexit hands QEMU the exit status through an x86 I/O port; elsewhere the
# init's reboot -f ends the run.
if [ -n "$arch_qexit" ]; then
	"$cc" -static -O2 -Wall -o "$stage/bin/qexit" "$TOP/guest/qexit.c" || die "cannot build qexit"
fi
# Helpers of the guest tests that play a user's machine: swaphold, a
# process of the machine's own with data in its own swap; asnobody, a
# program run by a user who is not root; snaplook, the hibernation device
# lookups a running machine can make.
for h in swaphold asnobody snaplook; do
	"$cc" -static -O2 -Wall -o "$stage/bin/$h" "$TOP/guest/$h.c" || die "cannot build $h"
done
for f in "$TOP"/guest/tests/*; do
	case $f in
	*/lkdtm.sh)
		for t in WARNING EXCEPTION READ_AFTER_FREE HUNG_TASK; do
			cp "$f" "$stage/tests/lkdtm-$t"
		done ;;
	*.h) ;;
	*.c) "$cc" -static -O2 -Wall -o "$stage/tests/$(basename "$f" .c)" "$f" ||
		die "cannot build $f" ;;
	*) cp "$f" "$stage/tests/" ;;
	esac
done
if [ -n "${MODULES:-}" ] && [ -d "$MODULES/lib/modules" ]; then
	mkdir -p "$stage/lib"
	cp -R "$MODULES/lib/modules" "$stage/lib/" || die "cannot copy the modules in $MODULES"
	find "$stage/lib/modules" \( -name build -o -name source \) -type l -exec rm -f {} +
fi
if [ -n "${GUEST_EXTRA:-}" ]; then
	cp "$GUEST_EXTRA"/* "$stage/tests/" || die "cannot copy $GUEST_EXTRA"
fi
# The selftests' own runner (guest/tests/vmtests-swap runs it) needs bash.
[ -z "$bash" ] || cp "$bash" "$stage/bin/bash"
if [ -n "$SELFTESTS" ]; then
	cp "$src/tools/testing/selftests/mm/run_vmtests.sh" "$stage/tests/" ||
		die "no run_vmtests.sh in $src"
fi
# The kselftests, built by their own Makefile against the booted kernel's
# uapi headers (kernel.sh installs them beside its objects).
progs=
for t in $SELFTESTS; do
	[ -n "$src" ] || die "SELFTESTS given without a kernel tree"
	if [ ! -f "$src/tools/testing/selftests/mm/$t.c" ]; then
		say "note: $t is not in $src; the guest will report it missing"
		continue
	fi
	progs="$progs $t"
done
if [ -n "$progs" ]; then
	# shellcheck disable=SC2086 # $progs is a list
	selftests_make "$src" "$stage/tests" "${HEADERS:-}" $progs >"$stage/selftests.log" 2>&1 ||
		die "cannot build the selftests$progs: $(tail -n 3 "$stage/selftests.log" | tr '\n' ' ')"
	rm -f "$stage/selftests.log"
fi
# The mm selftests installed as a user installs them, for
# guest/tests/user-install (boot.sh sets KSFT_INSTALL=1 for it).
if [ -n "$KSFT_INSTALL" ]; then
	[ -n "$src" ] || die "KSFT_INSTALL given without a kernel tree"
	"$TOP/scripts/kernel/deps.sh" libnuma-dev libcap-dev rsync ||
		die "cannot install what the mm selftests' install needs"
	selftests_install "$src" "$stage/kselftest" "${HEADERS:-}" >"$stage/install.log" 2>&1 ||
		die "cannot install the mm selftests: $(tail -n 3 "$stage/install.log" | tr '\n' ' ')"
	rm -f "$stage/install.log"
fi
chmod +x "$stage"/tests/*
(cd "$stage" && find . | LC_ALL=C sort | cpio -o -H newc --quiet | gzip -9) >"$out.tmp"
mv "$out.tmp" "$out"
