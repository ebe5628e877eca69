#!/usr/bin/env python3
"""Judge a guest run from its saved logs, or parse KTAP on its own.

  results.py judge --name N --console C --results R [--src TREE] [--skip-fails]
  results.py ktap FILE [--src TREE]   per-case results of the KTAP in FILE
  results.py splats FILE              the splats found in a console log

The console log (ttyS0) carries the kernel's messages, hence the KUnit
KTAP and any splat; the results channel (ttyS1) carries one KTAP document
written by guest/init: the guest facts as "# SWAPQ-FACT" lines, and each
test program as a subtest, its own TAP nested four spaces deep, its
result line carrying its exit status.  Both are parsed by the kernel
tree's own kunit_parser (tools/testing/kunit, --src or $SRC); this file
adds what that parser does not judge: splats, the guest's facts,
timeouts, programs that did not finish or printed no TAP, and a failing
parent with no failing case.
A run fails on a splat, a timeout, a guest that did not finish, fewer than
two CPUs or a clocksource other than --clocksource (tsc), and on any failed
or missing case.  With --skip-fails a skipped case counts as failed.
"""
import argparse
import io
import json
import os
import re
import sys

TS = re.compile(r"^\[\s*\d+\.\d+\]\s?")

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


def splat_report(lines, n, most=30):
    """The report that starts at console line n: up to its end marker
    (KASAN's and KCSAN's row of '=', "---[ end"), at most most lines."""
    out = []
    for line in lines[n - 1:n - 1 + most]:
        out.append(line.rstrip())
        if len(out) > 1 and re.search(r"^={20,}$|---\[ end ", line.strip()):
            break
    return out


def kunit_parser(src):
    """The base tree's own KTAP parser (tools/testing/kunit/kunit_parser.py)."""
    d = os.path.join(src or "", "tools", "testing", "kunit")
    if not os.path.isfile(os.path.join(d, "kunit_parser.py")):
        sys.exit("results.py: no tools/testing/kunit/kunit_parser.py under %r "
                 "(--src: the kernel tree the guest was built from)" % (src or ""))
    sys.path.insert(0, d)
    import kunit_parser as kp
    return kp


def documents(lines):
    """The KTAP documents in lines, each from its version line at column 0
    (a hibernation run joins two boots', each with its own)."""
    docs = []
    for line in lines:
        if re.match(r"^K?TAP version \d+", line):
            docs.append([])
        if docs:
            docs[-1].append(line)
    return docs


def plan_first(lines):
    """KTAP wants a block's plan before its results; the kselftest runner
    (run_vmtests.sh) prints its plan after them.  Move such a plan up to
    just after the version line that opened its block."""
    out = []
    opened = {}     # indentation -> index in out of its block's version line
    planned = set()
    for line in lines:
        d = len(line) - len(line.lstrip(" "))
        if re.match(r"^\s*K?TAP version \d+", line):
            opened[d] = len(out)
            planned.discard(d)
        elif re.match(r"^\s*# Subtest: ", line) and opened.get(d) == len(out) - 1:
            opened[d] = len(out)    # the plan goes after the block's name
        elif re.match(r"^\s*1\.\.\d+\s*$", line) and d in opened and d not in planned:
            planned.add(d)
            if any(re.match(r"^\s*(not )?ok \d+", l) and len(l) - len(l.lstrip(" ")) == d
                   for l in out[opened[d] + 1:]):
                out.insert(opened[d] + 1, line)
                continue
        out.append(line)
    return out


def placeholder(test, kp):
    """A result a plan promised that never came (kunit_parser's stand-in)."""
    return not test.name and not test.subtests and test.status == kp.TestStatus.TEST_CRASHED


