#!/bin/sh
# busybox-arm64.sh: print the path of a static arm64 busybox for the arm64
# guest, fetched once from Debian (busybox-static:arm64) through a private
# apt configuration, like the base kernel; apt checks it against the
# archive's signed index.  The system's apt sources stay untouched.
set -eu
. "$(dirname "$0")/lib.sh"
: "${BB_SUITE:=$(. /etc/os-release && echo "${VERSION_CODENAME:-bookworm}")}"
: "${DEB_MIRROR:=http://deb.debian.org/debian}"
dir=$SWAPQ_CACHE/busybox-arm64
bb=$dir/busybox
if [ ! -x "$bb" ]; then
	need apt-get dpkg-deb file
	mkdir -p "$dir/lists/partial"
	echo "deb [arch=arm64] $DEB_MIRROR $BB_SUITE main" >"$dir/sources.list"
	aptopt="-o Dir::Etc::sourcelist=$dir/sources.list -o Dir::Etc::sourceparts=/nonexistent
		-o Dir::State::Lists=$dir/lists -o Debug::NoLocking=1 -o APT::Get::List-Cleanup=0
		-o APT::Architecture=arm64 -o APT::Architectures=arm64"
	say "fetching busybox-static:arm64 from $BB_SUITE"
	# shellcheck disable=SC2086
	apt-get -q $aptopt update >"$dir/update.log" 2>&1 ||
		die "apt-get update of $BB_SUITE (arm64) failed (see $dir/update.log)"
	tmpd=$(mktemp -d "$dir/dl.XXXXXX")
	trap 'rm -rf "$tmpd"' EXIT
	# shellcheck disable=SC2086
	(cd "$tmpd" && apt-get -q $aptopt download busybox-static:arm64) >"$dir/download.log" 2>&1 ||
		die "download of busybox-static:arm64 failed (see $dir/download.log)"
	dpkg-deb -x "$tmpd"/busybox-static_*_arm64.deb "$tmpd/x" ||
		die "cannot unpack busybox-static:arm64"
	file -L "$tmpd/x/bin/busybox" | grep -q 'ARM aarch64.*statically linked' ||
		die "busybox-static:arm64 is not a static aarch64 program: $(file -L "$tmpd/x/bin/busybox")"
	mv "$tmpd/x/bin/busybox" "$bb"
fi
echo "$bb"
