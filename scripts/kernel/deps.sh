#!/bin/sh
# deps.sh [PACKAGE...]: make sure the tools the harness needs are here, and
# those of the Debian packages named as arguments.  Each package is checked
# by what it provides, not by asking dpkg, so that any distribution with
# the tools installed needs neither root nor apt.  What is missing is
# installed with apt-get where apt exists (as root); elsewhere the missing
# tools are named, with Debian's package names, and nothing is installed.
set -eu
. "$(dirname "$0")/../lib.sh"
pkgs="build-essential flex bison bc libelf-dev libssl-dev cpio ccache
	busybox-static bash-static python3 git xz-utils file kmod $*"
# The native architecture's compiler and QEMU (lib.sh arch_native), and
# ARCH's (config/ARCH.config).
for ARCH in $(arch_native) ${ARCH:-}; do
	arch_load
	pkgs="$pkgs $arch_packages"
done

# What each package provides, as checks: cmd:TOOL (on PATH, or in an
# sbin directory), hdr:HEADER (the C compiler finds it), cchdr:CC:HEADER
# (a cross compiler finds it), static:NAME (a statically linked NAME, as
# static_prog finds it), perl:MODULE, gitcmd:NAME (a git subcommand);
# a package of no known check, dpkg:PACKAGE, only where dpkg can tell.
probes() {
	case $1 in
	build-essential) echo cmd:make cmd:gcc cmd:ar hdr:stdio.h ;;
	libelf-dev) echo hdr:gelf.h ;;
	libssl-dev) echo hdr:openssl/opensslv.h ;;
	busybox-static) echo static:busybox ;;
	bash-static) echo static:bash ;;
	xz-utils) echo cmd:xz ;;
	kmod) echo cmd:depmod ;;
	libnuma-dev) echo hdr:numa.h ;;
	libcap-dev) echo hdr:sys/capability.h ;;
	qemu-system-x86) echo cmd:qemu-system-x86_64 ;;
	qemu-system-arm) echo cmd:qemu-system-aarch64 ;;
	gcc-aarch64-linux-gnu) echo cmd:aarch64-linux-gnu-gcc ;;
	libc6-dev-arm64-cross) echo cchdr:aarch64-linux-gnu-gcc:stdio.h ;;
	git-email) echo gitcmd:send-email ;;
	libmailtools-perl) echo perl:Mail::Address ;;
	lld-19) echo cmd:ld.lld-19 ;;
	llvm-19) echo cmd:llvm-ar-19 ;;
	flex | bison | bc | cpio | ccache | python3 | git | file | gcc | sparse | clang-19 | rsync)
		echo "cmd:$1" ;;
	*) echo "dpkg:$1" ;;
	esac
}

# have CHECK: the check holds.
have() {
	case $1 in
	cmd:*) PATH=$PATH:/usr/sbin:/sbin command -v "${1#cmd:}" >/dev/null 2>&1 ;;
	hdr:*) printf '#include <%s>\n' "${1#hdr:}" | cc -E -x c - >/dev/null 2>&1 ;;
	cchdr:*)
		_h=${1#cchdr:}
		printf '#include <%s>\n' "${_h#*:}" | "${_h%%:*}" -E -x c - >/dev/null 2>&1 ;;
	static:*) static_prog "${1#static:}" >/dev/null ;;
	perl:*) perl -M"${1#perl:}" -e 1 >/dev/null 2>&1 ;;
	gitcmd:*) [ -x "$(git --exec-path 2>/dev/null)/git-${1#gitcmd:}" ] ;;
	dpkg:*) dpkg-query -W -f='${Status}' "${1#dpkg:}" 2>/dev/null | grep -q 'install ok installed' ;;
	*) return 1 ;;
	esac
}

# missing_of PKGS: "PACKAGE CHECK" for every check that fails.
missing_of() {
	for _p in $1; do
		for _c in $(probes "$_p"); do
			have "$_c" || echo "$_p $_c"
		done
	done
}

pkgs=$(printf '%s\n' $pkgs | awk '!seen[$0]++' | tr '\n' ' ')
lack=$(missing_of "$pkgs")
[ -n "$lack" ] || exit 0
missing=$(printf '%s\n' "$lack" | cut -d' ' -f1 | awk '!seen[$0]++' | tr '\n' ' ')
tools=$(printf '%s\n' "$lack" | cut -d' ' -f2 | sed 's/^[a-z]*://' | tr '\n' ' ')
if ! command -v apt-get >/dev/null 2>&1; then
	die "missing: ${tools% } (Debian packages: ${missing% }); no apt-get here: install them with your distribution's packages"
fi
say "installing: ${missing% } (for: ${tools% })"
[ "$(id -u)" -eq 0 ] || die "need root to install: ${missing% } (or install them yourself)"
export DEBIAN_FRONTEND=noninteractive
apt-get update -q >/dev/null || die "apt-get update failed"
# shellcheck disable=SC2086
apt-get install -y -q --no-install-recommends $missing >/dev/null ||
	die "apt-get install failed for: ${missing% }"
still=$(missing_of "$missing")
[ -z "$still" ] ||
	die "still missing after apt-get install: $(printf '%s\n' "$still" | cut -d' ' -f2 | tr '\n' ' ')"
