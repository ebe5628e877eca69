#!/usr/bin/env python3
"""Judge a guest run from its saved logs, or parse KTAP on its own.

  results.py judge --name N --console C --results R [--skip-fails]
  results.py ktap FILE          per-case results of the KUnit KTAP in FILE
  results.py splats FILE        the splats found in a console log

The console log (ttyS0) carries the kernel's messages, hence the KUnit
KTAP and any splat; the results channel (ttyS1) carries the guest facts
and each test program's TAP between SWAPQ-BEGIN/SWAPQ-END markers.
A run fails on a splat, a timeout, a guest that did not finish, fewer than
two CPUs or a clocksource other than --clocksource (tsc), and on any failed
or missing case.  With --skip-fails a skipped case counts as failed.
"""
import argparse
import json
import re
import sys

TS = re.compile(r"^\[\s*\d+\.\d+\]\s?")
RESULT = re.compile(r"^(\s*)(ok|not ok) (\d+)(?: -)? ?([^#]*?)\s*(?:#\s*(.*))?$")
PLAN = re.compile(r"^(\s*)1\.\.(\d+)")

# What a kernel splat starts with, named.  Each is a line the kernel
# prints only when something went wrong.  A line is reported under the
# first pattern it matches, so the specific ones come before the general
# ones they would also match (tests/data/splat-lines.txt has a line for
# each name, which must be reported under that name).
SPLATS = [(name, re.compile(p)) for name, p in (
    # Out of the whole system's memory the kernel panics with "System is
    # deadlocked on memory"; a memory cgroup with nothing to kill is not a
    # splat: its charge fails (swapoff's ENOMEM test does that).
    ("panic", r"Kernel panic - not syncing"),
    ("kasan", r"BUG: KASAN: "),
    ("kcsan", r"BUG: KCSAN: "),
    ("soft-lockup", r"watchdog: BUG: soft lockup"),
    ("lockdep-circular", r"possible circular locking dependency detected"),
    ("lockdep-recursive", r"possible recursive locking detected"),
    ("lockdep-inconsistent", r"inconsistent lock state"),
    ("rcu-suspicious", r"suspicious RCU usage"),
    ("hung-task", r"INFO: task .* blocked for more than"),
    ("rcu-stall", r"rcu: INFO: rcu_.* detected stalls"),
    ("ubsan", r"UBSAN: "),
    ("gpf", r"general protection fault"),
    ("bug-at", r"kernel BUG at"),
    ("bug", r"\bBUG: "),
    ("oops", r"\bOops\b"),
    ("warning-cpu", r"WARNING: CPU: \d+ PID: \d+"),
    ("warning", r"^WARNING: "),
    ("cut-here", r"------------\[ cut here \]------------"),
)]


def strip_ts(line):
    return TS.sub("", line.rstrip("\r\n"))


def read_lines(path):
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return [strip_ts(l) for l in f]
    except OSError:
        return []


def splats(lines):
    """(line number, line, pattern name) of each line that is a splat."""
    found = []
    for i, line in enumerate(lines):
        name = next((n for n, p in SPLATS if p.search(line)), None)
        if name:
            found.append((i + 1, line.strip(), name))
    return found


def missing(cases, name, seen, planned):
    """A failing NAME.missingN case for each result a plan promised beyond seen."""
    for i in range(seen, planned):
        cases.append(("fail", "%s.missing%d" % (name, i + 1), "planned but never reported"))


def block(prefix, names, d):
    """The name of the results at depth d: their suites, or "tap"."""
    return prefix + (".".join(names[k] for k in sorted(names) if 0 < k <= d) or "tap")


def parse_tap(lines, prefix):
    """Results of KTAP/TAP lines: a list of (status, name, note).

    Nested results are printed before their parent's result line, and
    "# Subtest: NAME" names the suite whose results share its indentation.
    Only leaves count (a parameterised case counts each parameter).  A plan
    ("1..N") that promises more results than arrive adds a failure for each
    missing one, so a suite cut short by a crash cannot pass.
    """
    cases = []
    plans = {}          # depth -> [planned, seen]
    names = {}          # depth -> name of the suite reporting at that depth
    counts = {}         # depth -> results so far in that depth's block
    last_depth = None
    for line in lines:
        sm = re.match(r"^(\s*)# Subtest: (\S+)", line)
        if sm:
            names[len(sm.group(1))] = sm.group(2)
            continue
        m = PLAN.match(line)
        if m:
            d, planned = len(m.group(1)), int(m.group(2))
            if counts.get(d):
                # A plan after its results (the kselftest runner's): check now.
                missing(cases, block(prefix, names, d), counts[d], planned)
            else:
                plans[d] = [planned, 0]
            continue
        m = RESULT.match(line)
        if not m:
            continue
        d = len(m.group(1))
        status = "pass" if m.group(2) == "ok" else "fail"
        name = m.group(4).strip() or "case%s" % m.group(3)
        note = (m.group(5) or "").strip()
        if note.upper().startswith("SKIP"):
            status = "skip"
        if d in plans:
            plans[d][1] += 1
        counts[d] = counts.get(d, 0) + 1
        path = [names[k] for k in sorted(names) if 0 < k <= d]
        full = prefix + ".".join(path + [name])
        if last_depth is not None and last_depth > d:
            # A parent's result: its children were the cases.
            for k in sorted(plans):
                if k > d:
                    planned, seen = plans.pop(k)
                    missing(cases, full, seen, planned)
            for k in [k for k in names if k > d]:
                del names[k]
            for k in [k for k in counts if k > d]:
                del counts[k]
            if status == "fail" and not any(
                    c[0] == "fail" and c[1].startswith(full + ".") for c in cases):
                cases.append(("fail", full, "failed with no failing case"))
        else:
            cases.append((status, full, note))
        last_depth = d
    for d, (planned, seen) in sorted(plans.items()):
        missing(cases, block(prefix, names, d), seen, planned)
    return cases


