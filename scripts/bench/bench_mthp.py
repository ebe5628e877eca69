#!/usr/bin/env python3
"""64 KiB mTHP swap-out, base against patched: collect and report.

  bench_mthp.py collect --kernel K --rep N --results LOG   print CSV rows
  bench_mthp.py report --csv CSV                          the table

guest/tests/mthp.c prints, per scenario, how many 64 KiB folios went out
whole (swpout) and how many were split first (swpout_fallback).  The
report gives the medians [min..max] over the boots of each kernel.
"""
import csv
import re
import statistics
import sys

from bench import accel_of, cli, collect_matches, tcg

LINE = re.compile(r"# mthp (\w+): faulted=(-?\d+) swpout=(-?\d+) swpout_fallback=(-?\d+)")


def collect(a):
    return collect_matches(a, LINE, lambda m: m.group(1, 2, 3, 4))


def cell(vals):
    """'median [min..max]' of a list of counts."""
    if not vals:
        return "-"
    return "%d [%d..%d]" % (statistics.median(vals), min(vals), max(vals))


def report(a):
    data = {}
    with open(a.csv, encoding="utf-8") as f:
        for r in csv.DictReader(l for l in f if not l.startswith("#")):
            d = data.setdefault(r["scenario"], {}).setdefault(r["kernel"], {})
            for k in ("faulted", "swpout", "swpout_fallback"):
                d.setdefault(k, []).append(int(r[k]))
    print("64 KiB mTHP folios paged out: written whole (swpout) and split first")
    print("(swpout_fallback), medians [min..max] over the boots, %s" % tcg(False, accel_of(a.csv)))
    for sc, kernels in data.items():
        print("\n%s" % sc)
        print("  %-8s %-22s %-22s %s" % ("kernel", "swpout", "swpout_fallback", "faulted"))
        for k in ("base", "patched"):
            d = kernels.get(k)
            if d:
                print("  %-8s %-22s %-22s %s" % (k, cell(d["swpout"]),
                      cell(d["swpout_fallback"]), cell(d["faulted"])))
    return 0


def main():
    return cli(__doc__, collect, report)

if __name__ == "__main__":
    sys.exit(main())
