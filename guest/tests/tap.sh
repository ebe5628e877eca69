# Sourced by the guest's shell tests (". /tests/tap.sh"), not run: their
# TAP result lines, and the state of the machine a test must leave as it
# found it.  A test that failed a check exits 1, whatever exit it takes.
n=0
tap_failed=0
trap '[ "$tap_failed" = 0 ] || exit 1' EXIT
# check STATUS NAME [DIAG]: "ok N NAME" when STATUS is 0, otherwise
# "not ok N NAME" and DIAG as a comment.
check() {
	n=$((n + 1))
	if [ "$1" = 0 ]; then
		echo "ok $n $2"
	else
		tap_failed=1
		echo "not ok $n $2"
		[ -z "${3:-}" ] || echo "# $3"
	fi
}
# machine_state: the swap areas (device, type, size, priority: not what
# they hold), the block devices, the loaded modules, the cgroups and the
# root's controllers.
machine_state() {
	echo "swaps:"
	tail -n +2 /proc/swaps 2>/dev/null | awk '{ print $1, $2, $3, $5 }'
	echo "block:"
	ls /sys/block
	echo "modules:"
	awk '{ print $1 }' /proc/modules | sort
	echo "cgroups:"
	find /sys/fs/cgroup -mindepth 1 -type d | sort
	echo "root controllers: $(cat /sys/fs/cgroup/cgroup.subtree_control 2>/dev/null)"
}
