# Common helpers for the harness scripts (POSIX sh).  Source, don't run.

# Where the harness keeps state that outlives a clone: the downloaded
# package, the deterministic base repository and the ccache.
: "${SWAPQ_CACHE:=${XDG_CACHE_HOME:-$HOME/.cache}/swapq}"
# Scripts live in scripts/JOB/, so the top is two levels above $0.
: "${TOP:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${BUILD:=$TOP/build}"
export SWAPQ_CACHE TOP BUILD
# Where tree.sh makes the work tree (base commit + prereqs/ + series/)
# and the base tree.
: "${WORK:=$BUILD/work}" "${BASE_SRC:=$BUILD/src-base}"

# A fixed identity for the commits the harness itself makes (CI has none).
export GIT_AUTHOR_NAME="swapq harness" GIT_AUTHOR_EMAIL="swapq@localhost"
export GIT_COMMITTER_NAME="swapq harness" GIT_COMMITTER_EMAIL="swapq@localhost"
# Messages we parse and files we sort come out the same under any locale.
export LC_ALL=C

# The one list of what a test guest runs unless told otherwise: the sanity
# checks and the series' kselftests through their own runner
# (guest/tests/vmtests-swap), and the kselftests the series adds, which are
# built into the guest for it.  The Makefile reads both lines.
SERIES_TESTS=sanity,vmtests-swap
SERIES_SELFTESTS="swapoff swap_devices"
# What make check's guest runs, to fit CI's time on a machine whose QEMU
# TCG is slow: the swapoff kselftest whole, the swap_devices cases of
# guest/tests/check-swap_devices, and both run as a user other than root
# (guest/tests/user-skips); make check-full's guest runs SERIES_TESTS as
# well.
: "${CHECK_TESTS:=sanity,swapoff,check-swap_devices,user-skips}"
# The kselftests on a machine like a user's (make check-full): beside swap
# and zram of its own, and stopped by ^C, SIGTERM and SIGKILL half way,
# then run again; and the KUnit suites run again through debugfs beside
# the machine's own swap and hibernation device lookups (kunit-live); and
# the mm selftests installed as a user installs them and run through
# run_kselftest.sh (user-install).
: "${USER_TESTS:=user-own-swap,user-interrupt,kunit-live,user-install}"
# The swapoff kselftest's sizes in a guest under TCG (boot.sh): those the
# guest stages were timed with; its defaults are for a VM under KVM.
TCG_SWAPOFF_SIZES="SWAPOFF_ZRAM_DISK_MB=4096 SWAPOFF_ZRAM_FILLS_MB=16,64,256"
# guest_append ACCEL APPEND: the guest kernel's extra command line.  The
# swapoff kselftest's default sizes are for a VM under KVM (a 16 GiB zram
# device filled to 4 GiB); under TCG the guest gets TCG_SWAPOFF_SIZES,
# unless APPEND sets SWAPOFF_ sizes itself.  The kernel hands the
# KEY=VALUE words it does not know to init, as its environment.
guest_append() {
	case "$1 $2" in
	tcg*SWAPOFF_*) echo "$2" ;;
	tcg*) echo "${2:+$2 }$TCG_SWAPOFF_SIZES" ;;
	*) echo "$2" ;;
	esac
}
# quick_cases FILE: the kselftest cases a guest/tests/quick-* or check-*
# wrapper selects (its -t NAME arguments), one per line.
quick_cases() {
	grep -o -- '-t [a-z_0-9]*' "$1" | cut -c4-
}
# cases_passed LOG NAME TESTS: for each guest test of TESTS (a,b,... as
# boot.sh takes them) that selects kselftest cases, a result NAME-CASE per
# case: it ran and passed in the results LOG (a name the kselftest lacks
# would select nothing).
cases_passed() {
	_log=$1 _name=$2
	for _t in $(echo "$3" | tr , ' '); do
		case $_t in quick-* | check-*) ;; *) continue ;; esac
		for _c in $(quick_cases "$TOP/guest/tests/$_t"); do
			tr -d '\r' <"$_log" |
				grep -Eq "^ *ok [0-9]+ ([a-z_0-9]+\.)+${_c}[[:space:]]*\$"
			result "$_name-$_c" $? "$_t's case $_c did not pass (see $_log)"
		done
	done
}
# How long a guest that runs them on the debug kernel may take before
# it counts as hung: a hang guard, not a speed limit (swap_devices.discard
# alone may take 900 s by its own TEST_F_TIMEOUT).  QEMU TCG's speed
# differs between machines of one kind: the guest stage took 1148 s on
# one and 2524 s on another, where base + tests took 2420 s.
: "${GUEST_TIMEOUT:=5400}"

