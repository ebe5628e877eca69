#!/bin/sh
# debian-static.sh PACKAGE FILE: fetch the static program FILE (as the
# package has it, e.g. bin/busybox; lib.sh's debian_static_path says
# where it is kept) of Debian's PACKAGE for the
# guest of $ARCH (its debian_arch in config/ARCH.config): busybox-static,
# and bash-static for the kselftest runner.  Fetched once through a private
# apt configuration, like the base kernel; apt checks it against the
# archive's signed index.  The system's apt sources stay untouched.
set -eu
. "$(dirname "$0")/../lib.sh"
[ $# -eq 2 ] || die "usage: debian-static.sh PACKAGE FILE"
pkg=$1 file=$2
arch_load
da=$arch_debian_arch
[ -n "$da" ] || die "config/$ARCH.config names no debian_arch: the guest uses the host's programs"
: "${BB_SUITE:=$(. /etc/os-release && echo "${VERSION_CODENAME:-bookworm}")}"
: "${DEB_MIRROR:=http://deb.debian.org/debian}"
dir=$SWAPQ_CACHE/$da
prog=$(debian_static_path "$pkg" "$file")
if [ ! -x "$prog" ]; then
	need apt-get dpkg-deb file
	mkdir -p "$dir/lists/partial" "$dir/$pkg"
	echo "deb [arch=$da] $DEB_MIRROR $BB_SUITE main" >"$dir/sources.list"
	aptopt="-o Dir::Etc::sourcelist=$dir/sources.list -o Dir::Etc::sourceparts=/nonexistent
		-o Dir::State::Lists=$dir/lists -o Debug::NoLocking=1 -o APT::Get::List-Cleanup=0
		-o APT::Architecture=$da -o APT::Architectures=$da"
	say "fetching $pkg:$da from $BB_SUITE"
	# shellcheck disable=SC2086
	apt-get -q $aptopt update >"$dir/update.log" 2>&1 ||
		die "apt-get update of $BB_SUITE ($da) failed (see $dir/update.log)"
	tmpd=$(mktemp -d "$dir/dl.XXXXXX")
	trap 'rm -rf "$tmpd"' EXIT
	# shellcheck disable=SC2086
	(cd "$tmpd" && apt-get -q $aptopt download "$pkg:$da") >"$dir/$pkg/download.log" 2>&1 ||
		die "download of $pkg:$da failed (see $dir/$pkg/download.log)"
	dpkg-deb -x "$tmpd/${pkg}"_*_"$da".deb "$tmpd/x" ||
		die "cannot unpack $pkg:$da"
	file -L "$tmpd/x/$file" | grep -q "$arch_elf.*statically linked" ||
		die "$file of $pkg:$da is not a static $arch_elf program: $(file -L "$tmpd/x/$file")"
	mv "$tmpd/x/$file" "$prog"
fi
