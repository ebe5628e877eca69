#!/bin/sh
# The allocation workload's defaults follow the host (alloc_workload in
# scripts/lib.sh): a vCPU per core but at least 2, a worker per vCPU, zram
# for four times what they write, memory capped at half what is available.
. "$(dirname "$0")/lib.sh"
. "$TOP/scripts/lib.sh"
half=$(($(sed -n 's/^MemAvailable: *\([0-9]*\) kB/\1/p' /proc/meminfo) / 2048))
# workload CORES: the defaults on a host of CORES cores.
workload() {
	(
		unset SMP MEM WORKERS WORKER_MB DISK_MB LIMIT_MB
		c=$1
		nproc() { echo "$c"; }
		alloc_workload
		m=${MEM%[GM]}
		case $MEM in *G) m=$((m * 1024)) ;; esac
		echo "$SMP $WORKERS $DISK_MB $((m <= half))"
	)
}
expect_eq workload-small-host "$(workload 1)" "2 2 2048 1"
expect_eq workload-large-host "$(workload 32)" "32 32 32768 1"
expect_eq workload-set-by-user "$(SMP=4 WORKERS=3 sh -c ". '$TOP/scripts/lib.sh'; alloc_workload; echo \$SMP \$WORKERS")" "4 3"
