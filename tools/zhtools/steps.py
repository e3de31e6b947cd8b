"""Resumable steps for the long pipelines of the lab: a step leaves a marker, FOLDER/NAME.done,
and is skipped when run again, so the same command goes on where it stopped.

A step's output is appended to FOLDER/NAME.log (a resumed step keeps what its earlier attempts
printed). Two runs that share a folder (the chunk job and a network's run both make the lab's
chunks) never make the same step at once: the second waits on FOLDER/NAME.lock (flock(2), the
lock tools/lab/steps.sh takes for the lab's shell tools, so the two kinds exclude each other),
then skips what the first finished or makes again what it left undone."""
import fcntl
import os
import subprocess
import sys
import time


class StepFailed(RuntimeError):
    """A step's command failed; the message names the step and its log."""


def _stamp():
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


def step(folder, name, action, what=None, say=print):
    """Makes step `name` in `folder` unless it is done: `action` is an argv list (run with its
    output appended to the log) or a callable taking the open log (text, line-buffered) that
    returns normally on success; `what` describes it (default: the argv, or the name). Returns
    True when it ran, False when done before; raises StepFailed when the action fails (nothing
    is marked done)."""
    os.makedirs(folder, exist_ok=True)
    log_path = os.path.join(folder, name + ".log")
    with open(os.path.join(folder, name + ".lock"), "a") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            say("%s: another run is making it; waiting for it" % name)
            sys.stdout.flush()
            fcntl.flock(lock, fcntl.LOCK_EX)
        done = os.path.join(folder, name + ".done")
        if os.path.exists(done):
            say("%s: done before" % name)
            return False
        if what is None:
            what = " ".join(action) if isinstance(action, list) else name
        say("%s: %s" % (name, what))
        sys.stdout.flush()
        with open(log_path, "a", buffering=1) as log:
            log.write("== %s %s\n" % (_stamp(), what))
            log.flush()
            ok = _run(action, log)
        if not ok:
            raise StepFailed("%s failed (log: %s)" % (name, log_path))
        open(done, "a").close()
        return True


def _run(action, log):
    if isinstance(action, list):
        return subprocess.run(action, stdout=log, stderr=subprocess.STDOUT).returncode == 0
    try:
        action(log)
    except (StepFailed, subprocess.CalledProcessError, OSError) as e:
        log.write("%s\n" % e)
        return False
    return True