# guest_timeout TESTS CONFIG: boot.sh's hang guard when it is given no
# TIMEOUT, from the guest tests (a,b,...) and the kernel's .config CONFIG:
# GUEST_TIMEOUT for tests that run kselftests or workloads on a kernel
# with KASAN, KCSAN or lockdep (every case took up to 2524 s there under
# TCG), a third of it on another kernel (the same programs ran 2-10x
# faster without them), 600 s for the short checks (sanity, lkdtm-*,
# bad-input, resume-missed).
guest_timeout() {
	_long=
	for _t in $(echo "$1" | tr , ' '); do
		case $_t in sanity | lkdtm-* | bad-input | resume-missed) ;; *) _long=1 ;; esac
	done
	if [ -z "$_long" ]; then
		echo 600
	elif grep -Eqx 'CONFIG_(KASAN|KCSAN|PROVE_LOCKING)=y' "$2" 2>/dev/null; then
		echo "$GUEST_TIMEOUT"
	else
		echo $((GUEST_TIMEOUT / 3))
	fi
}

# pgit ARGS...: git with nothing taken from the machine: no system or user
# configuration (apply.whitespace, diff.algorithm, core.autocrlf, format.*
# would change what is applied or written), and object names abbreviated
# to a fixed length.  Left to itself git derives the length from how many
# objects it thinks the repository holds, which changes when the
# repository is packed: 7 characters right after the base is committed,
# 9 once it is packed.  12 is what the kernel's own process asks for.
pgit() {
	GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null \
		git -c core.abbrev=12 "$@"
}

die() {
	printf '%s: error: %s\n' "${0##*/}" "$*" >&2
	exit 1
}

# The scripts that make trees and kernels hand nothing back in what they
# print (their progress goes to stderr): the tree is $WORK or $BASE_SRC,
# a kernel is build_kernel's built_image (kernel_image, built or not), a
# static program at debian_static_path.

# work_tree: make $WORK, or bring it up to date with series/.
work_tree() {
	"$TOP/scripts/kernel/tree.sh" work >&2
}

# build_kernel VARIANT FLAVOR [VAR=VALUE...]: build that test kernel
# (kernel.sh, with the settings given) and set built_image to its image,
# kernel_image VARIANT FLAVOR (OBJ_NAME in place of VARIANT, and the ARCH,
# when given); built_image is empty when the build fails.
build_kernel() {
	_bv=$1 _bf=$2 _bn=$1 _ba=${ARCH:-}
	shift 2
	for _b; do
		case $_b in
		OBJ_NAME=*) _bn=${_b#OBJ_NAME=} ;;
		ARCH=*) _ba=${_b#ARCH=} ;;
		esac
	done
	built_image=
	env VARIANT="$_bv" FLAVOR="$_bf" "$@" "$TOP/scripts/kernel/kernel.sh" >&2 || return 1
	built_image=$(ARCH=$_ba kernel_image "$_bn" "$_bf")
}

# arch_load: the settings of $ARCH (default x86_64) as arch_KEY variables,
# from the "#@ key=value" lines of config/$ARCH.config.  Everything the
# harness knows about an architecture is in that one file: the cross
# compiler prefix, the image, its Debian packages, QEMU and its arguments
# (empty qemu: built, not booted), QEMU's -cpu under TCG (cpu), the host
# (uname -m) whose KVM runs it (kvm_host) and -cpu there (kvm_cpu), the
# console, the results channel
# (serial: a second serial port; virtio: a virtio console), the
# clocksource a sound guest reports, extra kernel arguments, whether the
# guest's qexit can end QEMU with a status, which Debian architecture's
# busybox and bash the guest takes (empty: the host's) and the `file`
# name of its programs.  Adding an architecture is one new file.
arch_load() {
	: "${ARCH:=$(arch_native)}"
	_af=$TOP/config/$ARCH.config
	grep -q '^#@ image=' "$_af" 2>/dev/null ||
		die "unknown ARCH '$ARCH' (known: $(arch_list))"
	arch_cross= arch_image= arch_packages= arch_qemu= arch_qemu_args= arch_console=
	arch_results= arch_clocksource= arch_append= arch_qexit= arch_debian_arch= arch_elf=
	arch_cpu= arch_kvm_host= arch_kvm_cpu=
	eval "$(sed -n 's/^#@ \([a-z_]*\)=/arch_\1=/p' "$_af")"
	arch_cc=${arch_cross}gcc
	# The test kernel another architecture gets: the debug one where it
	# boots, the KUnit suites without debug options where it only builds.
	arch_flavor=kunit
	[ -z "$arch_qemu" ] || arch_flavor=debug
}

# kernel_image VARIANT FLAVOR: where kernel.sh puts that test kernel's
# image for $ARCH, built or not (check.py builds what a stage needs).
kernel_image() {
	arch_load
	echo "$(kernel_obj "$1" "$2")/$arch_image"
}

# kernel_obj VARIANT FLAVOR: that test kernel's object directory (its
# .config, its headers).
kernel_obj() {
	echo "$BUILD/obj/${ARCH:-$(arch_native)}-$1-$2"
}

# debian_static_path PACKAGE FILE: where debian-static.sh keeps FILE of
# Debian's PACKAGE for $ARCH's guest, fetched or not.
debian_static_path() {
	arch_load
	echo "$SWAPQ_CACHE/$arch_debian_arch/$1/${2##*/}"
}

