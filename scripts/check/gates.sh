#!/bin/sh
# Review gates on series/: it applies, and every patch (and every
# prerequisite stand-in) is checkpatch --strict clean (no error, warning
# or check), within the 80 columns the mm code around it keeps (checkpatch
# allows 100; mm reviewers ask for 80).
set -u
. "$(dirname "$0")/../lib.sh"
pass=0 fail=0
mkdir -p "$BUILD/logs"
work=
work_tree 2>"$BUILD/logs/gates-apply.log" && work=$WORK
if [ -d "$work/.git" ]; then
	result series-applies 0
	# A base without history (Debian's source package is one commit)
	# cannot know the upstream commits a changelog cites; a user's own
	# tree (KERNEL_SRC) with history gets the check.
	cp_opts="--strict --no-color --max-line-length=80"
	base_tree
	[ "$(git -C "$work" rev-list --count "$base_commit" 2>/dev/null)" = 1 ] &&
		cp_opts="$cp_opts --ignore UNKNOWN_COMMIT_ID"
	for p in $("$TOP/scripts/kernel/tree.sh" prereqs) $("$TOP/scripts/kernel/tree.sh" patches); do
		n=${p##*/}
		out=$(cd "$work" && perl scripts/checkpatch.pl $cp_opts "$p" 2>&1)
		total=$(printf '%s\n' "$out" | grep -E '^total: ' | tail -n1)
		case $total in
		"total: 0 errors, 0 warnings, 0 checks,"*) result "checkpatch $n" 0 ;;
		*) result "checkpatch $n" 1 "${total:-checkpatch did not run}"
		   printf '%s\n' "$out" | grep -E '^(ERROR|WARNING|CHECK):' | sed 's/^/#   /' ;;
		esac
	done
	# kernel-doc: no warning in the touched C files that the base lacks.
	"$TOP/scripts/kernel/tree.sh" base >/dev/null 2>&1
	"$TOP/scripts/check/kdoc-new.sh" "$BASE_SRC" "$work" $(git -C "$work" diff \
		--name-only "$base_commit" HEAD -- '*.c' '*.h' | grep -v '^tools/') \
		>"$BUILD/logs/kdoc.log" 2>&1
	grep -E '^(not )?ok ' "$BUILD/logs/kdoc.log"
	grep -q '^ok kernel-doc-runs$' "$BUILD/logs/kdoc.log" ||
		result kernel-doc 1 "kdoc-new.sh gave no verdict (see build/logs/kdoc.log)"
	# What config/ARCH.config shares with kunit.py's QEMU configuration
	# of the tree (the QEMU binary, the console, the image) agrees with
	# it; the rest of the file is ours (docs/checks.md says why).
	native=${ARCH-}
	for ARCH in $(arch_list); do
		arch_load
		[ -n "$arch_qemu" ] || continue
		kq=$work/tools/testing/kunit/qemu_configs/$ARCH.py
		q=$(sed -n "s/.*qemu_arch='\([^']*\)'.*/qemu-system-\1/p" "$kq" 2>/dev/null)
		c=$(sed -n "s/.*kernel_command_line='[^']*console=\([^ ']*\).*/\1/p" "$kq" 2>/dev/null)
		i=$(sed -n "s/.*kernel_path='\([^']*\)'.*/\1/p" "$kq" 2>/dev/null)
		case "$q $c $i" in
		"$arch_qemu $arch_console $arch_image"*) result "arch-$ARCH-as-kunit" 0 ;;
		*) result "arch-$ARCH-as-kunit" 1 \
			"config/$ARCH.config has $arch_qemu $arch_console $arch_image, ${kq#"$work"/} '$q $c $i'" ;;
		esac
	done
	ARCH=$native
	[ -n "$ARCH" ] || unset ARCH
else
	result series-applies 1 "$(tail -n1 "$BUILD/logs/gates-apply.log")"
fi
results_end
