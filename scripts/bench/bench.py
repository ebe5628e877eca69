#!/usr/bin/env python3
"""Swapoff benchmark: collect timings from guest logs, report the tables.

  bench.py collect --kernel K --rep N --results LOG   print CSV rows
  bench.py report --csv CSV [--svg OUT] [--keep MB]   tables, targets, SVG
  bench.py phases --kernel K --rep N --results LOG --fills F,F...
                         the time of each part of each traced swapoff (CSV)
  bench.py phases-report --csv CSV [--keep MB]        the parts, kernel by kernel
  bench.py sizes --small CSV --large CSV [--keep MB]  the limit row on two
                         device sizes (two runs), the larger's over the smaller's
  bench.py hibernate-report --csv CSV   hibernation image write, base/patched

The report fails (exit 1) when the recipe did not hold: the entries left
at the top were not in the swap cache, or the base kernel's swapoff did
not grow with the fill (then the run did not measure the scan at all).
"""
import argparse
import csv
import math
import os
import re
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from results import read_fact  # noqa: E402 (scripts/, shared with boot)
from stats import fmt_ci, fmt_interval, ratio_ci, ratio_ci_unpaired

# The swapoff kselftest's timing lines (swapoff.c): the swap cache it
# held, then the time, each naming the device and its size, then on a line
# of its own the CPU time of the thread that called swapoff (not there in
# older runs).
CACHE = re.compile(r"swap cache (-?\d+) kB before swapoff")
FILL = re.compile(r"swapoff zram (\d+) MiB, fill (\d+) MiB, kept (\d+) MiB: ([\d.]+) ms")
DATA = re.compile(r"swapoff zram (\d+) MiB, data (\d+) MiB \((-?\d+) kB out\): ([\d.]+) ms")
CPU = re.compile(r"swapoff's CPU time: ([\d.]+) ms")


def collect_matches(a, pattern, row):
    """collect: the row row(m) for each match m of pattern in the results log."""
    facts, rows = {}, []
    with open(a.results, encoding="utf-8", errors="replace") as f:
        for line in f:
            read_fact(line, facts)
            m = pattern.search(line)
            if m:
                rows.append(row(m))
    return emit(a, rows, facts)


def emit(a, rows, facts):
    """Print rows as CSV, each with --kernel, --rep and the guest's facts."""
    if not rows:
        return 1
    w = csv.writer(sys.stdout, lineterminator="\n")
    for r in rows:
        w.writerow([a.kernel, a.rep, *r, facts.get("cpus", "?"),
                    facts.get("clocksource_end", facts.get("clocksource", "?"))])
    return 0


def size_differs(what, got, want):
    """Whether a timing line's device (got, MiB) is not the one the run
    asked for (want; 0: any), said on stderr."""
    if want and int(got) != want:
        print("bench.py: the guest's %s was %s MiB, not the %d asked for" % (what, got, want),
              file=sys.stderr)
        return True
    return False


def collect(a):
    """The fill and ordinary rows of one boot.  The device each line names
    must be the size the run asked for (--disk, --ord-disk): a guest that
    ran other sizes fails the collection instead of filling the CSV."""
    facts = {}
    rows = []
    warmed = False
    cache = None
    last = None     # the row the next CPU time line goes with (not the warm-up's)
    with open(a.results, encoding="utf-8", errors="replace") as f:
        for line in f:
            read_fact(line, facts)
            m = CPU.search(line)
            if m:
                if last:
                    last[-1] = m.group(1)
                last = None
            m = CACHE.search(line)
            if m:
                cache = m.group(1)
            m = FILL.search(line)
            if m:
                if size_differs("device", m.group(1), a.disk):
                    return 1
                last = None
                if not warmed:
                    warmed = True   # the first swapoff of a boot warms up
                    continue
                last = ["fill", m.group(2), m.group(3), cache if cache else "-1", m.group(4), ""]
                rows.append(last)
                cache = None
            m = DATA.search(line)
            if m:
                if size_differs("ordinary device", m.group(1), a.ord_disk):
                    return 1
                last = ["ordinary", m.group(2), "0", m.group(3), m.group(4), ""]
                rows.append(last)
    if not rows:
        print("bench.py: no swapoff timing line in %s" % a.results, file=sys.stderr)
    return emit(a, rows, facts)