def walk(test, path, cases, kp):
    """Append (status, name, note) for each leaf under test, named by its
    suites' names and its own.  A parent that failed, or that never
    reported its result, with no failing case under it fails itself."""
    st = kp.TestStatus
    for i, sub in enumerate(test.subtests, 1):
        if placeholder(sub, kp):
            cases.append(("fail", "%s.missing%d" % (path or "tap", i), "planned but never reported"))
            continue
        full = "%s.%s" % (path, sub.name) if path else sub.name
        if sub.subtests:
            before = len(cases)
            walk(sub, full, cases, kp)
            failed = any(c[0] == "fail" for c in cases[before:])
            if sub.status == st.FAILURE and not failed:
                cases.append(("fail", full, "failed with no failing case"))
            elif sub.status == st.TEST_CRASHED and not failed:
                cases.append(("fail", full, "no result line: cut short"))
        elif sub.status == st.SUCCESS:
            cases.append(("pass", full, ""))
        elif sub.status == st.SKIPPED:
            cases.append(("skip", full, ("SKIP " + getattr(sub, "skip_reason", "")).strip()))
        else:
            cases.append(("fail", full, "" if sub.status == st.FAILURE else sub.status.name.lower()))


def parse_ktap(lines, kp):
    """The kunit_parser tree of one KTAP document."""
    printer = kp.Printer(print=False, output=io.StringIO())
    return kp.parse_run_tests(plan_first(lines), printer)


def kunit_cases(docs, prefix, kp):
    """Per-case results of KTAP documents (KUnit on the console)."""
    cases = []
    for doc in docs:
        walk(parse_ktap(doc, kp), "", cases, kp)
    return [(s, prefix + n, note) for s, n, note in cases]


PROGRAM = re.compile(r"^(?:ok|not ok) \d+ (\S+)(?: # (?:SKIP )?exit=(\d+))?\s*$")


def program_cases(docs, kp):
    """Per-case results of the guest's results channel: one KTAP document
    (guest/init) per boot, each test program a subtest whose own TAP is
    nested four spaces deep; its result line carries the program's exit
    status, which kunit_parser does not keep."""
    cases = []
    for doc in docs:
        rcs = {}
        for line in doc:
            m = PROGRAM.match(line)
            if m:
                rcs[m.group(1)] = int(m.group(2) or 0)
        for i, p in enumerate(parse_ktap(doc, kp).subtests, 1):
            if placeholder(p, kp):
                cases.append(("fail", "program%d" % i, "planned but never reported"))
                continue
            rc = rcs.get(p.name)
            pc = []
            walk(p, "", pc, kp)
            pc = [(s, "%s:%s" % (p.name, n), note) for s, n, note in pc]
            if any(re.match(r"^    (?:ok|not ok) \d+ (?:- )?%s(?: #.*)?\s*$" % re.escape(p.name), l)
                   for l in doc):
                # kunit_parser takes such a line for the end of the subtest.
                pc = [("fail", p.name, "a case is named like its program: rename the case")]
            if rc is None:
                pc.append(("fail", p.name, "did not finish"))
            elif not p.subtests:
                pc = [("fail", p.name, "no TAP result (exit %s)" % rc)]
            elif rc not in (0, 4) and not any(c[0] == "fail" for c in pc):
                pc.append(("fail", p.name, "exit status %s" % rc))
            cases.extend(pc)
    return cases


def read_fact(line, facts):
    """Add the key=value pairs of a SWAPQ-FACT line to facts."""
    m = re.match(r"^(?:#\s*)?SWAPQ-FACT (.*)", line)
    if m:
        for kv in m.group(1).split():
            k, _, v = kv.partition("=")
            facts[k] = v


