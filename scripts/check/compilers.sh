#!/bin/sh
# check-full: the files the series touches, built by sparse (make C=1),
# by clang (LLVM=-19, W=1) and by gcc W=1 for each other architecture
# config/ describes (arm64, i386), base against the whole series: no
# warning the base does not have.  Each in the configuration of the
# matching test kernel, configured here (kernel.sh CONFIG_ONLY=1), so
# that no kernel need have been built first.  One result line per check.
set -u
. "$(dirname "$0")/../lib.sh"
pass=0 fail=0
"$TOP/scripts/kernel/deps.sh" sparse clang-19 lld-19 llvm-19 || die "cannot install sparse and clang-19"
base_tree
base=$base_commit
work_tree 2>/dev/null || die "no work tree"
work=$WORK
src=$BUILD/compilers-src
log=$BUILD/logs/compilers.log
: >"$log"
[ -d "$src/.git" ] || git clone -q --shared "$work" "$src" || die "cannot clone $work"
git -C "$src" fetch -q "$work" HEAD || die "cannot fetch $work"
objs=$(git -C "$src" diff --name-only "$base" FETCH_HEAD -- '*.c' | grep -v '^tools/' | sed 's/\.c$/.o/' |
	tr '\n' ' ')

# config ARCH FLAVOR: the .config of that patched test kernel, made now.
config() {
	build_kernel patched "$2" ARCH="$1" CONFIG_ONLY=1 2>>"$log" &&
		echo "$(ARCH=$1 kernel_obj patched "$2")/.config"
}

# setup TOOL: obj, the build directory of TOOL, and cfg, the .config of
# the matching test kernel, made once for both revisions.
setup() {
	case $1 in
	sparse | clang)
		obj=$BUILD/obj/$(arch_native)-$1
		cfg=$(config "$(arch_native)" debug) || return 1
		;;
	*)
		_arch=${ARCH-}
		ARCH=$1
		arch_load
		ARCH=$_arch
		ARCH=$1 "$TOP/scripts/kernel/deps.sh" >>"$log" 2>&1 || return 1
		obj=$BUILD/obj/$1-w1
		cfg=$(config "$1" "$arch_flavor") || return 1
		;;
	esac
}

# warnings TOOL REV: the warnings TOOL gives for $objs at REV, without
# line numbers (sparse: C=1 with gcc; clang: LLVM=-19 W=1; arm64, i386:
# gcc W=1), in $obj with $cfg: setup TOOL must have run.
warnings() {
	case $1 in
	# Debian 12's sparse 0.6.4 does not know __typeof_unqual__, and the
	# kernel turns C=1 off without it: treat it as __typeof__ (which only
	# keeps qualifiers), the same on both sides of the comparison.
	sparse) set -- "$2" C=1 CHECK="sparse -D__typeof_unqual__=__typeof__" ;;
	clang) set -- "$2" LLVM=-19 W=1 ;;
	*) set -- "$2" ARCH="$1" CROSS_COMPILE="$arch_cross" W=1 ;;
	esac
	rev=$1
	shift
	warnings_at "$src" "$obj" "$cfg" "$rev" "$objs" "$@"
}

for tool in ${TOOLS:-sparse clang $(arch_others)}; do
	say "$tool on:$objs (log: $log)"
	if ! setup $tool; then
		result "$tool is configured" 1 "see $log"
		continue
	fi
	if ! warnings $tool "$base" >"$BUILD/logs/$tool-base.w"; then
		result "$tool builds the base" 1 "see $log"
		continue
	fi
	if ! warnings $tool FETCH_HEAD >"$BUILD/logs/$tool-series.w"; then
		result "$tool builds the series" 1 "see $log"
		continue
	fi
	new=$(comm -13 "$BUILD/logs/$tool-base.w" "$BUILD/logs/$tool-series.w")
	[ -z "$new" ]
	result "$tool: no new warning in the touched files" $? "$new"
done
git -C "$src" checkout -q -f --detach FETCH_HEAD
results_end