# What a report times: swapoff's elapsed time, or its CPU time (--cpu).
WHAT = {False: "time", True: "CPU time (the calling thread's: not its sleeps)"}


def load(path, cpu=False):
    """A CSV's rows; with cpu, each row's ms is swapoff's CPU time (its
    cpu_ms), and a CSV without it ends the report."""
    with open(path, encoding="utf-8") as f:
        rows = list(csv.DictReader(l for l in f if not l.startswith("#")))
    if cpu:
        if any(not r.get("cpu_ms") for r in rows):
            sys.exit("%s: a row has no CPU time (a run before swapoff.c timed it)" % path)
        for r in rows:
            r["ms"] = r["cpu_ms"]
    return rows


def accel_of(path):
    """The accelerator a CSV's runs had (its "# ... accel=X" line); the
    runs before it was recorded were all TCG."""
    with open(path, encoding="utf-8") as f:
        for line in f:
            m = re.match(r"#.* accel=(\w+)", line)
            if m:
                return m.group(1)
    return "tcg"


def icount_of(path):
    """Whether a CSV's runs were under -icount (" icount" on its first
    line, as bench_csv and hibernate.sh write it)."""
    with open(path, encoding="utf-8") as f:
        return " icount" in f.readline()


def tcg(icount, accel="tcg"):
    """How the guest was timed, for a report's heading."""
    if accel == "kvm":
        return "QEMU KVM"
    return "QEMU TCG" + (" -icount shift=0 (guest time counts instructions)" if icount else "")


def size(mb):
    mb = int(mb)
    if mb >= 1 << 20 and mb % (1 << 20) == 0:
        return "%d TiB" % (mb >> 20)
    return "%d GiB" % (mb // 1024) if mb >= 1024 and mb % 1024 == 0 else "%d MiB" % mb


def stat(v):
    return statistics.median(v), min(v), max(v)


def cell(v):
    if not v:
        return "%-24s" % "-"
    m, lo, hi = stat(v)
    return "%-24s" % ("%.1f [%.1f..%.1f]" % (m, lo, hi))


def svg(path, fills, data, keep, icount=False, accel="tcg"):
    W, H, L, B, T, R = 640, 400, 70, 50, 40, 150
    xs = [math.log2(int(f)) for f in fills]
    ys = [y for k in data for f in fills for y in data[k].get(f, [])]
    if not xs or not ys:
        return
    x0, x1 = min(xs), max(xs) or 1
    y1 = max(ys) * 1.1
    px = lambda x: L + (x - x0) / ((x1 - x0) or 1) * (W - L - R)
    py = lambda y: H - B - y / y1 * (H - B - T)
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" '
           'font-family="sans-serif" font-size="12">' % (W, H),
           '<rect width="100%" height="100%" fill="white"/>',
           '<text x="%d" y="20" font-size="14">swapoff time vs. fill (%s kept at the top; '
           'QEMU %s%s, medians, min-max bars)</text>' % (L, size(keep), accel.upper(),
                                                         " -icount" if icount else "")]
    out.append('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="black"/>' % (L, H - B, W - R, H - B))
    out.append('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="black"/>' % (L, T, L, H - B))
    for i in range(5):
        y = y1 * i / 4
        out.append('<text x="%d" y="%d" text-anchor="end">%.0f</text>' % (L - 5, py(y) + 4, y))
        out.append('<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#ddd"/>' % (L, py(y), W - R, py(y)))
    out.append('<text x="15" y="%d" transform="rotate(-90 15 %d)">ms</text>' % (H / 2, H / 2))
    for f, x in zip(fills, xs):
        out.append('<text x="%.1f" y="%d" text-anchor="middle">%s</text>' % (px(x), H - B + 18, size(f)))
    out.append('<text x="%d" y="%d" text-anchor="middle">ever filled</text>' % ((L + W - R) / 2, H - 8))
    colors = {"base": "#c0392b", "prereq": "#7d8c2f", "patched": "#2471a3"}
    for n, k in enumerate(in_order(data)):
        colors.setdefault(k, "#%02x%02x%02x" % ((150 - 20 * n % 120,) * 3))
        pts = [(px(x), py(stat(data[k][f])[0])) for f, x in zip(fills, xs) if data[k].get(f)]
        if not pts:
            continue
        out.append('<polyline fill="none" stroke="%s" stroke-width="2" points="%s"/>' % (
            colors[k], " ".join("%.1f,%.1f" % p for p in pts)))
        for f, x in zip(fills, xs):
            if data[k].get(f):
                m, lo, hi = stat(data[k][f])
                out.append('<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="%s"/>' % (
                    px(x), py(lo), px(x), py(hi), colors[k]))
                out.append('<circle cx="%.1f" cy="%.1f" r="3" fill="%s"/>' % (px(x), py(m), colors[k]))
        out.append('<text x="%d" y="%d" fill="%s">%s</text>' % (W - R + 15, T + 20 + 18 * n, colors[k], k))
    out.append("</svg>")
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")


