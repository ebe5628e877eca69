#!/bin/sh
# make deps on any distribution: with every tool present it needs neither
# apt nor dpkg (nor root); with a tool missing and no apt it names the tool
# and its Debian package and stops; with apt it installs only what is
# missing.  The PATHs are copies of this machine's, less apt and dpkg.
. "$(dirname "$0")/lib.sh"
F=$TOP/scripts/kernel/deps.sh

# The harness installed its tools before its tests (make check runs deps
# first): the copy of PATH must satisfy deps.sh as it is.
bindir "$T/all" apt-get apt dpkg-query dpkg
if PATH=$T/all "$F" >"$T/out" 2>&1; then
	ok deps-all-present-no-apt
else
	notok deps-all-present-no-apt "$(tail -n 2 "$T/out" | tr '\n' ' ')"
fi
if grep -q installing "$T/out"; then
	notok deps-all-present-installs-nothing "$(cat "$T/out")"
else
	ok deps-all-present-installs-nothing
fi

bindir "$T/noxz" apt-get apt dpkg-query dpkg xz
PATH=$T/noxz expect_fail deps-missing-named-no-apt \
	'missing: xz \(Debian packages: xz-utils\); no apt-get here' "$F"

# With apt: only the missing package is installed; the stand-in apt-get
# records its arguments and "installs" xz.
rm -f "$T/noxz/apt-get"
cat >"$T/noxz/apt-get" <<EOF
#!/bin/sh
echo "\$*" >>"$T/apt.log"
case " \$* " in *" install "*) ln -sf "$(command -v xz)" "$T/noxz/xz" ;; esac
EOF
chmod +x "$T/noxz/apt-get"
if PATH=$T/noxz "$F" >"$T/out" 2>&1 &&
	grep -qx 'install -y -q --no-install-recommends xz-utils' "$T/apt.log" &&
	[ "$(grep -c install "$T/apt.log")" -eq 1 ]; then
	ok deps-installs-only-missing
else
	notok deps-installs-only-missing "$(cat "$T/apt.log" "$T/out" 2>/dev/null | tr '\n' ' ')"
fi

# An extra package named by a caller (compilers.sh, mbox.sh) is checked
# the same way: a git without send-email is missing git-email.
mkdir -p "$T/gitexec"
rm -f "$T/all/git"	# a link to the real git: replace it, never write through it
cat >"$T/all/git" <<EOF
#!/bin/sh
[ "\$1" = --exec-path ] && { echo "$T/gitexec"; exit 0; }
exec "$(command -v git)" "\$@"
EOF
chmod +x "$T/all/git"
PATH=$T/all expect_fail deps-extra-package-checked \
	'missing: send-email \(Debian packages: git-email\)' "$F" git-email