# static_prog NAME: the path of a statically linked NAME (busybox, bash)
# for the host architecture's guest: $NAME_STATIC (BUSYBOX_STATIC,
# BASH_STATIC) if set, else NAME-static or NAME on PATH or in /bin, the
# first that is static.  Debian's busybox-static and bash-static give
# /bin/busybox and /bin/bash-static.
static_prog() {
	eval "_s=\${$(echo "$1" | tr a-z A-Z)_STATIC:-}"
	for _c in "$_s" "$(command -v "$1-static" 2>/dev/null)" "/bin/$1-static" \
		"$(command -v "$1" 2>/dev/null)" "/bin/$1"; do
		[ -n "$_c" ] && [ -x "$_c" ] || continue
		file -L "$_c" 2>/dev/null | grep -Eq 'statically linked|static-pie linked' || continue
		echo "$_c"
		return 0
	done
	return 1
}

# qemu_boot LOG TIMEOUT ACCEL CPU KERNEL INITRD TESTS: boot KERNEL with
# INITRD under QEMU's -accel ACCEL and -cpu CPU (none if empty), the guest
# running TESTS (swapq.tests=); the console goes to LOG.console.log, the
# results channel to LOG.results.log, QEMU's own output to LOG.qemu.log.
# SMP, MEM, QEMU_EXTRA and APPEND come from the environment.  Returns
# QEMU's status (124 or 137: timed out).
qemu_boot() {
	_l=$1 _to=$2 _acc=$3 _cpu=$4 _k=$5 _i=$6 _tests=$7
	set --
	case $arch_results in
	serial) set -- -serial "file:$_l.console.log" -serial "file:$_l.results.log" ;;
	virtio) set -- -serial "file:$_l.console.log" -chardev "file,id=res,path=$_l.results.log" \
		-device virtio-serial-device -device virtconsole,chardev=res ;;
	*) die "config/$ARCH.config: results=$arch_results is neither serial nor virtio" ;;
	esac
	[ -z "$_cpu" ] || set -- -cpu "$_cpu" "$@"
	rm -f "$_l.console.log" "$_l.results.log"
	# --foreground: timeout(1) would otherwise put itself and QEMU in a
	# process group of their own, which a ^C at the terminal never
	# reaches: the guest would run on, up to its timeout, after the run
	# that booted it was stopped.  (busybox's timeout has no such option
	# and no group of its own either.)
	_fg=--foreground
	timeout --foreground 1 true 2>/dev/null || _fg=
	# shellcheck disable=SC2086 # QEMU_EXTRA and arch_qemu_args are lists of arguments
	timeout $_fg -k 10 "$_to" "$arch_qemu" -accel "$_acc" $arch_qemu_args "$@" ${QEMU_EXTRA:-} \
		-smp "$SMP" -m "$MEM" -kernel "$_k" -initrd "$_i" -nographic -no-reboot -monitor none \
		-append "console=$arch_console panic=-1 $arch_append loglevel=7 hung_task_timeout_secs=20 swapq.tests=$_tests ${APPEND:-}" \
		</dev/null >"$_l.qemu.log" 2>&1
}

# kvm_unusable: why KVM cannot run a guest of $ARCH here (and status 0);
# status 1 when it may.  KVM_DEV stands in for /dev/kvm in the tests.
kvm_unusable() {
	_dev=${KVM_DEV:-/dev/kvm}
	if [ -z "$arch_kvm_host" ]; then
		echo "config/$ARCH.config names no host whose KVM runs it"
	elif [ "$arch_kvm_host" != "$(uname -m)" ]; then
		echo "the guest is $ARCH, this host $(uname -m)"
	elif [ ! -e "$_dev" ]; then
		echo "there is no $_dev"
	elif [ ! -r "$_dev" ] || [ ! -w "$_dev" ]; then
		echo "$_dev is not readable and writable by $(id -un) (the kvm group?)"
	else
		return 1
	fi
}

# accel_probe KERNEL INITRD: sets accel to kvm when a boot of KERNEL
# under KVM with no tests finishes within PROBE_TIMEOUT (60 s), to tcg
# otherwise, and accel_why to why.  A KVM that is there can still fail
# (a CPU model it cannot set up, an instruction it cannot emulate, a hang
# in the firmware): only a boot tells.  The verdict is kept per host, its
# kernel, QEMU and CPU, in $SWAPQ_CACHE/accel/; PROBE=1 probes afresh.
accel_probe() {
	accel=tcg
	accel_why=$(kvm_unusable) && return 0
	_key=$({
		uname -r
		"$arch_qemu" --version 2>/dev/null | head -n1
		grep -m1 -E '^(model name|CPU part)' /proc/cpuinfo
		echo "$ARCH $arch_kvm_cpu ${KVM_DEV:-}"
	} | cksum | cut -d' ' -f1)
	_cf=$SWAPQ_CACHE/accel/$ARCH-$_key
	if [ ! -s "$_cf" ] || [ "${PROBE:-}" = 1 ]; then
		mkdir -p "$SWAPQ_CACHE/accel" "$BUILD/logs"
		_pl=$BUILD/logs/accel-probe
		_pt=${PROBE_TIMEOUT:-60}
		say "probing KVM: ${1##*/} booted with -accel kvm -cpu $arch_kvm_cpu (up to $_pt s)"
		_rc=0
		SMP=1 MEM=${MEM:-3G} QEMU_EXTRA= APPEND= qemu_boot "$_pl" "$_pt" kvm "$arch_kvm_cpu" "$1" "$2" "" || _rc=$?
		if grep -q SWAPQ-DONE "$_pl.results.log" 2>/dev/null; then
			echo kvm >"$_cf"
		elif [ "$_rc" -eq 124 ] || [ "$_rc" -eq 137 ]; then
			echo "tcg a boot under KVM did not finish in $_pt s" >"$_cf"
		else
			# QEMU's own error line says why ("failed to set MSR ..."),
			# not the "Aborted" after it.
			_e=$(grep -m1 'error' "$_pl.qemu.log" 2>/dev/null ||
				grep -v '^ *$' "$_pl.qemu.log" 2>/dev/null | tail -n1)
			echo "tcg a boot under KVM failed (QEMU status $_rc: $(echo "$_e" | cut -c1-160))" >"$_cf"
		fi
	fi
	read -r accel accel_why <"$_cf"
	[ "$accel" = kvm ] && accel_why="a boot under KVM finished"
	accel_why="$accel_why (probed once: $_cf)"
}