def in_order(names):
    """The kernels among names, in the order of their columns: base, the
    prerequisites alone, the series' prefixes (stepN: up to patch N,
    bench-swapoff.sh's STEPS), the whole series."""
    steps = sorted((n for n in names if re.fullmatch(r"step\d+", n)), key=lambda n: int(n[4:]))
    return [k for k in ("base", "prereq") if k in names] + steps + \
        (["patched"] if "patched" in names else [])


def fmt_ratio(ci, base, other):
    """A ratio with its interval ci; without one (under 3 rounds), the
    ratio of the medians of the lists base and other alone, marked."""
    if ci:
        return fmt_ci(ci)
    if not base or not other:
        return "-"
    return "%.2f [no interval]" % (statistics.median(other) / statistics.median(base))


def ratio_cell(base, other):
    """fmt_ratio() of dicts {round: ms}, their common rounds paired."""
    return fmt_ratio(ratio_ci(base, other), list(base.values()), list(other.values()))


def verdict(ci, want):
    """Whether a ratio's 95% interval lies under want: met, NOT met (the
    interval lies above), undecided (it holds want), or no interval."""
    if ci is None:
        return "no interval (fewer than 3 rounds)"
    if ci[2] <= want:
        return "met"
    return "NOT met" if ci[1] > want else "undecided"


