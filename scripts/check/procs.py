"""Stopping what a stage runs, for scripts/check/check.py.

A stage's command, or the kernel build before it, runs as a child of the
driver.  When the driver is stopped (^C, SIGTERM, SIGHUP), stop_tree()
stops that child and every process under it, whatever its process group
(timeout(1) makes one of its own) and whether or not its parent is still
there: the driver is made their subreaper, so a process whose parent died
of the ^C is still found under the driver.  A process is known by its pid
and its start time together, so a pid reused meanwhile is never signalled.

Kept apart from check.py, whose code is part of the kernel stages' resume
key (scripts/check/stages.py, kernel_side()): how a run is stopped does not
change what a stage that finished found.
"""
import ctypes
import os
import signal
import subprocess
import sys
import threading
import time

PR_SET_CHILD_SUBREAPER = 36


def become_subreaper():
    """Have the processes our children leave behind become ours (Linux)."""
    try:
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    except (OSError, AttributeError):
        pass


def processes():
    """Every process: pid -> (parent, state, start time), from /proc."""
    table = {}
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % d) as f:
                st = f.read()
        except OSError:
            continue
        # After the command's ")": state, parent, ...; the start time is
        # the 22nd field of the whole line, the 20th after ")".
        fields = st[st.rindex(")") + 2:].split()
        table[int(d)] = (int(fields[1]), fields[0], fields[19])
    return table


def under(root, table):
    """The processes under ROOT in TABLE: {pid: start time}."""
    kids = {}
    for pid, (ppid, _, _) in table.items():
        kids.setdefault(ppid, []).append(pid)
    out, todo = {}, [root]
    while todo:
        for c in kids.get(todo.pop(), []):
            out[c] = table[c][2]
            todo.append(c)
    return out


def running(known, table):
    """Those of KNOWN ({pid: start time}) that still run in TABLE."""
    return {pid: st for pid, st in known.items()
            if pid in table and table[pid][2] == st and table[pid][1] not in "ZX"}


def reap(skip, table):
    """Reap the zombies among our children in TABLE (processes()) but SKIP
    (the Popen's own pid, which its wait() reaps): orphans we inherited as
    their subreaper."""
    for pid, (ppid, state, _) in table.items():
        if ppid == os.getpid() and state == "Z" and pid != skip:
            try:
                os.waitpid(pid, os.WNOHANG)
            except ChildProcessError:
                pass


def stop_tree(p):
    """Stop the Popen P and every process under us (P's, and the orphans
    it left, which are ours): SIGTERM, then SIGKILL to what still runs ten
    seconds later.  Signals that come meanwhile (a second ^C) wait."""
    old = {s: signal.signal(s, signal.SIG_IGN)
           for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)}
    try:
        known = {}
        for sig in (signal.SIGTERM, signal.SIGKILL):
            table = processes()
            mine = under(os.getpid(), table)
            if p.poll() is not None:
                mine.pop(p.pid, None)
            for pid, st in mine.items():
                known.setdefault(pid, st)
            live = running(known, table)
            if not live:
                break
            for pid in live:
                try:
                    os.kill(pid, sig)
                except OSError:
                    pass
            deadline = time.time() + 10
            while time.time() < deadline:
                table = processes()
                reap(p.pid, table)
                if p.poll() is not None and not running(known, table):
                    break
                time.sleep(0.1)
        p.wait()
        reap(p.pid, processes())
    finally:
        for s, h in old.items():
            signal.signal(s, h)


def stop(signum, frame):
    """SIGTERM or SIGHUP: stop as ^C does."""
    raise KeyboardInterrupt


def run(cmd, cwd, env, out=None):
    """Run CMD in CWD and return its status.  With OUT (a file), its output
    and errors go to OUT and to our stdout, also while it is being stopped;
    without, its output is dropped and its errors are ours.  Stopped with
    everything under it when we are."""
    p = copy = None
    try:
        p = subprocess.Popen(cmd, cwd=cwd, env=env,
                             stdout=subprocess.PIPE if out else subprocess.DEVNULL,
                             stderr=subprocess.STDOUT if out else None)
        if out:
            copy = threading.Thread(target=tee, args=(p.stdout, out), daemon=True)
            copy.start()
        status = p.wait()
        if out:
            copy.join()
        reap(None, processes())
        return status
    except KeyboardInterrupt:
        if p is not None:
            stop_tree(p)
            if copy is not None:
                copy.join(2)
        raise


def tee(src, out):
    """Copy the lines of SRC (bytes) to OUT and to our stdout."""
    for raw in src:
        line = raw.decode(errors="replace")
        out.write(line)
        out.flush()
        sys.stdout.write(line)
        sys.stdout.flush()
