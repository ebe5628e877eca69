#!/usr/bin/env python3
"""64 KiB mTHP swap-out, base against patched: collect and report.

  bench_mthp.py collect --kernel K --rep N --results LOG   print CSV rows
  bench_mthp.py report --csv CSV                          the table

guest/tests/mthp.c prints, per scenario, how many 64 KiB folios went out
whole (swpout) and how many were split first (swpout_fallback), and how
long the MADV_PAGEOUT took (pageout_us; under -icount, instructions).  The
report gives the medians [min..max] over the boots of each kernel, and the
patched/base ratio of the time with its 95% interval over the pairs.
"""
import csv
import re
import statistics
import sys

from bench import accel_of, cli, collect_matches, icount_of, tcg
from stats import fmt_ci, ratio_ci

LINE = re.compile(r"# mthp (\w+): faulted=(-?\d+) swpout=(-?\d+) swpout_fallback=(-?\d+) "
                  r"pageout_us=(\d+)")
COUNTS = ("faulted", "swpout", "swpout_fallback", "pageout_us")


def collect(a):
    return collect_matches(a, LINE, lambda m: m.group(1, 2, 3, 4, 5))


def cell(vals):
    """'median [min..max]' of a list of counts."""
    if not vals:
        return "-"
    return "%d [%d..%d]" % (statistics.median(vals), min(vals), max(vals))


def report(a):
    data = {}
    with open(a.csv, encoding="utf-8") as f:
        f.readline()    # the run's parameters (icount_of reads them)
        for r in csv.DictReader(f):
            d = data.setdefault(r["scenario"], {}).setdefault(r["kernel"], {})
            for k in COUNTS:
                d.setdefault(k, {})[r["rep"]] = int(r[k])
    print("64 KiB mTHP folios paged out: written whole (swpout) and split first")
    print("(swpout_fallback), and the time the page-out took (pageout_us);")
    print("medians [min..max] over the boots, %s" % tcg(icount_of(a.csv), accel_of(a.csv)))
    for sc, kernels in data.items():
        print("\n%s" % sc)
        print("  %-8s %-18s %-18s %-18s %s" % ("kernel", "swpout", "swpout_fallback", "faulted",
                                              "pageout_us"))
        for k in ("base", "patched"):
            d = kernels.get(k)
            if d:
                print("  %-8s %-18s %-18s %-18s %s" % (
                    k, cell(list(d["swpout"].values())), cell(list(d["swpout_fallback"].values())),
                    cell(list(d["faulted"].values())), cell(list(d["pageout_us"].values()))))
        if "base" in kernels and "patched" in kernels:
            print("  pageout_us patched/base: %s" % fmt_ci(ratio_ci(kernels["base"]["pageout_us"],
                                                                   kernels["patched"]["pageout_us"])))
    return 0


def main():
    return cli(__doc__, collect, report)

if __name__ == "__main__":
    sys.exit(main())
