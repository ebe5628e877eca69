#!/bin/sh
# debian-arm64.sh PACKAGE FILE: print the path of the static arm64 program
# FILE (as the package has it, e.g. bin/busybox) of Debian's PACKAGE:arm64,
# for the arm64 guest: busybox-static, and bash-static for the kselftest
# runner.  Fetched once through a private apt configuration, like the base
# kernel; apt checks it against the archive's signed index.  The system's
# apt sources stay untouched.
set -eu
. "$(dirname "$0")/lib.sh"
[ $# -eq 2 ] || die "usage: debian-arm64.sh PACKAGE FILE"
pkg=$1 file=$2
: "${BB_SUITE:=$(. /etc/os-release && echo "${VERSION_CODENAME:-bookworm}")}"
: "${DEB_MIRROR:=http://deb.debian.org/debian}"
dir=$SWAPQ_CACHE/arm64
prog=$dir/$pkg/$(basename "$file")
if [ ! -x "$prog" ]; then
	need apt-get dpkg-deb file
	mkdir -p "$dir/lists/partial" "$dir/$pkg"
	echo "deb [arch=arm64] $DEB_MIRROR $BB_SUITE main" >"$dir/sources.list"
	aptopt="-o Dir::Etc::sourcelist=$dir/sources.list -o Dir::Etc::sourceparts=/nonexistent
		-o Dir::State::Lists=$dir/lists -o Debug::NoLocking=1 -o APT::Get::List-Cleanup=0
		-o APT::Architecture=arm64 -o APT::Architectures=arm64"
	say "fetching $pkg:arm64 from $BB_SUITE"
	# shellcheck disable=SC2086
	apt-get -q $aptopt update >"$dir/update.log" 2>&1 ||
		die "apt-get update of $BB_SUITE (arm64) failed (see $dir/update.log)"
	tmpd=$(mktemp -d "$dir/dl.XXXXXX")
	trap 'rm -rf "$tmpd"' EXIT
	# shellcheck disable=SC2086
	(cd "$tmpd" && apt-get -q $aptopt download "$pkg:arm64") >"$dir/$pkg/download.log" 2>&1 ||
		die "download of $pkg:arm64 failed (see $dir/$pkg/download.log)"
	dpkg-deb -x "$tmpd/${pkg}"_*_arm64.deb "$tmpd/x" ||
		die "cannot unpack $pkg:arm64"
	file -L "$tmpd/x/$file" | grep -q 'ARM aarch64.*statically linked' ||
		die "$file of $pkg:arm64 is not a static aarch64 program: $(file -L "$tmpd/x/$file")"
	mv "$tmpd/x/$file" "$prog"
fi
echo "$prog"
