# Common helpers for the harness scripts (POSIX sh).  Source, don't run.

# Where the harness keeps state that outlives a clone: the downloaded
# package, the deterministic base repository and the ccache.
: "${SWAPQ_CACHE:=${XDG_CACHE_HOME:-$HOME/.cache}/swapq}"
: "${TOP:=$(cd "$(dirname "$0")/.." && pwd)}"
: "${BUILD:=$TOP/build}"
export SWAPQ_CACHE TOP BUILD

# A fixed identity for the commits the harness itself makes (CI has none).
export GIT_AUTHOR_NAME="swapq harness" GIT_AUTHOR_EMAIL="swapq@localhost"
export GIT_COMMITTER_NAME="swapq harness" GIT_COMMITTER_EMAIL="swapq@localhost"

die() {
	printf '%s: error: %s\n' "${0##*/}" "$*" >&2
	exit 1
}

# Run a command and print the last line of its output (a path, by the
# convention of tree.sh and build-kernel.sh); fail if the command fails.
lastline() {
	_out=$("$@") || return 1
	printf '%s\n' "$_out" | tail -n1
}

# alloc_workload: the allocation workload's parameters (bench-alloc and
# bench-lockstat): DISK_MB of zram in all, a memory cgroup of LIMIT_MB,
# WORKERS writing WORKER_MB each, in a guest of MEM with SMP vCPUs.
alloc_workload() {
	: "${DISK_MB:=2048}" "${LIMIT_MB:=128}" "${WORKERS:=2}" "${WORKER_MB:=256}"
	: "${MEM:=3G}" "${SMP:=2}"
	export MEM SMP
}

# stage_bench_guest DIR: the guest side of the allocation benchmarks in DIR
# (GUEST_EXTRA): usemem, built static, and the shell functions.
stage_bench_guest() {
	rm -rf "$1"
	mkdir -p "$1"
	gcc -static -O2 -Wall -o "$1/usemem" "$TOP/guest/bench/usemem.c" ||
		die "cannot build guest/bench/usemem.c"
	cp "$TOP/guest/bench/lib.sh" "$1/bench-lib"
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

# result NAME STATUS [WHY]: one "ok"/"not ok" line; counts into $pass/$fail.
result() {
	if [ "$2" -eq 0 ]; then
		echo "ok $1"
		pass=$((pass + 1))
	else
		echo "not ok $1 - ${3:-}"
		fail=$((fail + 1))
	fi
}