def tap_add(path, results):
    """Append (status, name, note) results to the TAP file PATH, numbered
    after its lines (scripts/lib.sh's results_line); status is pass, fail,
    or skip (an "ok" with a SKIP directive).  The process that owns PATH
    (RESULTS_PID, lib.sh: boot.sh execs us) ends it with its plan."""
    n = 0
    if os.path.exists(path):
        with open(path) as f:
            n = sum(1 for l in f if re.match(r"^(not )?ok ", l))
    with open(path, "a") as f:
        for st, name, note in results:
            n += 1
            name = name.replace("#", "_").replace("\n", " ")
            note = note.replace("\n", " ")
            if st == "pass":
                f.write("ok %d %s\n" % (n, name))
            elif st == "skip":
                f.write("ok %d %s # SKIP %s\n" % (n, name, note))
            else:
                f.write("not ok %d %s%s\n" % (n, name, " # " + note if note else ""))
        if os.environ.get("RESULTS_PID") == str(os.getpid()):
            f.write("1..%d\n" % n)


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
    first_splat = splats(con)[:1]
    for n, line, _ in first_splat:
        errors.append("kernel splat at console line %d: %s" % (n, line))
    done = any(re.match(r"^(?:#\s*)?SWAPQ-DONE\s*$", l) for l in res)
    if not done and status not in (124, 137):
        last = next((l for l in reversed(con) if l.strip()), "(empty console)")
        errors.append("guest did not finish its tests; last console line: %s" % last.strip())
    # As many CPUs as it was given (--smp, 2 unless a run asks for one):
    # a guest short of CPUs lost them (ACPI?).
    if "cpus" in facts and int(facts["cpus"]) < a.smp:
        errors.append("guest saw %s CPU(s), need at least %d (ACPI?)" % (facts["cpus"], a.smp))
    for k in ("clocksource", "clocksource_end"):
        if k in facts and facts[k] != a.clocksource:
            errors.append("guest %s is %s, not %s" % (k, facts[k], a.clocksource))

    cases = []
    cdocs, rdocs = documents(con), documents(res)
    if cdocs or rdocs:
        kp = kunit_parser(a.src)
        cases = kunit_cases(cdocs, "kunit:", kp) + program_cases(rdocs, kp)

    npass = sum(1 for c in cases if c[0] == "pass")
    nfail = sum(1 for c in cases if c[0] == "fail")
    nskip = sum(1 for c in cases if c[0] == "skip")
    for st, name, note in cases:
        if st != "pass" or a.verbose:
            print("%-4s %s%s" % (st.upper(), name, "  # " + note if note else ""))
    for e in errors:
        print("FAIL %s: %s" % (a.name, e))
    # The first splat's report as the console has it (CI keeps no guest
    # log): where it came from is in the lines after its first.
    for n, _, _ in first_splat:
        for line in splat_report(con, n):
            print("# console %s" % line)
    if a.skip_fails:
        nfail += nskip
    nfail += len(errors)
    summary = {"name": a.name, "passed": npass, "failed": nfail, "skipped": nskip,
               "errors": errors, "facts": facts}
    if a.summary:
        with open(a.summary, "w") as f:
            json.dump(summary, f)
    print("%s: %d passed, %d failed, %d skipped (cpus=%s clocksource=%s accel=%s, %ss)" % (
        a.name, npass, nfail, nskip, facts.get("cpus", "?"),
        facts.get("clocksource", "?"), facts.get("accel", "?"), facts.get("elapsed", "?")))
    if a.require_cases and not cases:
        print("FAIL %s: no test results at all" % a.name)
        errors.append("no test results at all")
    if os.environ.get("RESULTS"):
        tap_add(os.environ["RESULTS"],
                [("fail" if st == "skip" and a.skip_fails else st, "%s: %s" % (a.name, n), note)
                 for st, n, note in cases] +
                [("fail", "%s: the run" % a.name, e) for e in errors])
    if a.require_cases and not cases:
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
    j.add_argument("--smp", type=int, default=2, help="the vCPUs the guest was given")
    j.add_argument("--src", default=os.environ.get("SRC"),
                   help="kernel tree with tools/testing/kunit (default: $SRC)")
    j.add_argument("--summary")
    j.add_argument("--skip-fails", action="store_true")
    j.add_argument("--require-cases", action="store_true")
    j.add_argument("--verbose", "-v", action="store_true")
    k = sub.add_parser("ktap")
    k.add_argument("file")
    k.add_argument("--src", default=os.environ.get("SRC"))
    s = sub.add_parser("splats")
    s.add_argument("file")
    a = ap.parse_args()
    if a.cmd == "judge":
        return judge(a)
    if a.cmd == "ktap":
        for st, name, note in kunit_cases(documents(read_lines(a.file)), "", kunit_parser(a.src)):
            print("%s %s%s" % (st, name, "  # " + note if note else ""))
        return 0
    for n, line, name in splats(read_lines(a.file)):
        print("%d: [%s] %s" % (n, name, line))
    return 0


if __name__ == "__main__":
    sys.exit(main())