# accel_pick KERNEL INITRD: the accelerator of a boot from ACCEL: auto
# (the default: KVM where accel_probe finds that it boots KERNEL, TCG
# otherwise), kvm or tcg to force either, or QEMU's own -accel value
# (tcg,thread=single: icount_setup).  Sets accel (kvm or tcg), accel_arg
# (QEMU's -accel) and accel_cpu (its -cpu, from config/ARCH.config), and
# says which and why.
accel_pick() {
	: "${ACCEL:=auto}"
	case $ACCEL in
	auto) accel_probe "$1" "$2" ;;
	kvm | kvm,*)
		accel=kvm accel_why="ACCEL=$ACCEL"
		! _why=$(kvm_unusable) || die "ACCEL=$ACCEL, but $_why" ;;
	tcg | tcg,*) accel=tcg accel_why="ACCEL=$ACCEL" ;;
	*) die "ACCEL=$ACCEL: not auto, kvm or tcg (nor QEMU's kvm,... or tcg,...)" ;;
	esac
	case $accel:$ACCEL in
	kvm:kvm*) accel_arg=$ACCEL ;;
	kvm:*) accel_arg=kvm ;;
	tcg:tcg?*) accel_arg=$ACCEL ;;
	*) accel_arg=tcg,thread=multi ;;
	esac
	accel_cpu=$arch_cpu
	[ "$accel" = tcg ] || accel_cpu=$arch_kvm_cpu
	say "accelerator: $accel ($accel_why)"
}

# arch_list: the architectures config/ describes.
arch_list() {
	grep -l '^#@ image=' "$TOP"/config/*.config | sed 's|.*/||; s|\.config$||' | tr '\n' ' ' | sed 's/ $//'
}

