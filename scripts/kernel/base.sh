#!/bin/sh
# Provide the base kernel tree as a git repository and print "REPO COMMIT".
#
# Default: Debian's linux-source package, fetched with apt through a private
# configuration (or, where there is no apt, by HTTP from the archive),
# checked against a pinned SHA-256 and committed once into
# $SWAPQ_CACHE as a deterministic commit (fixed identity, dates and message),
# so the commit's SHA is the same on every machine.
#
# KERNEL_SRC=<git tree> [KERNEL_REF=<ref>] uses a user's own tree instead; it
# is only read, never modified.
set -eu
. "$(dirname "$0")/../lib.sh"

: "${DEB_PKG:=linux-source-7.3}"
: "${DEB_VERSION:=7.3.4-1~bpo13+1}"
: "${DEB_SUITE:=trixie-backports}"
: "${DEB_MIRROR:=http://deb.debian.org/debian}"
# Pinned checksum of the default package; set DEB_SHA256 with DEB_VERSION.
if [ "$DEB_VERSION" = "7.3.4-1~bpo13+1" ]; then
	: "${DEB_SHA256:=703e369ddd4cce971452f5a593ee55df3a5c10c83caf0fa0df039633ed181ee3}"
fi
: "${DEB_SHA256:?DEB_SHA256 must be given for DEB_VERSION=$DEB_VERSION}"

if [ -n "${KERNEL_SRC:-}" ]; then
	[ -d "$KERNEL_SRC" ] && [ -r "$KERNEL_SRC" ] ||
		die "KERNEL_SRC=$KERNEL_SRC is not a readable directory"
	git -C "$KERNEL_SRC" rev-parse --git-dir >/dev/null 2>&1 ||
		die "KERNEL_SRC=$KERNEL_SRC is not a git tree"
	ref=${KERNEL_REF:-HEAD}
	# A branch the tree has only as a remote's (mm-unstable, fetched as
	# akpm/mm-unstable) is taken as git checkout takes it: when exactly
	# one remote has it.
	if ! git -C "$KERNEL_SRC" rev-parse --verify -q "$ref^{commit}" >/dev/null; then
		rr=$(git -C "$KERNEL_SRC" for-each-ref --format='%(refname)' "refs/remotes/*/$ref")
		case $rr in
		*"
"*) die "KERNEL_REF=$ref is ambiguous in $KERNEL_SRC: $(echo "$rr" | tr '\n' ' ')(name one)" ;;
		?*) ref=$rr ;;
		esac
	fi
	commit=$(git -C "$KERNEL_SRC" rev-parse --verify -q "$ref^{commit}") ||
		die "KERNEL_REF=$ref does not name a commit in $KERNEL_SRC"
	git -C "$KERNEL_SRC" cat-file -e "$commit:mm/swapfile.c" 2>/dev/null ||
		die "KERNEL_SRC=$KERNEL_SRC has no mm/swapfile.c at $ref: not a kernel tree"
	printf '%s %s\n' "$(cd "$KERNEL_SRC" && pwd)" "$commit"
	exit 0
fi

ver=${DEB_VERSION%%-*}
repo=$SWAPQ_CACHE/linux-$DEB_VERSION.git
if git -C "$repo" rev-parse -q --verify refs/heads/base >/dev/null 2>&1; then
	printf '%s %s\n' "$repo" "$(git -C "$repo" rev-parse refs/heads/base)"
	exit 0
fi

need sha256sum tar xz git
dl=$SWAPQ_CACHE/apt
mkdir -p "$dl/lists/partial"
deb=$dl/${DEB_PKG}_$(echo "$DEB_VERSION" | sed 's/:/%3a/')_all.deb

