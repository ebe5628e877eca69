#!/usr/bin/env python3
"""make check and make check-full: run the declared stages, sum their results.

  check.py [--full] [--table FILE]   run the stages (stages.py), in order
  check.py --record [--table FILE]   copy this tree's finished stages to
                                     records/check/ (make record-stages)

Each stage's command gets a results file of its own ($RESULTS, TAP: see
scripts/lib.sh) and its output goes to build/logs/check-NAME.log and here.
A stage passes only when its command exits 0 and the file is complete (its
plan last) with something passed in it.  The closing line, "N passed, N
failed", is the sum over the files, and a failure for each stage that
exited non-zero with no failure in its file, ended without its plan, or
passed nothing.

A finished stage's file is kept under its key: the content of the files
it depends on (its inputs in stages.py: the clone but records/, and but
the prose for stages that do not test it; for the kernel stages, the
source the series makes in the work tree, not the patches' text), the
stage's name and command, and the value of every parameter in
config/params.
With RESUME=1 a stage whose key has a file, here (build/logs/check/done/)
or committed (records/check/), is not run again: its results are added as
they were, failures too.  A stage cut short is not kept, and runs again.
"""
import argparse
import datetime
import hashlib
import os
import re
import shutil
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import procs  # noqa: E402
import stages as table_of  # noqa: E402  (main() has its own "stages")
from stages import in_inputs  # noqa: E402

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
RESULT = re.compile(r"^(not )?ok \d+ ")
WORK = None  # the work tree; defaults() sets it


def say(msg):
    sys.stderr.write("==> %s\n" % msg)
    sys.stderr.flush()


def load_table(path):
    """The stages of stages.py, or the STAGES of another Python file (a
    test's), which may use stages.py's stage(), CODE, ALL and kernel_side()."""
    if not path:
        return table_of.STAGES
    scope = {"__file__": path, "stage": table_of.stage, "CODE": table_of.CODE,
             "ALL": table_of.ALL, "kernel_side": table_of.kernel_side}
    with open(path) as f:
        exec(compile(f.read(), path, "exec"), scope)
    return scope["STAGES"]


def parameters():
    """The parameters config/params lists (not its internal names)."""
    params = []
    with open(os.path.join(TOP, "config", "params")) as f:
        for line in f:
            if line.startswith("# internal"):
                break
            if not line.startswith("#"):
                params.extend(line.split())
    return params


def source_id():
    """stages.py's SOURCE: the tree of each commit of the work tree, and
    its uncommitted changes; "none" when there is no work tree."""
    h = hashlib.sha1()
    try:
        for args in (["log", "--format=%T", "HEAD"], ["diff", "HEAD"],
                     ["status", "--porcelain", "--untracked-files=no"]):
            h.update(subprocess.run(["git", "-C", WORK] + args, check=True,
                                    capture_output=True).stdout)
    except (OSError, subprocess.CalledProcessError):
        return "none"
    return h.hexdigest()


def tree_id(inputs):
    """The content and uncommitted changes of the clone's files that
    match the pathspecs inputs (stages.py's CODE, ALL, kernel_side()),
    and the work tree's source when they name it (SOURCE)."""
    h = hashlib.sha1()
    if table_of.SOURCE in inputs:
        h.update(("source %s\n" % source_id()).encode())
    spec = ["--"] + [i for i in inputs if i != table_of.SOURCE]
    try:
        for args in (["ls-files", "-s"], ["diff", "HEAD"], ["status", "--porcelain"]):
            h.update(subprocess.run(["git", "-C", TOP] + args + spec, check=True,
                                    capture_output=True).stdout)
    except (OSError, subprocess.CalledProcessError):
        # Not a clone (an unpacked tarball): the files themselves.
        for d, dirs, files in sorted(os.walk(TOP)):
            dirs[:] = sorted(x for x in dirs if d != TOP or x not in ("build", ".git"))
            for name in sorted(files):
                p = os.path.join(d, name)
                if not in_inputs(os.path.relpath(p, TOP), inputs):
                    continue
                h.update(p[len(TOP):].encode())
                with open(p, "rb") as f:
                    h.update(f.read())
    return h.hexdigest()


def stage_key(tree, st, params):
    """What a stage's record holds for: its inputs' content (tree: that
    of each set of inputs), the stage, every parameter."""
    h = hashlib.sha1()
    h.update(("%s\n%s\n%s\n%s\n" % (tree[st.inputs], st.name, " ".join(st.command),
                                     " ".join(st.kernels))).encode())
    for p in params:
        h.update(("%s=%s\n" % (p, os.environ.get(p, ""))).encode())
    return h.hexdigest()[:20]


def stage_keys(stages, params):
    """The key of each of stages, by name."""
    tree = {i: tree_id(i) for i in {s.inputs for s in stages}}
    return {s.name: stage_key(tree, s, params) for s in stages}


