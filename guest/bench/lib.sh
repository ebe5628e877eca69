# Guest side of the benchmarks: sourced by the programs of guest/bench/
# (their /tests/bench-lib).  busybox sh.

# bench_begin NAME: one TAP case named NAME, which needs zram and a memory
# cgroup.
bench_begin() {
	bench=$1
	echo "TAP version 13"
	echo "1..1"
	[ -d /sys/class/zram-control ] || modprobe zram num_devices=0 2>/dev/null
	[ -d /sys/class/zram-control ] || fail "no zram"
	memcg_setup || fail "no memory cgroup"
}

fail() {
	echo "not ok 1 every run done # $*"
	exit 1
}

# memcg_setup: the memory controller on cgroup2 at /sys/fs/cgroup.
memcg_setup() {
	grep -q " /sys/fs/cgroup cgroup2 " /proc/mounts ||
		mount -t cgroup2 none /sys/fs/cgroup || return 1
	echo +memory >/sys/fs/cgroup/cgroup.subtree_control
}

# in_memcg MB CMD...: run CMD in a new memory cgroup limited to MB MiB.
in_memcg() {
	mkdir /sys/fs/cgroup/bench || return 1
	echo "${1}M" >/sys/fs/cgroup/bench/memory.max || return 1
	shift
	sh -c 'echo $$ >/sys/fs/cgroup/bench/cgroup.procs && exec "$@"' sh "$@"
	_rc=$?
	rmdir /sys/fs/cgroup/bench
	return $_rc
}

# zram_swap MB [PRIO]: a new zram device of MB MiB swapped on at priority
# PRIO (5); prints its number.  Fails (and removes the device) if swapon
# refuses it.
zram_swap() {
	_id=$(cat /sys/class/zram-control/hot_add) || return 1
	if echo "${1}M" >"/sys/block/zram$_id/disksize" &&
		mkswap "/dev/zram$_id" >/dev/null 2>&1 &&
		/tests/usemem swapon "/dev/zram$_id" "${2:-5}" 2>/dev/null; then
		echo "$_id"
		return 0
	fi
	zram_del "$_id"
	return 1
}

# zram_del N: swap off and remove zram device N.
zram_del() {
	if grep -q "^/dev/zram$1 " /proc/swaps; then
		swapoff "/dev/zram$1" || return 1
	fi
	echo 1 >"/sys/block/zram$1/reset"
	echo "$1" >/sys/class/zram-control/hot_remove
}