# fetch_apt: the package through a private apt configuration (the
# system's sources stay untouched); apt checks it against the signed index.
fetch_apt() {
	echo "deb $DEB_MIRROR $DEB_SUITE main" >"$dl/sources.list"
	aptopt="-o Dir::Etc::sourcelist=$dl/sources.list -o Dir::Etc::sourceparts=/nonexistent
	-o Dir::State::Lists=$dl/lists -o Debug::NoLocking=1 -o APT::Get::List-Cleanup=0"
	# shellcheck disable=SC2086
	apt-get -q $aptopt update >"$dl/update.log" 2>&1 ||
		die "apt-get update of $DEB_SUITE failed (see $dl/update.log)"
	# shellcheck disable=SC2086
	avail=$(apt-cache $aptopt madison "$DEB_PKG" 2>/dev/null | awk -F'|' '{gsub(/ /,"",$2); print $2}' | tr '\n' ' ')
	case " $avail " in
	*" $DEB_VERSION "*) ;;
	*) die "$DEB_PKG=$DEB_VERSION is not in $DEB_SUITE; available: ${avail:-none} (set DEB_VERSION= and DEB_SHA256=)" ;;
	esac
	tmpd=$(mktemp -d "$dl/dl.XXXXXX")
	# shellcheck disable=SC2086
	(cd "$tmpd" && apt-get -q $aptopt download "$DEB_PKG=$DEB_VERSION") >"$dl/download.log" 2>&1 ||
		{ rm -rf "$tmpd"; die "download of $DEB_PKG=$DEB_VERSION failed (see $dl/download.log)"; }
	mv "$tmpd"/*.deb "$deb"
	rmdir "$tmpd"
}

# get URL FILE: URL into FILE with curl or wget.
get() {
	if command -v curl >/dev/null 2>&1; then
		curl -fsSL -o "$2" "$1"
	elif command -v wget >/dev/null 2>&1; then
		wget -q -O "$2" "$1"
	else
		die "no apt-get, curl or wget to fetch $DEB_PKG with"
	fi
}

# fetch_http: without apt (another distribution), the file's name from the
# suite's index (an arch-all package is listed in each architecture's),
# the file by HTTP; the pinned checksum below vouches for it.
fetch_http() {
	get "$DEB_MIRROR/dists/$DEB_SUITE/main/binary-amd64/Packages.xz" "$dl/Packages.xz" ||
		die "cannot fetch the index of $DEB_SUITE from $DEB_MIRROR"
	idx() {
		xz -dc "$dl/Packages.xz" | awk -v p="$DEB_PKG" -v v="$DEB_VERSION" -v k="$1" '
		/^Package: / { pk = $2 } /^Version: / { ve = $2 }
		/^Filename: / { if (pk == p && (k == "versions" || ve == v)) print (k == "versions" ? ve : $2) }'
	}
	file=$(idx file | head -n1)
	[ -n "$file" ] ||
		die "$DEB_PKG=$DEB_VERSION is not in $DEB_SUITE; available: $(idx versions | tr '\n' ' ')(set DEB_VERSION= and DEB_SHA256=)"
	get "$DEB_MIRROR/$file" "$deb.part" || { rm -f "$deb.part"; die "download of $DEB_MIRROR/$file failed"; }
	mv "$deb.part" "$deb"
}

if [ ! -f "$deb" ]; then
	say "fetching $DEB_PKG=$DEB_VERSION from $DEB_SUITE"
	if command -v apt-get >/dev/null 2>&1; then fetch_apt; else fetch_http; fi
fi
got=$(sha256sum "$deb" | cut -d' ' -f1)
if [ "$got" != "$DEB_SHA256" ]; then
	mv "$deb" "$deb.bad"
	die "checksum mismatch for $(basename "$deb"): got $got, want $DEB_SHA256 (moved aside to .bad)"
fi

say "unpacking $DEB_PKG $DEB_VERSION"
t0=$(date +%s)
tmp=$(mktemp -d "$SWAPQ_CACHE/unpack.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
if command -v dpkg-deb >/dev/null 2>&1; then
	dpkg-deb -x "$deb" "$tmp/x"
else
	# A .deb is an ar archive; its files are in data.tar.xz.
	need ar
	mkdir "$tmp/x"
	ar p "$deb" data.tar.xz | tar -C "$tmp/x" -xJf - || die "cannot unpack $(basename "$deb")"
fi
tarball=$(ls "$tmp"/x/usr/src/linux-source-*.tar.xz)
tar -C "$tmp" -xJf "$tarball"
rm -rf "$tmp/x"
src=$(ls -d "$tmp"/linux-source-*)
say "unpacked in $(($(date +%s) - t0)) s"

# Debian appends a packaging stanza to the top-level .gitignore that
# ignores every top-level entry ("/*" then "!/debian/"); drop it so that
# new files (a new test under mm/tests/) are seen by git.
sed -i '/^# Debian/,$d' "$src/.gitignore"
grep -qx '/\*' "$src/.gitignore" && die "could not strip Debian's stanza from .gitignore"

say "committing the base tree (deterministic commit)"
t0=$(date +%s)
git init -q "$src"
# Fixed identity and dates, no user or system git configuration: the SHA
# of this commit is the series' base-commit on every machine.
GIT_CONFIG_NOSYSTEM=1 HOME=$tmp git -C "$src" -c core.autocrlf=false -c core.fileMode=true \
	-c core.excludesFile=/dev/null add -A -f .
GIT_CONFIG_NOSYSTEM=1 HOME=$tmp \
GIT_AUTHOR_NAME="Debian kernel source" GIT_AUTHOR_EMAIL="linux-source@packages.debian.org" \
GIT_COMMITTER_NAME="Debian kernel source" GIT_COMMITTER_EMAIL="linux-source@packages.debian.org" \
GIT_AUTHOR_DATE="2026-01-01T00:00:00+0000" GIT_COMMITTER_DATE="2026-01-01T00:00:00+0000" \
	git -C "$src" commit -q --no-gpg-sign --no-verify \
	-m "Linux $ver ($DEB_PKG $DEB_VERSION)" \
	-m "Unpacked from ${DEB_PKG}_${DEB_VERSION}_all.deb (sha256 $DEB_SHA256), with Debian's packaging stanza removed from the top-level .gitignore."
git -C "$src" branch -q -M base
mkdir -p "$(dirname "$repo")"
rm -rf "$repo"
mv "$src" "$repo"
trap - EXIT
rm -rf "$tmp"
say "base commit $(git -C "$repo" rev-parse base) in $(($(date +%s) - t0)) s"
printf '%s %s\n' "$repo" "$(git -C "$repo" rev-parse refs/heads/base)"
