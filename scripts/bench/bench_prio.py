#!/usr/bin/env python3
"""Priority inversion, base against patched: collect and report.

  bench_prio.py collect --kernel K --rep N --results LOG   print CSV rows
  bench_prio.py report --csv CSV                          the table

guest/tests/prio.c prints, per order, how much of what one CPU paged out
after a higher-priority device had room again went to the lower-priority
device (low_kb) and to the higher one (high_kb).  The report gives the
medians [min..max] over the boots of each kernel.
"""
import csv
import re
import sys

from bench import accel_of, cli, collect_matches, tcg
from bench_mthp import cell

LINE = re.compile(r"# prio (\w+): low_kb=(-?\d+) high_kb=(-?\d+)")


def collect(a):
    return collect_matches(a, LINE, lambda m: m.group(1, 2, 3))


def report(a):
    data = {}
    with open(a.csv, encoding="utf-8") as f:
        for r in csv.DictReader(l for l in f if not l.startswith("#")):
            d = data.setdefault(r["scenario"], {}).setdefault(r["kernel"], {})
            for k in ("low_kb", "high_kb"):
                d.setdefault(k, []).append(int(r[k]))
    print("Paged out by one CPU after the higher-priority device had room again:")
    print("kB to the lower-priority device and to the higher one, medians [min..max]")
    print("over the boots, %s" % tcg(False, accel_of(a.csv)))
    print("\n  %-8s %-8s %-22s %s" % ("order", "kernel", "low (inverted)", "high"))
    for sc, kernels in data.items():
        for k in ("base", "patched"):
            d = kernels.get(k)
            if d:
                print("  %-8s %-8s %-22s %s" % (sc, k, cell(d["low_kb"]), cell(d["high_kb"])))
    return 0


def main():
    return cli(__doc__, collect, report)

if __name__ == "__main__":
    sys.exit(main())
