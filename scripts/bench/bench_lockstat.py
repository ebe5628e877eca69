#!/usr/bin/env python3
"""Lock contention of swap device selection: collect and report.

  bench_lockstat.py collect --kernel K --rep N --results LOG   CSV rows
  bench_lockstat.py report --csv CSV [--clocksource CS]        the table

The guest (guest/bench/lockstat-bench) prints /proc/lock_stat after the
allocation workload for each device count.  collect keeps, per device
count and lock class, contentions, wait time (us) and acquisitions.  The
report gives, per device count, for the swap locks (swap_avail_lock, the
cluster locks, the per-CPU locks, the device lock) the median contentions
of base and patched over the boots and the patched/base ratio of the
medians with its bootstrap 95% interval over the interleaved pairs
(scripts/bench/stats.py; none with fewer than 3 pairs).  lock_stat slows every
lock down: these counts compare the kernels, the times are not timings.
"""
import csv
import re
import statistics
import sys

from bench import accel_of, cli, emit, read_fact, tcg  # read_fact: scripts/results.py
from stats import fmt_ci, ratio_ci

SWAP_LOCKS = re.compile(r"swap|cluster|percpu_swap|si->lock|&p->lock|&ci->lock")
# A /proc/lock_stat class line: name, con-bounces, contentions,
# waittime-min, -max, -total, -avg, acq-bounces, acquisitions, ...
CLASS = re.compile(r"\s*(\S.*?):\s+(\d+)\s+(\d+)\s+[\d.]+\s+[\d.]+\s+([\d.]+)"
                   r"\s+[\d.]+\s+(\d+)\s+(\d+)")


def collect(a):
    facts, rows, devs, block = {}, [], None, {}
    with open(a.results, encoding="utf-8", errors="replace") as f:
        for line in f:
            read_fact(line, facts)
            m = re.search(r"SWAPQ-LOCKSTAT-BEGIN devs=(\d+)", line)
            if m:
                devs, block = m.group(1), {}
                continue
            if "SWAPQ-LOCKSTAT-END" in line and devs:
                rows += [(devs, name, c, "%.2f" % w, q) for name, (c, w, q) in block.items()]
                devs = None
                continue
            # Only a class's own line ends its name with a colon; the
            # call-site lines under it do not match.  Classes can share a
            # name (one lock initialised in two places): they are added up.
            m = CLASS.match(line) if devs else None
            if m:
                c, w, q = block.get(m.group(1), (0, 0.0, 0))
                block[m.group(1)] = (c + int(m.group(3)), w + float(m.group(4)),
                                     q + int(m.group(6)))
    return emit(a, rows, facts)


def report(a):
    with open(a.csv, encoding="utf-8") as f:
        rows = list(csv.DictReader(l for l in f if not l.startswith("#")))
    if not rows:
        print("no lock_stat results in %s" % a.csv)
        return 1
    bad = sorted({"%s rep %s: clocksource %s" % (r["kernel"], r["rep"], r["clocksource"])
                  for r in rows if r["clocksource"] != a.clocksource})
    # (devs, lock) -> kernel -> {rep: contentions}
    con, acq = {}, {}
    for r in rows:
        key = (int(r["devs"]), r["lock"])
        con.setdefault(key, {}).setdefault(r["kernel"], {})[r["rep"]] = int(r["contentions"])
        acq.setdefault(key, {}).setdefault(r["kernel"], {})[r["rep"]] = int(r["acquisitions"])
    reps = len({(r["kernel"], r["rep"]) for r in rows}) // 2
    print("lock_stat contentions, %s, the allocation workload; median over %d boots"
          " per kernel (acquisitions), patched/base [95%% bootstrap interval]"
          % (tcg(False, accel_of(a.csv)), reps))
    for devs in sorted({d for d, _ in con}):
        locks = [l for d, l in con if d == devs and SWAP_LOCKS.search(l)]
        locks.sort(key=lambda l: -max(statistics.median(v.values())
                                      for v in con[(devs, l)].values()))
        print("\n%d device(s)" % devs)
        print("  %-30s %-22s %-22s %s" % ("lock class", "base", "patched", "patched/base"))
        for lock in locks:
            k = (devs, lock)
            cell = []
            for kern in ("base", "patched"):
                c, n = con[k].get(kern), acq[k].get(kern)
                cell.append("%d (%d)" % (statistics.median(c.values()), statistics.median(n.values()))
                            if c else "not taken")
            ci = None
            if "base" in con[k] and "patched" in con[k]:
                try:
                    ci = ratio_ci(con[k]["base"], con[k]["patched"])
                except ZeroDivisionError:   # no contention in base's boots
                    ci = None
            print("  %-30s %-22s %-22s %s" % (lock[:30], cell[0], cell[1], fmt_ci(ci)))
    for b in bad:
        print("BAD: " + b)
    return 1 if bad else 0


def main():
    return cli(__doc__, collect, report, (("--clocksource", {"default": "tsc"}),))

if __name__ == "__main__":
    sys.exit(main())
