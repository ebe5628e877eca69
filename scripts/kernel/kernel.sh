#!/bin/sh
# kernel.sh: build a test kernel, at lib.sh's kernel_image VARIANT FLAVOR
# (OBJ_NAME in place of VARIANT when set); it prints only progress, on
# stderr.
#   VARIANT=base|patched   which tree (base commit, or the work tree)
#   FLAVOR=plain|debug|kcsan|lockstat|profile|noswap|kunit (kunit: the suites,
#   no debug options; profile: plain with the function graph tracer)
#   ARCH=x86_64|i386|arm64|... (config/ARCH.config says how: arch_load)
#   CONFIG_ONLY=1  configure only: the .config in kernel_obj VARIANT FLAVOR
set -eu
. "$(dirname "$0")/../lib.sh"
: "${VARIANT:=patched}"
: "${FLAVOR:=plain}"
: "${JOBS:=$(nproc)}"
arch_load
cc=$arch_cc image=$arch_image
[ -z "$arch_cross" ] || export CROSS_COMPILE="$arch_cross"
need make "$cc" flex bison bc ccache
case $VARIANT in
base) "$TOP/scripts/kernel/tree.sh" base >&2 || exit 1; src=$BASE_SRC ;;
patched) work_tree || exit 1; src=$WORK ;;
mutant) src=${SRC_TREE:?VARIANT=mutant needs SRC_TREE} ;;
*) die "VARIANT must be base or patched, not '$VARIANT'" ;;
esac
frags="$TOP/config/$ARCH.config"
case $FLAVOR in
plain) ;;
lockstat | profile) frags="$frags $TOP/config/$FLAVOR.config" ;;
noswap) frags="$frags $TOP/config/noswap.config" ;;
kunit) frags="$frags $TOP/config/kunit.config $TOP/config/series.config" ;;
debug | kcsan) frags="$frags $TOP/config/kunit.config $TOP/config/series.config $TOP/config/$FLAVOR.config" ;;
*) die "FLAVOR must be plain, debug, kcsan, lockstat, profile, noswap or kunit, not '$FLAVOR'" ;;
esac
for f in $frags; do [ -r "$f" ] || die "missing config fragment $f"; done

obj=$(kernel_obj "${OBJ_NAME:-$VARIANT}" "$FLAVOR")
mkdir -p "$obj" "$BUILD/logs"
log=$BUILD/logs/build-$ARCH-${OBJ_NAME:-$VARIANT}-$FLAVOR.log
use_ccache
export CCACHE_SLOPPINESS=time_macros
export KBUILD_BUILD_TIMESTAMP="Thu Jan  1 00:00:00 UTC 2026"
export KBUILD_BUILD_USER=swapq KBUILD_BUILD_HOST=swapq
mk() { make -s -C "$src" O="$obj" ARCH="$ARCH" CC="ccache $cc" "$@"; }
# build TARGET...: make TARGET with kbuild's one line per file going to the
# log, and a line a minute here saying how far it got (a cold debug build
# takes a quarter of an hour).
build() {
	_from=$(($(wc -l <"$log") + 1))
	make -C "$src" O="$obj" ARCH="$ARCH" CC="ccache $cc" -j"$JOBS" "$@" >>"$log" 2>&1 &
	_pid=$!
	# A background job ignores ^C: take make down with us.
	trap 'kill "$_pid" 2>/dev/null; exit 130' INT TERM HUP
	_n=0
	while kill -0 "$_pid" 2>/dev/null; do
		sleep 5
		_n=$((_n + 1))
		[ $((_n % 12)) -ne 0 ] ||
			say "... $*: $(tail -n "+$_from" "$log" | grep -cE '^  (CC|AS|LD|AR) ') files built, $(($(date +%s) - t0)) s"
	done
	trap - INT TERM HUP
	wait "$_pid"
}

say "configuring $VARIANT/$FLAVOR kernel in $obj"
# Regenerate into a scratch directory; replace .config only on change so
# incremental builds stay incremental.
cfg=$obj/swapq-cfg
rm -rf "$cfg"
mkdir -p "$cfg"
mk KCONFIG_CONFIG="$cfg/.config" allnoconfig >>"$log" 2>&1 || die "allnoconfig failed (see $log)"
(cd "$cfg" && "$src/scripts/kconfig/merge_config.sh" -m -O "$cfg" "$cfg/.config" $frags) >>"$log" 2>&1 ||
	die "merge_config failed (see $log)"
mk KCONFIG_CONFIG="$cfg/.config" olddefconfig >>"$log" 2>&1 || die "olddefconfig failed (see $log)"
"$TOP/scripts/kernel/config-check.sh" "$cfg/.config" "$src" $frags
cmp -s "$cfg/.config" "$obj/.config" || cp "$cfg/.config" "$obj/.config"
[ "${CONFIG_ONLY:-}" != 1 ] || exit 0

say "building $ARCH $VARIANT/$FLAVOR ${image##*/} (log: $log)"
t0=$(date +%s)
build "${image##*/}" || { tail -n 20 "$log" >&2; die "kernel build failed (see $log)"; }
# The modules (zram, brd) go to swapq-modules/lib/modules/<release>, where
# boot.sh finds them for the guest's /lib/modules.  They are installed
# again only when the image or a module is newer than the last install:
# another run that only checks the kernel is built (a second benchmark
# started beside the first) must not take them from a guest being booted.
stamp=$obj/swapq-modules/.installed
if grep -qx CONFIG_MODULES=y "$obj/.config"; then
	need depmod
	build modules || { tail -n 20 "$log" >&2; die "module build failed (see $log)"; }
	if [ ! -f "$stamp" ] || [ "$obj/$image" -nt "$stamp" ] ||
		[ -n "$(find "$obj" -name '*.ko' -newer "$stamp" -print 2>/dev/null | head -n1)" ]; then
		rm -rf "$obj/swapq-modules"
		mk INSTALL_MOD_PATH="$obj/swapq-modules" modules_install >>"$log" 2>&1 ||
			die "modules_install failed (see $log)"
		touch "$stamp"
	fi
else
	rm -rf "$obj/swapq-modules"
fi
# The uapi headers, for the kselftests built against this kernel.
mk headers >>"$log" 2>&1 || die "make headers failed (see $log)"
say "built in $(($(date +%s) - t0)) s: $obj/$image"