def report(a):
    rows = load(a.csv, a.cpu)
    if not rows:
        print("no results in %s" % a.csv)
        return 1
    byrep = {}  # kernel -> fill_mb or "ordinary" -> {rep: ms}
    bad = []
    for r in rows:
        k = r["kernel"]
        row = r["fill_mb"] if r["kind"] == "fill" else "ordinary"
        byrep.setdefault(k, {}).setdefault(row, {})[r["rep"]] = float(r["ms"])
        if r["kind"] == "fill" and int(r["swapcache_kb"]) < int(r["keep_mb"]) * 1024 * 9 // 10:
            bad.append("%s rep %s fill %s: swap cache held %s kB, not the kept %s MiB"
                       % (k, r["rep"], r["fill_mb"], r["swapcache_kb"], r["keep_mb"]))
        if r["clocksource"] != a.clocksource:
            bad.append("%s rep %s: clocksource %s" % (k, r["rep"], r["clocksource"]))
    kernels = in_order(byrep)
    if "base" not in kernels or "patched" not in kernels:
        print("%s: no base or no patched run" % a.csv)
        return 1
    others = [k for k in kernels if k != "patched"]
    data = {k: {f: list(v.values()) for f, v in byrep[k].items() if f != "ordinary"}
            for k in kernels}
    fills = sorted({f for k in data for f in data[k]}, key=int)
    rounds = min(len({r["rep"] for r in rows if r["kernel"] == k}) for k in kernels)
    cpus = sorted({r["cpus"] for r in rows})
    print("swapoff %s, %s (%s vCPU), zram; ms, median [min..max] of %d interleaved rounds"
          % (WHAT[a.cpu], tcg(a.icount, accel_of(a.csv)), "/".join(cpus), rounds))
    print("%-16s %s %s" % ("filled", "".join("%-25s" % k for k in kernels),
                           "  ".join("%-21s" % ("patched/" + k) for k in others)))
    print("%-16s %s %s" % ("", " " * 25 * len(kernels),
                           "  ".join("%-21s" % "[95% interval]" for k in others)))

    def line(lab, row, cells):
        ratios = [ratio_cell(byrep[k].get(row, {}), byrep["patched"].get(row, {}))
                  for k in others]
        print("%-16s %s %s" % (lab, "".join(cell(c) + " " for c in cells),
                               "  ".join("%-21s" % r for r in ratios)))

    # The table's rows: its label, and its key in byrep.
    labelled = [(size(f) + (" (limit)" if int(f) == a.keep else ""), f) for f in fills]
    if any("ordinary" in byrep[k] for k in kernels):
        mb = next((r["fill_mb"] for r in rows if r["kind"] == "ordinary"), "?")
        labelled.append(("ordinary %s" % size(mb), "ordinary"))
    for lab, row in labelled:
        line(lab, row, [list(byrep[k].get(row, {}).values()) for k in kernels])
    steps = [k for k in kernels if k.startswith("step")]
    if steps:
        # A patch alone: each prefix against the kernel before it.
        pairs = [(kernels[kernels.index(k) - 1], k) for k in steps + ["patched"]]
        print()
        print("each step against the kernel before it, [95% interval]:")
        print("%-16s %s" % ("filled", "  ".join("%-21s" % ("%s/%s" % (k, b)) for b, k in pairs)))
        for lab, row in labelled:
            print("%-16s %s" % (lab, "  ".join("%-21s" % ratio_cell(byrep[b].get(row, {}),
                                                                     byrep[k].get(row, {}))
                                               for b, k in pairs)))
    if a.svg:
        svg(a.svg, fills, data, a.keep, a.icount, accel_of(a.csv))

    print()
    lim = str(a.keep)
    fl = [f for f in fills if f != lim]
    med = {k: {f: stat(data[k][f])[0] for f in data[k]} for k in kernels}
    mb_, mp_ = med["base"], med["patched"]
    if fl and lim in mb_ and lim in mp_:
        # With one fill beside the limit, the limit is the small end.
        small, big = (fl[0] if len(fl) > 1 else lim), fl[-1]
        for k in [k for k in kernels if k != "base"]:
            # The same boots, paired by round.
            b, o = byrep[k].get(lim, {}), byrep[k].get(big, {})
            ci = ratio_ci(b, o)
            print("target: %s %s / %s limit = %s (want <= 1.05): %s" % (
                k, size(big), k, fmt_ratio(ci, list(b.values()), list(o.values())),
                verdict(ci, 1.05)))
        if small != lim:
            # The largest fill against the smallest, for the series.
            b, o = byrep["patched"].get(small, {}), byrep["patched"].get(big, {})
            ci = ratio_ci(b, o)
            print("target: patched %s / patched %s = %s (want <= 1.20): %s" % (
                size(big), size(small), fmt_ratio(ci, list(b.values()), list(o.values())),
                verdict(ci, 1.2)))
        gone = (mp_[big] - mp_[lim]) / (mb_[big] - mb_[lim]) if mb_[big] != mb_[lim] else float("nan")
        print("target: (patched - limit) / (base - limit) at %s = %.3f (want <= 0.10): %s" % (
            size(big), gone, "met" if gone <= 0.1 else "NOT met"))
        ci = ratio_ci(byrep["base"].get("ordinary", {}), byrep["patched"].get("ordinary", {}))
        if ci:
            ok = 0.95 <= ci[1] and ci[2] <= 1.05
            print("target: ordinary patched/base = %s (want inside 0.95..1.05): %s" % (
                fmt_ci(ci), "met" if ok else "NOT met" if ci[2] < 0.95 or ci[1] > 1.05
                else "undecided"))
        grow = mb_[big] / mb_[small]
        print("recipe: base %s / base %s = %.2f (must grow with the fill)" % (size(big), size(small), grow))
        if grow < 1.2:
            bad.append("the base kernel's swapoff did not grow with the fill (%.2fx): "
                       "the run did not measure the scan" % grow)
    for b in bad:
        print("RECIPE BROKEN: %s" % b)
    return 1 if bad else 0


