#!/bin/sh
# Bisectability: every prefix of the series builds the objects it touches
# with W=1 and no warning the base does not have, and the kselftests it
# touches compile with -Wall -Werror.  One result line per check.
set -u
. "$(dirname "$0")/../lib.sh"
pass=0 fail=0
base_tree
base=$base_commit
work_tree 2>/dev/null || die "no work tree"
work=$WORK
src=$BUILD/prefix-src
arch_load
obj=$(kernel_obj prefix debug)
log=$BUILD/logs/prefix-build.log
: >"$log"
[ -d "$src/.git" ] || git clone -q --shared "$work" "$src" || die "cannot clone $work"
git -C "$src" fetch -q "$work" HEAD || die "cannot fetch $work"
use_ccache

# The C files the whole series touches; headers count through them.
objs=$(git -C "$src" diff --name-only "$base" FETCH_HEAD -- '*.c' | grep -v '^tools/' | sed 's/\.c$/.o/')
case " $(git -C "$src" diff --name-only "$base" FETCH_HEAD | tr '\n' ' ')" in
*" mm/tests/swapfile_kunit.h "*) objs="$objs mm/swapfile.o" ;;
esac
objs=$(echo "$objs" | tr ' ' '\n' | sort -u | tr '\n' ' ')

# warnings REV: the W=1 warnings of $objs at REV, without line numbers.
warnings() {
	warnings_at "$src" "$obj" "$(kernel_obj patched debug)/.config" "$1" "$objs" \
		CC="ccache gcc" W=1
}

mkdir -p "$obj"
say "prefix builds of:$objs (log: $log)"
warnings "$base" >"$obj/base.w" || die "the base does not build $objs (see $log)"
n=0
for c in $(git -C "$src" rev-list --reverse "$base..FETCH_HEAD"); do
	n=$((n + 1))
	subj=$(git -C "$src" log -1 --format=%s "$c")
	if ! warnings "$c" >"$obj/p.w"; then
		result "prefix $n builds ($subj)" 1 "build failed (see $log)"
		continue
	fi
	new=$(comm -13 "$obj/base.w" "$obj/p.w")
	[ -z "$new" ]
	result "prefix $n builds W=1 clean ($subj)" $? "$new"
	# The kselftest programs it touches, through their Makefile (-Wall
	# there), with -Werror.
	for t in $(git -C "$src" diff --name-only "$c^" "$c" -- 'tools/testing/selftests/mm/*.c'); do
		p=$(basename "$t" .c)
		if ! grep -Eq "^TEST_GEN_(FILES|PROGS) \+= $p\$" "$src/tools/testing/selftests/mm/Makefile"; then
			echo "# prefix $n: $t is not a program of the mm selftests' Makefile; not built alone"
			continue
		fi
		EXTRA_CFLAGS=-Werror selftests_make "$src" "$obj/selftests" \
			"$(kernel_obj patched debug)/usr/include" "$p" >>"$log" 2>&1
		result "prefix $n builds selftests/mm/$p -Wall -Werror" $? "see $log"
	done
done
git -C "$src" checkout -q -f --detach FETCH_HEAD
results_end
