#!/usr/bin/env python3
"""Swap allocation benchmark: collect guest results, report the table.

  bench_alloc.py collect --kernel K --rep N --results LOG   print CSV rows
  bench_alloc.py report --csv CSV                          the table

A device count named more than once in DEVS ("1 1 1 1") runs that many
times in each boot; the boot's value is the median of its runs, which
takes the run-to-run noise out of the boot-to-boot comparison.

The report gives, per device count, medians [min..max] over the reps of
base and patched and the patched/base ratio of the medians with its
bootstrap 95% interval over the interleaved pairs (scripts/bench/stats.py), and the
spread of usage over the devices at the peak (most/least used, its
medians and their ratio with its interval as above, and most less least
in MiB) beside the bound the patched kernel's per-CPU quota
puts on it.  It fails
(exit 1) when a run did not use swap at all or did not have the vCPUs the
guest was given (--cpus, SMP) and the architecture's clocksource.
"""
import csv
import re
import statistics
import sys

from bench import accel_of, cli, collect_matches, tcg
from stats import fmt_ci, ratio_ci

LINE = re.compile(r"SWAPQ-ALLOC elapsed_ms=(\d+) sys_ms=(\d+) out_mibs=([\d.]+) "
                  r"in_mibs=([\d.]+) peak_kb=([\d/]*) devs=(\d+|topfull)")
FIELDS = ("elapsed_ms", "sys_ms", "out_mibs", "in_mibs")


def collect(a):
    return collect_matches(a, LINE, lambda m: (m.group(6), *m.group(1, 2, 3, 4, 5)))


def spread(peak):
    used = [int(x) for x in peak.split("/") if x]
    return max(used) / min(used) if used and min(used) > 0 else float("inf")


def gap(peak):
    """Most less least used device at the peak, in MiB."""
    used = [int(x) for x in peak.split("/") if x]
    return (max(used) - min(used)) / 1024 if used else 0.0


def fmt_spread(vals):
    vals = list(vals)
    return "%.3f [%.3f..%.3f]" % (statistics.median(vals), min(vals), max(vals))


def fmt(vals):
    return "%.0f [%.0f..%.0f]" % (statistics.median(vals), min(vals), max(vals)) \
        if max(vals) >= 100 else "%.1f [%.1f..%.1f]" % (statistics.median(vals), min(vals), max(vals))


def per_rep(rows, kernel, devs, value):
    """{rep: median of value(row) over the rep's runs} of one kernel and
    device count."""
    runs = {}
    for r in rows:
        if r["kernel"] == kernel and r["devs"] == devs:
            runs.setdefault(r["rep"], []).append(value(r))
    return {rep: statistics.median(v) for rep, v in runs.items()}


def report(a):
    with open(a.csv, encoding="utf-8") as f:
        rows = list(csv.DictReader(l for l in f if not l.startswith("#")))
    bad = []
    for r in rows:
        if r["cpus"] != str(a.cpus) or r["clocksource"] != a.clocksource:
            bad.append("%s rep %s: cpus %s clocksource %s" % (r["kernel"], r["rep"], r["cpus"],
                                                              r["clocksource"]))
        if not r["peak_kb"] or sum(int(x) for x in r["peak_kb"].split("/")) == 0:
            bad.append("%s rep %s devs %s: no swap used" % (r["kernel"], r["rep"], r["devs"]))
    # Device counts in order, then the named cases (topfull).
    devs = sorted({r["devs"] for r in rows}, key=lambda d: (not d.isdigit(), int(d) if d.isdigit() else d))
    kernels = ["base"] + sorted({r["kernel"] for r in rows} - {"base", "patched"}) + ["patched"]
    others = kernels[1:]
    print("Swap allocation, %s, %d vCPUs: medians [min..max] over the reps;" % (
        tcg(a.icount, accel_of(a.csv)), a.cpus))
    print("ratios are medians over base's, [95% bootstrap interval over the pairs]")
    for field in FIELDS:
        print("\n%-8s %-7s" % (field, "devs") +
              "".join(" %-22s" % k for k in kernels) + "".join(" %-19s" % k for k in others))
        for d in devs:
            by_rep = {k: per_rep(rows, k, d, lambda r: float(r[field])) for k in kernels}
            v = {k: list(by_rep[k].values()) for k in kernels}
            if not all(v.values()):
                continue
            print("%-8s %-7s" % ("", d) + "".join(" %-22s" % fmt(v[k]) for k in kernels) +
                  "".join(" %-19s" % fmt_ci(ratio_ci(by_rep["base"], by_rep[k]))
                          for k in others))
    print("\npeak usage, most/least used device: medians [min..max] over the reps, and the\n"
          "ratio over base's [95% interval]; in parentheses most - least in MiB (median)")
    for d in devs:
        if not d.isdigit() or int(d) < 2:
            continue
        s = {k: per_rep(rows, k, d, lambda r: spread(r["peak_kb"])) for k in kernels}
        g = {k: per_rep(rows, k, d, lambda r: gap(r["peak_kb"])) for k in kernels}
        if not all(s.values()):
            continue
        print("%-5s" % d + "".join("  %s %s (%.1f)" % (k, fmt_spread(s[k].values()),
                                                      statistics.median(g[k].values()))
                                  for k in kernels))
        print("%-5s" % "" + "".join("  %s/base %s" % (k, fmt_ci(ratio_ci(s["base"], s[k])))
                                    for k in others))
    print("the per-CPU quota's bound (patched): while nothing is freed, two devices' "
          "allocations differ\nby at most vCPUs x one cluster, %d MiB here; frees are not "
          "bounded" % (2 * a.cpus))
    for b in bad:
        print("recipe: " + b)
    return 1 if bad else 0


def main():
    return cli(__doc__, collect, report, (("--cpus", {"type": int, "default": 2}),
                                          ("--clocksource", {"default": "tsc"}),
                                          ("--icount", {"action": "store_true"})))

if __name__ == "__main__":
    sys.exit(main())