def sizes(a):
    """The limit row (only --keep MiB ever filled) on two device sizes, each
    from its own run: per kernel, the larger device's time over the
    smaller's, the boots of the two runs resampled apart."""
    runs = []
    for path in (a.small, a.large):
        rows = load(path, a.cpu)
        with open(path, encoding="utf-8") as f:
            m = re.search(r"disk=(\d+)", f.readline())
        if not rows or not m:
            print("%s: no results, or no disk= in its first line" % path)
            return 1
        lim = {}
        for r in rows:
            if r["kind"] == "fill" and int(r["fill_mb"]) == a.keep:
                lim.setdefault(r["kernel"], []).append(float(r["ms"]))
        runs.append((int(m.group(1)), lim))
    (ds, small), (dl, large) = runs
    print("swapoff %s, the limit row (%s ever filled): %s device against %s, %s; "
          "ms, median [min..max]" % (WHAT[a.cpu], size(a.keep), size(dl), size(ds),
                                     tcg(a.icount, accel_of(a.large))))
    print("%-10s %-25s%-25s%s" % ("kernel", size(ds), size(dl), "%s/%s [95%% interval]" % (size(dl), size(ds))))
    for k in in_order(set(small) | set(large)):
        if k in small and k in large:
            ci = ratio_ci_unpaired(small[k], large[k])
            print("%-10s %s %s %s: %s" % (k, cell(small[k]), cell(large[k]),
                                          fmt_ratio(ci, small[k], large[k]),
                                          verdict(ci, a.want) if k == "patched" else "-"))
    return 0


GRAPH = re.compile(r"^\s*\d+\)\s+(?:[+!#*@$]\s*)?(?:([\d.]+) us)?\s*\|\s(\s*)(\S.*)$")


# What a swapoff that fails on its path calls, besides its own code.
LOOKUP = {"getname", "file_open_name", "filp_close", "(in swapoff itself)", "(whole swapoff)"}


def swapoff_calls(lines):
    """The swapoff calls of a function graph trace that took a device off:
    for each, its time and the time of each call it made, summed by
    function, in ms."""
    calls, cur, top = [], None, None
    for line in lines:
        # The trace lines sit in the program's output, nested in the
        # guest's KTAP document.
        line = line.lstrip(" ")
        if not line.startswith("SWAPQ-TRACE "):
            continue
        m = GRAPH.match(line[len("SWAPQ-TRACE "):])
        if not m:
            continue
        us, indent, text = m.group(1), len(m.group(2)), m.group(3)
        if cur is None:
            if "sys_swapoff()" in text and text.endswith("{"):
                cur, top = {}, indent
            elif calls and us is not None and "bdev_release" in text:
                # The device's release runs once swapoff returns (its
                # file's last fput is deferred to the return to user).
                part = "(device release, after swapoff)"
                calls[-1][part] = calls[-1].get(part, 0.0) + float(us) / 1000
            continue
        if indent == top and text.startswith("}"):
            total = float(us or 0) / 1000
            cur["(in swapoff itself)"] = total - sum(cur.values())
            cur["(whole swapoff)"] = total
            # A swapoff that took no device off (the test's teardown
            # trying a device already off: EINVAL) calls nothing traced
            # but the lookup of its path: it is not one of the fills.
            # (try_to_unuse() itself may be inlined, so not the test.)
            if set(cur) - LOOKUP:
                calls.append(cur)
            cur = None
        elif indent == top + 2 and us is not None:
            name = re.sub(r"^\} /\* (.*) \*/$", r"\1", text).rstrip("();")
            cur[name] = cur.get(name, 0.0) + float(us) / 1000
    return calls


