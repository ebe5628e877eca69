#!/bin/sh
# The allocation workload's defaults follow the host (alloc_workload in
# scripts/lib.sh): a vCPU per core but at least 2, a worker per vCPU, zram
# for four times what they write, memory capped at half what is available.
. "$(dirname "$0")/lib.sh"
. "$TOP/scripts/lib.sh"
# A host with 8 GiB available: half of it is 4 GiB.
printf 'MemTotal: 16000000 kB\nMemAvailable: 8388608 kB\n' >"$T/meminfo"
# workload CORES: the defaults on a host of CORES cores.
workload() {
	(
		unset SMP MEM WORKERS WORKER_MB DISK_MB LIMIT_MB
		c=$1
		nproc() { echo "$c"; }
		MEMINFO=$T/meminfo alloc_workload
		echo "$SMP $WORKERS $DISK_MB $MEM"
	)
}
expect_eq workload-small-host "$(workload 1)" "2 2 2048 3G"
expect_eq workload-mid-host "$(workload 4)" "4 4 4096 3G"
# 32 workers write 8 GiB: the guest would want 10 GiB, gets half of 8.
expect_eq workload-large-host "$(workload 32)" "32 32 32768 4G"
expect_eq workload-set-by-user "$(SMP=4 WORKERS=3 sh -c ". '$TOP/scripts/lib.sh'; alloc_workload; echo \$SMP \$WORKERS")" "4 3"
