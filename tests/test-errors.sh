#!/bin/sh
# Bad input gives a one-line cause and a non-zero exit.
. "$(dirname "$0")/lib.sh"
. "$TOP/scripts/lib.sh"
F=$TOP/scripts/kernel/base.sh
# A user's own tree: the synthetic base stands in for it (no download).
REPO=$T/base
COMMIT=$(synthetic_base "$REPO") || notok synthetic-base "cannot commit the synthetic base"

KERNEL_SRC=/nonexistent/linux expect_fail kernel-src-missing 'KERNEL_SRC=/nonexistent/linux is not a readable directory' "$F"
mkdir "$T/plain"
KERNEL_SRC=$T/plain expect_fail kernel-src-not-git 'is not a git tree' "$F"
git init -q "$T/notkernel" && git -C "$T/notkernel" -c user.name=T -c user.email=t@t commit -q --allow-empty -m x
KERNEL_SRC=$T/notkernel expect_fail kernel-src-not-kernel 'not a kernel tree' "$F"
KERNEL_SRC=$REPO KERNEL_REF=no-such-ref expect_fail kernel-ref-bad 'KERNEL_REF=no-such-ref does not name a commit' "$F"
if [ "$(KERNEL_SRC=$REPO KERNEL_REF=$COMMIT "$F" 2>/dev/null)" = "$REPO $COMMIT" ]; then
	ok kernel-src-own-tree
else
	notok kernel-src-own-tree "did not resolve $REPO at $COMMIT"
fi

# A corrupt download is caught by the pinned checksum and moved aside
# (the Debian download, whatever tree the user set KERNEL_SRC to).
mkdir -p "$T/cache/apt"
echo "not a deb" >"$T/cache/apt/linux-source-7.3_7.3.4-1~bpo13+1_all.deb"
KERNEL_SRC= SWAPQ_CACHE=$T/cache expect_fail corrupt-download 'checksum mismatch' "$F"
if [ -e "$T/cache/apt/linux-source-7.3_7.3.4-1~bpo13+1_all.deb.bad" ]; then ok corrupt-moved-aside; else notok corrupt-moved-aside "still in place"; fi

# A version the archive no longer has: the available ones are named.
KERNEL_SRC= SWAPQ_CACHE=$T/cache2 DEB_VERSION=7.3.0-99 DEB_SHA256=0 \
	expect_fail vanished-version 'not in trixie-backports; available: .*7\.3\.' "$F"

expect_fail missing-tool "missing tool 'no-such-tool-xyz'" sh -c ". '$TOP/scripts/lib.sh'; need no-such-tool-xyz"
expect_fail vm-no-kernel 'no kernel image at' "$TOP/scripts/kernel/boot.sh" "$T/bzImage" sanity t
VARIANT=neither expect_fail bad-variant 'VARIANT must be base or patched' "$TOP/scripts/kernel/kernel.sh"
ARCH=sparc expect_fail bad-arch "unknown ARCH 'sparc' \\(known: arm64 i386 x86_64\\)" "$TOP/scripts/kernel/kernel.sh"
: >"$T/Image"
ARCH=i386 expect_fail vm-arch-not-booted 'ARCH=i386 is built, not booted' "$TOP/scripts/kernel/boot.sh" "$T/Image" sanity t
ARCH=sparc expect_fail vm-bad-arch "unknown ARCH 'sparc'" "$TOP/scripts/kernel/boot.sh" "$T/Image" sanity t