def read_results(path):
    """(passed, failed, skipped, complete, failure lines) of a TAP file."""
    try:
        with open(path, errors="replace") as f:
            lines = [l.rstrip("\n") for l in f]
    except OSError:
        return None
    res = [l for l in lines if RESULT.match(l)]
    skipped = sum(1 for l in res if l.startswith("ok ") and re.search(r"#\s*SKIP", l))
    passed = sum(1 for l in res if l.startswith("ok ")) - skipped
    failures = [l for l in res if l.startswith("not ok ")]
    last = next((l for l in reversed(lines) if l.strip()), "")
    complete = last == "1..%d" % len(res)
    return passed, len(failures), skipped, complete, failures


def run_command(st, env, log):
    """Run a stage's command, its output to LOG and to ours; its status."""
    with open(log, "w") as out:
        return procs.run(st.command, TOP, env, out)


def build_kernel(spec, built):
    """Build the VARIANT-FLAVOR test kernel once per run; True if it built."""
    if spec not in built:
        variant, flavor = spec.split("-", 1)
        say("test kernel %s (%s)" % (flavor, variant))
        env = dict(os.environ, VARIANT=variant, FLAVOR=flavor)
        built[spec] = procs.run([os.path.join(TOP, "scripts/kernel/kernel.sh")], TOP, env) == 0
        if not built[spec]:
            say("the %s %s kernel did not build (see build/logs/build-%s-%s-%s.log)" % (
                variant, flavor, os.environ["ARCH"], variant, flavor))
    return built[spec]


def defaults():
    """The values make check's stages run with unless told otherwise, and
    the work tree's path (WORK, read here but not put in the stages'
    environment: the harness's tests make work trees of their own)."""
    global WORK
    out = subprocess.run(["sh", "-c", '. scripts/lib.sh && printf "%s\\n%s\\n%s\\n%s\\n" '
                          '"$SERIES_SELFTESTS" "$CHECK_TESTS" "$(arch_native)" "$WORK"'], cwd=TOP,
                         capture_output=True, text=True, check=True).stdout.split("\n")
    os.environ.setdefault("ARCH", out[2])
    WORK = os.environ.get("WORK", out[3])
    os.environ.setdefault("SELFTESTS", out[0])
    os.environ.setdefault("GUEST_TESTS", out[1])