def kunit_lines(lines):
    """The KTAP part of a console log: from the first KTAP version line."""
    out = []
    on = False
    for line in lines:
        if re.match(r"^\s*K?TAP version \d+", line):
            on = True
        if on:
            out.append(line)
    return out


def programs(lines):
    progs = []
    cur = None
    for line in lines:
        if line.startswith("SWAPQ-BEGIN "):
            cur = {"name": line.split()[1], "lines": [], "rc": None}
            progs.append(cur)
        elif line.startswith("SWAPQ-END ") and cur is not None:
            cur["rc"] = int(line.rsplit("rc=", 1)[1])
            cur = None
        elif cur is not None:
            cur["lines"].append(line)
    return progs


def read_fact(line, facts):
    """Add the key=value pairs of a SWAPQ-FACT line to facts."""
    if line.startswith("SWAPQ-FACT "):
        for kv in line.split()[1:]:
            k, _, v = kv.partition("=")
            facts[k] = v


def judge(a):
    con = read_lines(a.console)
    res = read_lines(a.results)
    errors = []
    facts = {}
    for line in res:
        read_fact(line, facts)
        m = re.match(r"qemu_status=(\d+) elapsed=(\d+)", line)
        if m:
            facts["qemu_status"], facts["elapsed"] = int(m.group(1)), int(m.group(2))
    status = facts.get("qemu_status")
    if status in (124, 137):
        errors.append("guest timed out after %ss (hang)" % facts.get("elapsed"))
    for n, line, _ in splats(con)[:1]:
        errors.append("kernel splat at console line %d: %s" % (n, line))
    if "SWAPQ-DONE" not in res and status not in (124, 137):
        last = next((l for l in reversed(con) if l.strip()), "(empty console)")
        errors.append("guest did not finish its tests; last console line: %s" % last.strip())
    if "cpus" in facts and int(facts["cpus"]) < 2:
        errors.append("guest saw %s CPU(s), need at least 2 (ACPI?)" % facts["cpus"])
    for k in ("clocksource", "clocksource_end"):
        if k in facts and facts[k] != a.clocksource:
            errors.append("guest %s is %s, not %s" % (k, facts[k], a.clocksource))

    cases = parse_tap(kunit_lines(con), "kunit:")
    for p in programs(res):
        pc = parse_tap(p["lines"], "%s:" % p["name"])
        if not pc:
            pc = [("fail", p["name"], "no TAP result (exit %s)" % p["rc"])]
        elif p["rc"] is None:
            pc.append(("fail", p["name"], "did not finish"))
        elif p["rc"] not in (0, 4) and not any(c[0] == "fail" for c in pc):
            pc.append(("fail", p["name"], "exit status %s" % p["rc"]))
        cases.extend(pc)

    npass = sum(1 for c in cases if c[0] == "pass")
    nfail = sum(1 for c in cases if c[0] == "fail")
    nskip = sum(1 for c in cases if c[0] == "skip")
    for st, name, note in cases:
        if st != "pass" or a.verbose:
            print("%-4s %s%s" % (st.upper(), name, "  # " + note if note else ""))
    for e in errors:
        print("FAIL %s: %s" % (a.name, e))
    if a.skip_fails:
        nfail += nskip
    nfail += len(errors)
    summary = {"name": a.name, "passed": npass, "failed": nfail, "skipped": nskip,
               "errors": errors, "facts": facts}
    if a.summary:
        with open(a.summary, "w") as f:
            json.dump(summary, f)
    print("%s: %d passed, %d failed, %d skipped (cpus=%s clocksource=%s, %ss)" % (
        a.name, npass, nfail, nskip, facts.get("cpus", "?"),
        facts.get("clocksource", "?"), facts.get("elapsed", "?")))
    if a.require_cases and not cases:
        print("FAIL %s: no test results at all" % a.name)
        return 1
    return 1 if nfail else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    j = sub.add_parser("judge")
    j.add_argument("--name", required=True)
    j.add_argument("--console", required=True)
    j.add_argument("--results", required=True)
    j.add_argument("--clocksource", default="tsc")
    j.add_argument("--summary")
    j.add_argument("--skip-fails", action="store_true")
    j.add_argument("--require-cases", action="store_true")
    j.add_argument("--verbose", "-v", action="store_true")
    k = sub.add_parser("ktap")
    k.add_argument("file")
    s = sub.add_parser("splats")
    s.add_argument("file")
    a = ap.parse_args()
    if a.cmd == "judge":
        return judge(a)
    if a.cmd == "ktap":
        for st, name, note in parse_tap(kunit_lines(read_lines(a.file)), ""):
            print("%s %s%s" % (st, name, "  # " + note if note else ""))
        return 0
    for n, line, name in splats(read_lines(a.file)):
        print("%d: [%s] %s" % (n, name, line))
    return 0


if __name__ == "__main__":
    sys.exit(main())
