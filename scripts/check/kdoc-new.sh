#!/bin/sh
# kdoc-new.sh BASE NEW FILE...: a result line per FILE (a path inside both
# trees): NEW's kernel-doc prints no warning for it that BASE's does not.
# First a result line for kernel-doc itself: it must warn about a sentinel
# that leaves a parameter undocumented, in both trees.  A kernel-doc that
# cannot run prints the same nothing for both trees, and every file would
# pass without having been read.
set -u
. "$(dirname "$0")/../lib.sh"
[ $# -ge 2 ] || die "usage: kdoc-new.sh BASE NEW FILE..."
base=$1 new=$2
shift 2
pass=0 fail=0
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
# kdoc TREE FILE: its kernel-doc warnings, without line numbers
kdoc() {
	(cd "$1" && [ -f "$2" ] && perl scripts/kernel-doc -none -Wall "$2" 2>&1) |
		sed -E 's/:[0-9]+ / /' | sort -u
}
printf '%s\n' '/**' \
	' * swapq_sentinel() - a kernel-doc comment that leaves out a parameter' \
	' *' ' * Return: nothing.' ' */' 'int swapq_sentinel(int undocumented);' \
	>"$t/sentinel.c"
ran=0
for tree in "$base" "$new"; do
	kdoc "$tree" "$t/sentinel.c" | grep -q "'undocumented' not described" ||
		ran=1
done
result kernel-doc-runs $ran "kernel-doc in $base or $new did not warn about an undocumented parameter: it does not run"
if [ "$ran" -eq 0 ]; then
	for f in "$@"; do
		kdoc "$base" "$f" >"$t/base"
		kdoc "$new" "$f" >"$t/new"
		added=$(comm -13 "$t/base" "$t/new" | head -n 3 | tr '\n' ' ')
		[ -z "$added" ]
		result "kernel-doc $f" $? "$added"
	done
fi
results_end