class Run:
    def __init__(self, build, resume):
        self.build = build
        self.resume = resume
        self.passed = self.failed = self.skipped = 0
        self.logs = os.path.join(build, "logs")
        self.dir = os.path.join(self.logs, "check")
        self.done = os.path.join(self.dir, "done")
        self.records = os.environ.get("RECORDS") or os.path.join(TOP, "records", "check")
        os.makedirs(self.done, exist_ok=True)

    def fail(self, name, why):
        print("not ok %s - %s" % (name, why))
        self.failed += 1

    def recorded(self, key):
        """The complete results kept for KEY, here or committed (RESUME=1)."""
        if not self.resume:
            return None
        for d in (self.done, self.records):
            path = os.path.join(d, key + ".tap")
            r = read_results(path)
            if r and r[3]:
                return path, r
        return None

    def add(self, r):
        self.passed += r[0]
        self.failed += r[1]
        self.skipped += r[2]

    def run_stage(self, st, key, built):
        results = os.path.join(self.dir, st.name + ".tap")
        log = os.path.join(self.logs, "check-%s.log" % st.name)
        open(results, "w").close()
        for spec in st.kernels:
            build_kernel(spec, built)
        env = dict(os.environ, RESULTS=results, CHECK_STAGE=st.name, STAGE_KEY=key,
                   STAGE_DONE=self.done, RECORDS=self.records)
        env.pop("RESULTS_PID", None)
        t0 = time.time()
        rc = run_command(st, env, log)
        took = int(time.time() - t0)
        r = read_results(results)
        where = "(see build/logs/check-%s.log)" % st.name
        if r is None or (r[0] + r[1] + r[2] == 0 and not r[3]):
            self.fail(st.name, "exited %d and wrote no results %s" % (rc, where))
            return False
        if not r[3]:
            for l in r[4]:
                print("# %s: %s" % (st.name, l))
            self.fail(st.name, "exited %d, its results cut short after %d (no plan at their end) %s"
                      % (rc, r[0] + r[1] + r[2], where))
            return False
        self.add(r)
        say("%s: %d passed, %d failed, %d skipped in %d s" % (st.name, r[0], r[1], r[2], took))
        if rc != 0 and r[1] == 0:
            self.fail(st.name + "-exit-status", "exited %d with no failure in its results %s"
                      % (rc, where))
            return False
        if r[0] + r[1] + r[2] == 0:
            self.fail(st.name + "-no-results", "no result at all (an empty plan) %s" % where)
            return False
        commit = subprocess.run(["git", "-C", TOP, "rev-parse", "--short=12", "HEAD"],
                                capture_output=True, text=True).stdout.strip() or "-"
        when = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%MZ")
        kept = os.path.join(self.done, key + ".tap")
        with open(kept + ".new", "w") as f, open(results) as src:
            f.write("# stage %s commit %s ended %s took %d s\n" % (st.name, commit, when, took))
            shutil.copyfileobj(src, f)
        os.replace(kept + ".new", kept)
        return r[1] == 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--full", action="store_true", help="make check-full's stages too")
    ap.add_argument("--table", help="another table of stages than stages.py (tests)")
    ap.add_argument("--record", action="store_true",
                    help="copy this tree's finished stages to records/check/")
    ap.add_argument("--source-id", action="store_true",
                    help="print what the test kernels are built from (SOURCE), and stop")
    a = ap.parse_args()
    if a.source_id:
        defaults()
        print(source_id())
        return 0
    # Stopped by SIGTERM or SIGHUP as by ^C: the stage under way and all
    # it runs stop (scripts/check/procs.py), and the counts so far are
    # printed.
    signal.signal(signal.SIGTERM, procs.stop)
    signal.signal(signal.SIGHUP, procs.stop)
    procs.become_subreaper()
    table = load_table(a.table)
    defaults()
    build = os.environ.get("BUILD") or os.path.join(TOP, "build")
    os.environ["BUILD"] = build
    params = parameters()
    stages = [s for s in table if a.full or not s.full]
    # CHECK_STAGES=a,b: only those (and the first stages, which the
    # others need), as a resumed run would, with the same keys.
    only = [n for n in os.environ.get("CHECK_STAGES", "").split(",") if n]
    unknown = sorted(set(only) - {s.name for s in stages})
    if unknown:
        say("error: no stage %s in this run (%s)" % (", ".join(unknown),
                                                    " ".join(s.name for s in stages)))
        return 2
    if only:
        stages = [s for s in stages if s.first or s.name in only]
    # The keys, the first stages' before they run; the others' after:
    # the series the first stages apply is part of them (SOURCE).
    first = [s for s in stages if s.first]
    keys = stage_keys(first if not a.record else stages, params)
    run = Run(build, os.environ.get("RESUME") == "1" or a.record)
    if a.record:
        return record(run, stages, keys)

    t_start = time.time()
    built = {}
    recs = {}
    left = sum(s.seconds for s in stages if not s.first)
    try:
        for i, st in enumerate(stages, 1):
            if not st.first and st.name not in keys:
                keys.update(stage_keys([s for s in stages if not s.first], params))
                recs = {s.name: run.recorded(keys[s.name]) for s in stages if not s.first}
                left = sum(s.seconds for s in stages if not s.first and not recs[s.name])
            key = keys[st.name]
            rec = recs.get(st.name)
            if rec:
                path, r = rec
                with open(path) as f:
                    head = f.readline().strip("# \n")
                print("# resumed %s: %d passed, %d failed (%s; %s)" % (
                    st.name, r[0], r[1], os.path.relpath(path, TOP), head))
                for l in r[4]:
                    print("# %s: %s" % (st.name, l))
                run.add(r)
                continue
            say("stage %d/%d %s (about %d min here, %d min of stages left): %s" % (
                i, len(stages), st.name, (st.seconds + 59) // 60, (left + 59) // 60, st.what))
            left -= st.seconds
            ok = run.run_stage(st, key, built)
            if st.first and not ok:
                break
    except KeyboardInterrupt:
        say("interrupted: the stage cut short is not kept; RESUME=1 runs it again")
        print("%d passed, %d failed" % (run.passed, run.failed + 1))
        return 130
    say("make check%s took %d s%s" % ("-full" if a.full else "", time.time() - t_start,
                                    ", %d skipped" % run.skipped if run.skipped else ""))
    print("%d passed, %d failed" % (run.passed, run.failed))
    return 1 if run.failed else 0


def record(run, stages, keys):
    """make record-stages: this tree's finished stages (and their parts)
    into records/check/, each once; the totals of what is recorded."""
    os.makedirs(run.records, exist_ok=True)
    added, p, f, names = 0, 0, 0, []
    for st in stages:
        key = keys[st.name]
        for name in sorted(os.listdir(run.done)):
            if not (name == key + ".tap" or name.startswith(key + ".")) or name.endswith(".new"):
                continue
            src = os.path.join(run.done, name)
            r = read_results(src)
            if not r or not r[3]:
                continue
            dst = os.path.join(run.records, name)
            if not os.path.exists(dst):
                shutil.copyfile(src, dst)
                added += 1
        r = read_results(os.path.join(run.records, key + ".tap"))
        if r and r[3]:
            p, f = p + r[0], f + r[1]
            names.append(st.name)
    say("%d file(s) of this tree's stages added to %s" % (added, os.path.relpath(run.records, TOP)))
    print("recorded for this tree: %s (%d passed, %d failed)" % (" ".join(names) or "none", p, f))
    if not names and not os.listdir(run.done):
        say("no finished stage under build/logs/check/done: run make check or check-full first")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
