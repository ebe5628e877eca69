#!/bin/sh
# The kernel-doc gate (scripts/check/kdoc-new.sh) on two synthetic trees whose
# scripts/kernel-doc is a stand-in: it warns about the sentinel's
# undocumented parameter and prints each "//W" line of a file as a warning.
. "$(dirname "$0")/lib.sh"
for tree in base new; do
	mkdir -p "$T/$tree/scripts"
	cat >"$T/$tree/scripts/kernel-doc" <<'EOK'
my $f = $ARGV[-1];
open(my $in, '<', $f) or die "$f: $!";
while (<$in>) {
	print STDERR "Warning: $f:$. function parameter 'undocumented' not described in 'swapq_sentinel'\n"
		if /int swapq_sentinel\(int undocumented\)/;
	print STDERR "Warning: $f:$. $1\n" if m{^//W (.*)};
}
EOK
done
printf '//W old warning\nint a;\n' >"$T/base/a.c"
printf '//W old warning\nint a;\n' >"$T/new/a.c"
if sh "$TOP/scripts/check/kdoc-new.sh" "$T/base" "$T/new" a.c >"$T/k1" 2>&1 &&
	grep -q '^ok kernel-doc a.c' "$T/k1"; then
	ok kdoc-same-warnings-pass
else
	notok kdoc-same-warnings-pass "$(tr '\n' ' ' <"$T/k1")"
fi
printf '//W old warning\n//W new warning\nint a;\n' >"$T/new/a.c"
expect_fail kdoc-new-warning-fails '^not ok kernel-doc a.c - .*new warning' \
	sh "$TOP/scripts/check/kdoc-new.sh" "$T/base" "$T/new" a.c
# kernel-doc that cannot run: both trees print nothing, nothing is "new".
printf 'exit 1;\n' >"$T/new/scripts/kernel-doc"
printf 'exit 1;\n' >"$T/base/scripts/kernel-doc"
expect_fail kdoc-not-running-fails '^not ok kernel-doc-runs' \
	sh "$TOP/scripts/check/kdoc-new.sh" "$T/base" "$T/new" a.c
