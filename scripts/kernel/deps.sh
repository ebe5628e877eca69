#!/bin/sh
# Install the Debian packages the harness needs, and any named as arguments,
# if one is missing.
set -eu
. "$(dirname "$0")/../lib.sh"
pkgs="build-essential flex bison bc libelf-dev libssl-dev cpio ccache
	busybox-static bash-static python3 git xz-utils file kmod $*"
# The default architecture's compiler and QEMU, and ARCH's (config/ARCH.config).
for ARCH in x86_64 ${ARCH:-}; do
	arch_load
	pkgs="$pkgs $arch_packages"
done
missing=
for p in $pkgs; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
		missing="$missing $p"
done
[ -n "$missing" ] || exit 0
say "installing:$missing"
[ "$(id -u)" -eq 0 ] || die "need root to install:$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get update -q >/dev/null || die "apt-get update failed"
# shellcheck disable=SC2086
apt-get install -y -q --no-install-recommends $missing >/dev/null ||
	die "apt-get install failed for:$missing"
