#!/bin/sh
# The Debian base without apt (another distribution): base.sh finds the
# package's file in the suite's index, fetches it by HTTP (here a
# stand-in curl serving a made-up archive), checks the pinned checksum and
# unpacks it without dpkg-deb.  PATH: this machine's, less apt and dpkg.
. "$(dirname "$0")/lib.sh"
a=$T/archive
mkdir -p "$a/src/linux-source-7.3/mm" "$a/data/usr/src" "$a/pool" "$T/bin"
echo "/* swap */" >"$a/src/linux-source-7.3/mm/swapfile.c"
printf '*.o\n# Debian packaging\n/*\n!/debian/\n' >"$a/src/linux-source-7.3/.gitignore"
tar -C "$a/src" -cJf "$a/data/usr/src/linux-source-7.3.tar.xz" linux-source-7.3
tar -C "$a/data" -cJf "$a/data.tar.xz" usr
echo 2.0 >"$a/debian-binary"
tar -C "$a" -cJf "$a/control.tar.xz" debian-binary
(cd "$a" && ar rc pool/linux-source-7.3_7.3.0-9_all.deb debian-binary control.tar.xz data.tar.xz)
sum=$(sha256sum "$a/pool/linux-source-7.3_7.3.0-9_all.deb" | cut -d' ' -f1)
mkdir -p "$a/dists/trixie-backports/main/binary-amd64"
printf 'Package: linux-source-7.2\nVersion: 7.2.1-1\nFilename: pool/x.deb\n\nPackage: linux-source-7.3\nVersion: 7.3.0-9\nFilename: pool/linux-source-7.3_7.3.0-9_all.deb\n\n' |
	xz >"$a/dists/trixie-backports/main/binary-amd64/Packages.xz"
bindir "$T/bin" apt-get apt apt-cache dpkg dpkg-deb dpkg-query curl wget
cat >"$T/bin/curl" <<EOF
#!/bin/sh
out= url=
while [ \$# -gt 0 ]; do case \$1 in -o) out=\$2; shift ;; -*) ;; *) url=\$1 ;; esac; shift; done
cp "$a/\${url#http://mirror.invalid/}" "\$out"
EOF
chmod +x "$T/bin/curl"
base() {
	env PATH="$T/bin" SWAPQ_CACHE="$T/cache" DEB_MIRROR=http://mirror.invalid KERNEL_SRC= \
		DEB_SHA256="$sum" "$@" "$TOP/scripts/kernel/base.sh"
}
if out=$(base DEB_VERSION=7.3.0-9 2>"$T/err") && set -- $out && [ $# -eq 2 ] &&
	[ "$(git -C "$1" show "$2:mm/swapfile.c")" = "/* swap */" ] &&
	! git -C "$1" show "$2:.gitignore" | grep -qx '/\*'; then
	ok base-without-apt
else
	notok base-without-apt "$out $(tail -n 2 "$T/err" | tr '\n' ' ')"
fi
rm -rf "$T/cache"
PATH=$T/bin SWAPQ_CACHE=$T/cache DEB_MIRROR=http://mirror.invalid KERNEL_SRC= DEB_VERSION=7.3.0-1 DEB_SHA256=0 \
	expect_fail base-without-apt-names-versions 'linux-source-7.3=7.3.0-1 is not in trixie-backports; available: 7.3.0-9 ' \
	"$TOP/scripts/kernel/base.sh"