# arch_native: the architecture config/ builds with no cross compiler and
# boots (its file says "cross=" with nothing and names a QEMU): the test
# kernels' by default.
arch_native() {
	for _f in $(grep -l '^#@ cross=$' "$TOP"/config/*.config); do
		grep -q '^#@ qemu=.' "$_f" || continue
		basename "$_f" .config
		return 0
	done
}

# arch_others: the architectures besides the native one: what the cross
# builds and the other compilers' builds cover.
arch_others() {
	arch_list | tr ' ' '\n' | grep -vx "$(arch_native)" | tr '\n' ' ' | sed 's/ $//'
}

# base_tree: base_repo and base_commit, the base tree's repository and
# commit as base.sh derives them (fetching it the first time); dies
# after base.sh's own error when there is none.
base_tree() {
	_b=$("$TOP/scripts/kernel/base.sh") || die "no base tree (base.sh failed)"
	set -- $_b
	[ $# -eq 2 ] || die "base.sh printed '$_b', not REPO COMMIT"
	base_repo=$1 base_commit=$2
}

# warnings_at SRC OBJ CONFIG REV OBJS MAKEARGS...: the warnings (and
# errors) the compiler or checker prints for each object of OBJS that REV
# has, built afresh at REV of SRC (a clone this checks out) in OBJ from
# CONFIG, with MAKEARGS for make; line numbers dropped so that revisions
# compare, sorted.  Make's output goes to $log.  Fails when an object does
# not build or when the checker did not run.  The prefix builds and
# compilers.sh compare the base's list with each revision's.
warnings_at() {
	_src=$1 _obj=$2 _cfg=$3 _rev=$4 _objs=$5
	shift 5
	[ -r "$_cfg" ] || { echo "no $_cfg: build that test kernel first" >&2; return 1; }
	git -C "$_src" checkout -q -f --detach "$_rev" || return 1
	mkdir -p "$_obj"
	cp "$_cfg" "$_obj/.config"
	make -s -C "$_src" O="$_obj" "$@" olddefconfig >>"$log" 2>&1 || return 1
	: >"$_obj/all.w"
	for _o in $_objs; do
		[ -f "$_src/${_o%.o}.c" ] || continue
		rm -f "$_obj/$_o"
		make -s -C "$_src" O="$_obj" "$@" "$_o" >>"$log" 2>"$_obj/w.txt" ||
			{ cat "$_obj/w.txt" >>"$log"; return 1; }
		cat "$_obj/w.txt" >>"$log"
		grep -E 'warning:|error:' "$_obj/w.txt" | sed -E 's/:[0-9]+:[0-9]+:/:/' >>"$_obj/all.w"
		if grep -q "is not available or not up to date" "$_obj/w.txt"; then
			echo "the checker did not run (see $log)" >&2
			return 1
		fi
	done
	sort -u "$_obj/all.w"
}

# selftests_make SRC OUT HEADERS PROG...: the mm kselftests PROG, built into
# OUT through SRC's tools/testing/selftests/mm/Makefile (its flags, its
# helpers, its config probe) as static programs for $ARCH, against the uapi
# headers in HEADERS (make headers of the kernel they will run on).
# EXTRA_CFLAGS passes through: the prefix builds add -Werror.
selftests_make() {
	_src=$1 _out=$2 _hdr=$3
	shift 3
	[ -d "$_hdr/linux" ] || { echo "no kernel uapi headers in $_hdr" >&2; return 1; }
	_t=
	for _p; do _t="$_t $_out/$_p"; done
	arch_load
	mkdir -p "$_out"
	# shellcheck disable=SC2086 # $_t is a list of targets
	make -s -C "$_src/tools/testing/selftests/mm" OUTPUT="$_out" ARCH="$ARCH" \
		CC="$arch_cc" LDFLAGS=-static KHDR_INCLUDES="-isystem $_hdr" \
		EXTRA_CFLAGS="${EXTRA_CFLAGS:-}" $_t
}

# ksft_install_for TESTS: 1 when a guest test of TESTS (a,b,...) runs the
# selftests from a user's install of them (guest/tests/user-install).
ksft_install_for() {
	case ",$1," in *,user-install,*) echo 1 ;; esac
}

# selftests_install SRC DIR HDR: the mm selftests of the tree SRC as a
# user installs them, `make -C tools/testing/selftests TARGETS=mm install`,
# into DIR, built against the uapi headers in HDR (the booted kernel's:
# copied alone into an O= directory, so that no kernel object or module
# of the tree is built) and statically linked for the libc-less guest.
# Needs rsync and, for some mm programs, libnuma's and libcap's static
# libraries (deps.sh libnuma-dev libcap-dev rsync).
selftests_install() {
	_src=$1 _dir=$2 _hdr=$3
	[ -d "$_hdr/linux" ] || { echo "no kernel uapi headers in $_hdr" >&2; return 1; }
	arch_load
	_o=$(mktemp -d) || return 1
	mkdir -p "$_o/usr" && cp -R "$_hdr" "$_o/usr/include" &&
		make -s -C "$_src/tools/testing/selftests" O="$_o" TARGETS=mm ARCH="$ARCH" \
			CC="$arch_cc" USERLDFLAGS=-static INSTALL_PATH="$_dir" install
	_rc=$?
	rm -rf "$_o"
	return $_rc
}

# alloc_workload: the allocation workload's parameters (bench-alloc and
# bench-lockstat): DISK_MB of zram in all, a memory cgroup of LIMIT_MB,
# WORKERS writing WORKER_MB each, in a guest of MEM with SMP vCPUs.  The
# defaults follow the host: a vCPU per host core (at least 2) and a worker
# per vCPU, zram for four times what they write, and a guest of 3 GiB or
# what the workers write plus 2 GiB, whichever is more, but no more than
# half the host's available memory.  On this 2-core machine: 2 vCPUs, 2
# workers of 256 MiB, 2 GiB of zram, 3 GiB.
alloc_workload() {
	_cores=$(nproc)
	: "${SMP:=$((_cores > 2 ? _cores : 2))}" "${LIMIT_MB:=128}" "${WORKER_MB:=256}"
	: "${WORKERS:=$SMP}"
	: "${DISK_MB:=$((WORKERS * WORKER_MB * 4 > 2048 ? WORKERS * WORKER_MB * 4 : 2048))}"
	if [ -z "${MEM:-}" ]; then
		_want=$((WORKERS * WORKER_MB + 2048))
		[ "$_want" -ge 3072 ] || _want=3072
		# Half the available memory, in whole GiB so that reruns agree.
		_avail=$(sed -n 's/^MemAvailable: *\([0-9]*\) kB/\1/p' "${MEMINFO:-/proc/meminfo}")
		_half=$((${_avail:-6291456} / 2097152 * 1024))
		[ "$_want" -le "$_half" ] || [ "$_half" -lt 1024 ] || _want=$_half
		MEM=${_want}M
		[ $((_want % 1024)) -ne 0 ] || MEM=$((_want / 1024))G
	fi
	export MEM SMP
}

# stage_bench_guest DIR NAME [KEY=VALUE...]: the guest side of a benchmark
# in DIR (GUEST_EXTRA): guest/bench/NAME, the program the guest runs, the
# shell functions it may source (/tests/bench-lib), usemem built static,
# and the benchmark's parameters as KEY='VALUE' lines in
# /tests/bench-params, which NAME sources.
stage_bench_guest() {
	_d=$1 _name=$2
	shift 2
	rm -rf "$_d"
	mkdir -p "$_d"
	arch_load
	"$arch_cc" -static -O2 -Wall -o "$_d/usemem" "$TOP/guest/bench/usemem.c" ||
		die "cannot build guest/bench/usemem.c"
	cp "$TOP/guest/bench/lib.sh" "$_d/bench-lib"
	cp "$TOP/guest/bench/$_name" "$_d/$_name" || die "no guest/bench/$_name"
	: >"$_d/bench-params"
	for _kv; do
		case ${_kv#*=} in
		*"'"*) die "bench parameter $_kv: no quotes, please" ;;
		esac
		printf "%s='%s'\n" "${_kv%%=*}" "${_kv#*=}" >>"$_d/bench-params"
	done
}

# bench_start KIND: a benchmark run begins: out (build/bench, made),
# csv (out/KIND.csv) and t_start (now, in seconds) set.
bench_start() {
	out=$BUILD/bench
	csv=$out/$1.csv
	mkdir -p "$out"
	t_start=$(date +%s)
}

# source_id: what the test kernels are built from, the tree of each
# commit of the work tree and its uncommitted changes (the stages'
# SOURCE, scripts/check/check.py): a changelog is no part of it.
source_id() {
	python3 "$TOP/scripts/check/check.py" --source-id
}

# bench_csv PARAMS HEADER: $csv, a benchmark's raw data, kept for a rerun
# to resume when it was made with PARAMS from the same source (source_id),
# started over (a "# PARAMS" line, then the CSV HEADER) when not; FRESH=1
# always starts over.
bench_csv() {
	# The accelerator both_kernels fixed: a run under another starts over,
	# so that one comparison never mixes KVM and TCG timings; nor does a
	# rerun mix kernels built from another series.
	_src=$(source_id) || die "cannot read the work tree's source"
	set -- "$1 accel=${accel:?both_kernels first} source=$_src" "$2"
	[ "${FRESH:-}" = 1 ] && rm -f "$csv"
	if [ -f "$csv" ] && ! grep -qxF "# $1" "$csv"; then
		say "${csv#"$BUILD"/} was made with other parameters; starting over"
		rm -f "$csv"
	fi
	[ -f "$csv" ] || printf '# %s\n%s\n' "$1" "$2" >"$csv"
}

# both_kernels FLAVOR: the build dependencies installed, then the base and
# the patched kernel of FLAVOR built; sets kb and kp to their images.  The
# accelerator is picked once (accel_pick, with the base kernel) and ACCEL
# exported as picked, so that every boot of the run has the same one.
both_kernels() {
	"$TOP/scripts/kernel/deps.sh" || die "cannot install the build dependencies"
	build_kernel base "$1" || die "base $1 kernel build failed"
	kb=$built_image
	build_kernel patched "$1" || die "patched $1 kernel build failed"
	kp=$built_image
	arch_load
	_pi=$BUILD/initramfs-probe.cpio.gz
	[ "${ACCEL:-auto}" != auto ] || SELFTESTS= MODULES= "$TOP/scripts/kernel/initramfs.sh" "$_pi" ||
		die "cannot build the initramfs of the KVM probe"
	accel_pick "$kb" "$_pi"
	ACCEL=$accel_arg
	export ACCEL
}

# bench_reps KIND TEST COLLECTOR CSV FLAVOR NAME...: boot each test
# kernel NAME (its image at kernel_image NAME FLAVOR: base, patched, or a
# prefix_kernel's NAME) $REPS times, in an order that rotates from one
# rep to the next, running the guest test TEST as
# build/logs/bench-KIND-NAME-REP.*, and append what scripts/bench/COLLECTOR
# collects from it to CSV.  Runs already in CSV are skipped, so a rerun
# resumes.  The guest's other settings come from the environment (SRC,
# SELFTESTS, GUEST_EXTRA, TIMEOUT).
bench_reps() {
	_csv=$4 _flavor=$5
	_kind=$1 _test=$2 _collector=$3
	shift 5
	rep=1
	while [ "$rep" -le "$REPS" ]; do
		order=$*
		i=1
		while [ "$i" -lt "$rep" ]; do
			order="${order#* } ${order%% *}"
			i=$((i + 1))
		done
		for k in $order; do
			if grep -q "^$k,$rep," "$_csv"; then
				say "rep $rep $k: already in $_csv"
				continue
			fi
			img=$(kernel_image "$k" "$_flavor")
			name=bench-$_kind-$k-$rep
			say "rep $rep/$REPS: $k kernel"
			"$TOP/scripts/kernel/boot.sh" "$img" "$_test" "$name" >"$BUILD/logs/$name.out" 2>&1 ||
				{ cat "$BUILD/logs/$name.out" >&2; die "benchmark run $name failed (see build/logs/$name.*)"; }
			python3 "$TOP/scripts/bench/$_collector" collect --kernel "$k" --rep "$rep" \
				--results "$BUILD/logs/$name.results.log" >>"$_csv" ||
				die "no results in build/logs/$name.results.log"
		done
		rep=$((rep + 1))
	done
}

# icount_setup: with ICOUNT=1, the guests run under QEMU's -icount
# shift=0, which makes TCG single-threaded and the guest clock count the
# instructions executed: guest time then measures the path the kernel
# runs, not the host's load (nor contention between vCPUs).
icount_setup() {
	[ -n "${ICOUNT:-}" ] || return 0
	ACCEL=tcg,thread=single QEMU_EXTRA="${QEMU_EXTRA:-} -icount shift=0,sleep=off"
	export ACCEL QEMU_EXTRA
}

# bench_counts NAME COLUMNS: a benchmark that counts rather than times
# (bench-mthp, bench-prio): guest/tests/NAME in REPS (3) interleaved boots
# of the base and the patched plain kernel; the rows scripts/bench/
# bench_NAME.py collects (COLUMNS, after kernel,rep) go to
# build/bench/NAME.csv (a rerun resumes; FRESH=1 starts over) and its
# report to build/bench/NAME.txt.  ICOUNT=1: under -icount (icount_setup).
bench_counts() {
	: "${REPS:=3}" "${MEM:=3G}" "${SMP:=2}"
	export MEM SMP
	out=$BUILD/bench
	csv=$out/$1.csv
	mkdir -p "$out"
	icount_setup
	both_kernels plain
	bench_csv "smp=$SMP mem=$MEM${ICOUNT:+ icount}" "kernel,rep,$2,cpus,clocksource"
	SELFTESTS= TIMEOUT=${BENCH_TIMEOUT:-900}
	export SELFTESTS TIMEOUT
	bench_reps "$1" "$1" "bench_$1.py" "$csv" plain base patched
	python3 "$TOP/scripts/bench/bench_$1.py" report --csv "$csv" | tee "$out/$1.txt"
}

# use_ccache: the shared compiler cache, with paths relative to $BUILD so
# that clones in other directories hit it too.
use_ccache() {
	export CCACHE_DIR="${CCACHE_DIR:-$SWAPQ_CACHE/ccache}" \
		CCACHE_BASEDIR=$BUILD CCACHE_NOHASHDIR=1
}

# series_log WORK FORMAT: FORMAT (git log's) of each patch of WORK's
# series, counted after the prerequisites, first patch first.
series_log() {
	_from=$("$TOP/scripts/kernel/tree.sh" prereq-tip) || return 1
	git -C "$1" log --reverse --format="$2" "$_from..HEAD"
}

# series_commit WORK N: WORK's commit of patch N of series/; empty if the
# series is shorter.
series_commit() {
	series_log "$1" %H | sed -n "${2}p"
}

# series_number WORK REGEX: the number of the first patch of WORK's series
# whose subject matches REGEX (grep -E); prints nothing when none does.
series_number() {
	series_log "$1" %s | grep -Enm1 -e "$2" | cut -d: -f1
}

# prefix_kernel WORK SHA NAME FLAVOR: the kernel of WORK at SHA, checked
# out as $BUILD/NAME (a worktree of WORK) and built in its own object
# directory; sets built_image as build_kernel does (kernel_image NAME
# FLAVOR; empty when it fails).
prefix_kernel() {
	built_image=
	_wt=$BUILD/$3
	if [ "$(git -C "$_wt" rev-parse HEAD 2>/dev/null)" != "$2" ]; then
		rm -rf "$_wt"
		git -C "$1" worktree prune
		git -C "$1" worktree add -q --detach "$_wt" "$2" || return 1
	fi
	build_kernel mutant "$4" SRC_TREE="$_wt" OBJ_NAME="$3"
}

say() {
	printf '==> %s\n' "$*" >&2
}

# step DESC CMD...: run CMD, report how long it took, fail naming DESC.
step() {
	_desc=$1
	shift
	say "$_desc"
	_t0=$(date +%s)
	"$@" || die "$_desc failed"
	say "$_desc: done in $(($(date +%s) - _t0)) s"
}

need() {
	for _t in "$@"; do
		command -v "$_t" >/dev/null 2>&1 ||
			die "missing tool '$_t' (run 'make deps' to install the build dependencies)"
	done
}

# Results.  Each stage of make check (scripts/check/check.py) gives its
# command a file of its own, $RESULTS, and reads its verdict there, never
# in a log: TAP, a line per result ("ok N NAME", "not ok N NAME # WHY",
# "ok N NAME # SKIP WHY"), and last the plan "1..N", which says the stage
# finished.  The first script of the stage to read this file owns
# $RESULTS: what it runs (another script, the guest's judge results.py)
# adds its lines to the same file, and only the owner writes the plan
# (results_end).  A command whose results are not the stage's (a boot
# that must fail, the harness tests' own fixtures) runs with RESULTS
# unset: results_private.
if [ -n "${RESULTS:-}" ] && [ -z "${RESULTS_PID:-}" ]; then
	RESULTS_PID=$$
	export RESULTS_PID
fi

# results_private CMD...: run CMD with no $RESULTS of ours.
results_private() {
	env -u RESULTS -u RESULTS_PID "$@"
}

# results_line STATUS NAME [WHY]: add one result to $RESULTS, numbered;
# STATUS 0 passed, skip skipped, anything else failed.
results_line() {
	[ -n "${RESULTS:-}" ] || return 0
	_rn=$(grep -cE '^(not )?ok ' "$RESULTS" 2>/dev/null)
	_rn=$((${_rn:-0} + 1))
	# A '#' would start a directive; a newline another line.
	_rname=$(printf '%s' "$2" | tr '#\n' '_ ')
	_rwhy=$(printf '%s' "${3:-}" | tr '\n' ' ')
	if [ "$1" = skip ]; then
		echo "ok $_rn $_rname # SKIP $_rwhy" >>"$RESULTS"
	elif [ "$1" -eq 0 ]; then
		echo "ok $_rn $_rname" >>"$RESULTS"
	else
		echo "not ok $_rn $_rname${_rwhy:+ # $_rwhy}" >>"$RESULTS"
	fi
}

# results_skip NAME WHY: a check that does not apply here, said so.
results_skip() {
	echo "# skip $1: $2"
	results_line skip "$1" "$2"
}

# results_of NAME STATUS OUT: a boot.sh run's verdict, its output in OUT
# (shown, failures and the closing line).  Under a stage its judge has
# added each case to $RESULTS already; run alone, the script counts the
# run as one result NAME.
results_of() {
	grep -E '^FAIL |passed, ' "$3" | sed "s/^/# $1: /"
	[ -n "${RESULTS:-}" ] || result "$1" "$2" "see $3"
}

# results_copy FILE: add FILE's results to $RESULTS (and to $pass and
# $fail), numbered anew.
results_copy() {
	while IFS= read -r _l; do
		case $_l in
		"ok "*" # SKIP "*)
			_l=${_l#ok }
			_l=${_l#* }
			results_skip "${_l%% # SKIP *}" "${_l#* # SKIP }" >/dev/null ;;
		"ok "*) _l=${_l#ok }; result "${_l#* }" 0 >/dev/null ;;
		"not ok "*)
			_l=${_l#not ok }
			_l=${_l#* }
			result "${_l%% # *}" 1 "$(case $_l in *" # "*) echo "${_l#* # }" ;; esac)" >/dev/null ;;
		esac
	done <"$1"
}

# results_end: a script's closing "N passed, N failed" and its exit
# status.  The owner of $RESULTS counts the file, whatever added to it, and
# writes the plan; any other script counts its own $pass and $fail.
results_end() {
	if [ -n "${RESULTS:-}" ] && [ "${RESULTS_PID:-}" = "$$" ]; then
		echo "1..$(grep -cE '^(not )?ok ' "$RESULTS")" >>"$RESULTS"
		# A skip is neither (check.py counts the same way).
		pass=$(grep '^ok ' "$RESULTS" | grep -vc ' # SKIP ')
		fail=$(grep -c '^not ok ' "$RESULTS")
	fi
	echo "${pass:-0} passed, ${fail:-0} failed"
	[ "${fail:-0}" -eq 0 ]
}

# part NAME, part_done: one part of a long stage (a prefix of
# prefix-boot.sh), kept apart so that a resumed stage goes on from the part
# it was cut short in.  check.py passes the stage's key as STAGE_KEY and
# where its finished results live as STAGE_DONE (and RECORDS, the
# committed ones, with RESUME=1).  With RESUME=1 a part finished under
# this key is not run again: its results are copied as they were.  A
# script run alone, outside a stage, runs every part.
part() {
	_part=
	[ -n "${STAGE_KEY:-}" ] && [ -n "${STAGE_DONE:-}" ] || return 0
	_part=$STAGE_DONE/$STAGE_KEY.$1.tap
	if [ "${RESUME:-}" = 1 ]; then
		for _pf in "$_part" "${RECORDS:-/nonexistent}/$STAGE_KEY.$1.tap"; do
			results_complete "$_pf" || continue
			echo "# resumed part $1 from ${_pf#"$TOP"/}"
			results_copy "$_pf"
			return 1
		done
	fi
	_part_from=$(grep -cE '^(not )?ok ' "${RESULTS:-/dev/null}" 2>/dev/null)
	return 0
}

part_done() {
	[ -n "${_part:-}" ] && [ -n "${RESULTS:-}" ] || return 0
	mkdir -p "$STAGE_DONE"
	grep -E '^(not )?ok ' "$RESULTS" | tail -n +"$((${_part_from:-0} + 1))" >"$_part.new"
	echo "1..$(grep -c '' "$_part.new")" >>"$_part.new"
	mv "$_part.new" "$_part"
}

# results_complete FILE: FILE holds results and ends with their plan.
results_complete() {
	[ -s "$1" ] || return 1
	_plan=$(tail -n1 "$1")
	[ "$_plan" = "1..$(grep -cE '^(not )?ok ' "$1")" ]
}

# result NAME STATUS [WHY]: one "ok"/"not ok" line; counts into $pass/$fail
# and adds to $RESULTS.
result() {
	if [ "$2" -eq 0 ]; then
		echo "ok $1"
		pass=$((pass + 1))
	else
		echo "not ok $1 - ${3:-}"
		fail=$((fail + 1))
	fi
	results_line "$2" "$1" "${3:-}"
}