def phases(a):
    """CSV rows kernel,rep,fill_mb,part,ms of one boot's trace."""
    with open(a.results, encoding="utf-8", errors="replace") as f:
        calls = swapoff_calls(f)
    fills = a.fills.split(",")
    if len(calls) != len(fills):
        print("%s: %d swapoff calls traced, %d fills" % (a.results, len(calls), len(fills)),
              file=sys.stderr)
        return 1
    w = csv.writer(sys.stdout, lineterminator="\n")
    for fill, call in list(zip(fills, calls))[1:]:    # the first warms up
        for part, ms in sorted(call.items()):
            w.writerow([a.kernel, a.rep, fill, part, "%.3f" % ms])
    return 0


def phases_report(a):
    rows = load(a.csv)
    data = {}
    for r in rows:
        data.setdefault((r["fill_mb"], r["part"]), {}).setdefault(r["kernel"], []).append(
            float(r["ms"]))
    fills = sorted({f for f, _ in data}, key=int)
    kernels = in_order({k for v in data.values() for k in v})
    print("swapoff by part, %s, %d vCPU, %s zram device, function graph tracer"
          " (slows every call):" % (tcg(a.icount, accel_of(a.csv)), a.smp, size(a.disk)))
    print("ms, median over the boots; parts below 0.1 ms in every kernel left out")
    for f in fills:
        parts = [p for (ff, p) in data if ff == f]
        med = {p: {k: statistics.median(v) for k, v in data[(f, p)].items()} for p in parts}
        parts.sort(key=lambda p: -max(med[p].values()))
        print("\nfilled %s%s" % (size(f), " (limit)" if int(f) == a.keep else ""))
        print("  %-36s" % "part" + "".join(" %12s" % k for k in kernels))
        for p in parts:
            if max(med[p].values()) < 0.1:
                continue
            print("  %-36s" % p[:36] + "".join(" %12s" % ("%.2f" % med[p][k] if k in med[p] else "-")
                                               for k in kernels))
    return 0


def hibernate_report(a):
    """scripts/check/hibernate.sh: image write and time per slot, base/patched."""
    rows = load(a.csv)
    for r in rows:
        if r.get("slot_ns") and r.get("ioctl_ns"):
            r["alloc_ns"] = float(r["slot_ns"]) - float(r["ioctl_ns"])
    icount = icount_of(a.csv)
    print("hibernation, %s, 2 vCPUs, medians over the boots; patched/base" % tcg(icount, accel_of(a.csv)))
    print("with its 95% interval over the interleaved pairs:")
    cols = (("write_ms", "image write (uncompressed)", "ms"),
            ("queue_ms", "image write to its 90% line (slots given, pages queued)", "ms"),
            ("slot_ns", "one slot (SNAPSHOT_ALLOC_SWAP_PAGE)", "ns"),
            ("ioctl_ns", "an ioctl that allocates nothing", "ns"),
            ("alloc_ns", "one slot less that ioctl", "ns"))
    # hibernate.sh writes queue_ms since December 2026; older CSVs lack it.
    cols = tuple(c for c in cols if c[0] != "queue_ms" or any(r.get("queue_ms") for r in rows))
    if icount:
        # With sleep=off, an idle guest's clock jumps to its next timer:
        # the wait for the disk's last completions, after the 90% line,
        # counts that distance, not a path.
        print("  image write: not reported whole under -icount (the wait for the "
              "disk's last\n    completions is not instructions); write_ms in the CSV")
        cols = cols[1:]
    for col, what, unit in cols:
        t = {"base": {}, "patched": {}}
        for r in rows:
            if r.get(col):
                t[r["kernel"]][r["rep"]] = float(r[col])
        print("  %s:" % what)
        for k in ("base", "patched"):
            v = sorted(t[k].values())
            print("    %-8s %d boots, median %s %s" % (
                k, len(v), "%.0f" % statistics.median(v) if v else "-", unit))
        ci = ratio_ci(t["base"], t["patched"])
        if ci is None:
            print("    patched/base: - (fewer than 3 pairs with a time)")
        else:
            print("    patched/base: %.2f %s over %d pairs" % (ci[0], fmt_interval(ci), ci[3]))
    return 0


