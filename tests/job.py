"""job.py CMD...: run CMD as a terminal runs a job, for the tests that
send it a terminal's ^C: in a session (and process group) of its own, its
id this process's pid, with SIGINT's default action, which a job started
with & in a script would not have (it ignores SIGINT)."""
import os
import signal
import sys

signal.signal(signal.SIGINT, signal.SIG_DFL)
os.setsid()
os.execvp(sys.argv[1], sys.argv[1:])