def add_collect(sub):
    """The collect subcommand: --kernel K --rep N --results LOG."""
    c = sub.add_parser("collect")
    for opt in ("--kernel", "--rep", "--results"):
        c.add_argument(opt, required=True)
    return c


def cli(doc, collect, report, report_opts=()):
    """The command line of a benchmark's script: collect (add_collect) and
    report --csv CSV, with report_opts ((option, argparse keywords), ...)."""
    p = argparse.ArgumentParser(description=doc.splitlines()[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    add_collect(sub)
    r = sub.add_parser("report")
    r.add_argument("--csv", required=True)
    for opt, kw in report_opts:
        r.add_argument(opt, **kw)
    a = p.parse_args()
    return {"collect": collect, "report": report}[a.cmd](a)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    c = add_collect(sub)
    # bench_reps calls every collector alike: bench-swapoff.sh passes the
    # sizes it asked the guest for in BENCH_DISK_MB and BENCH_ORD_DISK_MB.
    c.add_argument("--disk", type=int, default=int(os.environ.get("BENCH_DISK_MB") or 0))
    c.add_argument("--ord-disk", type=int,
                   default=int(os.environ.get("BENCH_ORD_DISK_MB") or 0))
    r = sub.add_parser("report")
    r.add_argument("--csv", required=True)
    r.add_argument("--svg")
    r.add_argument("--keep", type=int, default=16)
    r.add_argument("--icount", action="store_true")
    r.add_argument("--cpu", action="store_true", help="swapoff's CPU time, not its elapsed time")
    r.add_argument("--clocksource", default="tsc",
                   help="the clocksource a sound guest of this architecture reports")
    ph = sub.add_parser("phases")
    for opt in ("--kernel", "--rep", "--results", "--fills"):
        ph.add_argument(opt, required=True)
    pr = sub.add_parser("phases-report")
    pr.add_argument("--csv", required=True)
    pr.add_argument("--keep", type=int, default=16)
    pr.add_argument("--smp", type=int, default=2)
    pr.add_argument("--disk", type=int, default=65536)
    pr.add_argument("--icount", action="store_true")
    sz = sub.add_parser("sizes")
    sz.add_argument("--small", required=True, help="the CSV of the run on the smaller device")
    sz.add_argument("--large", required=True, help="the CSV of the run on the larger device")
    sz.add_argument("--keep", type=int, default=16)
    sz.add_argument("--want", type=float, default=1.05)
    sz.add_argument("--icount", action="store_true")
    sz.add_argument("--cpu", action="store_true", help="swapoff's CPU time, not its elapsed time")
    hr = sub.add_parser("hibernate-report")
    hr.add_argument("--csv", required=True)
    a = ap.parse_args()
    return {"collect": collect, "report": report, "phases": phases,
            "phases-report": phases_report, "sizes": sizes, "hibernate-report": hibernate_report}[a.cmd](a)


if __name__ == "__main__":
    sys.exit(main())
