"""Resumable steps (tools/zhtools/steps.py, and tools/lab/steps.sh for the remaining shell
tools): two runs that share a folder make a step once. The second waits while the first makes
it, then skips it; when the first fails, the second makes it; a Python run and a shell run
exclude each other the same way (the lab's chunk job and a shell tool may share a folder)."""
import os
import subprocess
import sys
import tempfile
import time
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
# The step's command: says it started, waits for the test's go-ahead (a minute at most),
# records that it ran, and ends with the status it is given.
MAKE = """import os, sys, time
work, tag, status = sys.argv[1], sys.argv[2], int(sys.argv[3])
open(os.path.join(work, "started-" + tag), "w").close()
for _ in range(600):
    if os.path.exists(os.path.join(work, "go")):
        break
    time.sleep(0.1)
with open(os.path.join(work, "ran"), "a") as f:
    f.write(tag + "\\n")
sys.exit(status)
"""
PY_RUN = """import sys
from tools.zhtools.steps import StepFailed, step
try:
    step(sys.argv[1], "chunk", sys.argv[2:])
except StepFailed as e:
    print(e)
    sys.exit(1)
"""


class SharedStep(unittest.TestCase):
    def setUp(self):
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        self.work = tmp.name
        self.make = os.path.join(self.work, "make.py")
        with open(self.make, "w") as f:
            f.write(MAKE)

    def start(self, kind, tag, status):
        """A run of kind "py" or "sh" making the step "chunk"; (process, its output file)."""
        command = [sys.executable, self.make, self.work, tag, str(status)]
        if kind == "py":
            argv = [sys.executable, "-c", PY_RUN, self.work] + command
        else:
            argv = ["bash", "-c", 'DIR=$1; shift; source tools/lab/steps.sh; step chunk "$@"',
                    "_", self.work] + command
        out = os.path.join(self.work, tag + ".out")
        with open(out, "w") as f:
            return subprocess.Popen(argv, cwd=ROOT, stdout=f, stderr=subprocess.STDOUT), out

    def wait_until(self, test, what):
        for _ in range(600):
            if test():
                return
            time.sleep(0.1)
        self.fail("never: " + what)

    def read(self, path):
        with open(path) as f:
            return f.read()

    def second_waits_then_skips(self, first_kind, second_kind):
        first, _ = self.start(first_kind, "first", 0)
        self.wait_until(lambda: os.path.exists(os.path.join(self.work, "started-first")),
                        "the first run started")
        second, out = self.start(second_kind, "second", 0)
        self.wait_until(lambda: "chunk: another run is making it; waiting for it" in self.read(out),
                        "the second run waited")
        open(os.path.join(self.work, "go"), "w").close()
        self.assertEqual(first.wait(), 0)
        self.assertEqual(second.wait(), 0, self.read(out))
        self.assertEqual(self.read(os.path.join(self.work, "ran")), "first\n")
        self.assertIn("chunk: done before", self.read(out))
        self.assertTrue(os.path.exists(os.path.join(self.work, "chunk.done")))

    def test_python_runs_make_a_step_once(self):
        self.second_waits_then_skips("py", "py")

    def test_a_shell_run_waits_for_a_python_one(self):
        self.second_waits_then_skips("py", "sh")

    def test_a_python_run_waits_for_a_shell_one(self):
        self.second_waits_then_skips("sh", "py")

    def test_a_failed_first_run_leaves_the_step_to_the_second(self):
        first, first_out = self.start("py", "first", 1)
        self.wait_until(lambda: os.path.exists(os.path.join(self.work, "started-first")),
                        "the first run started")
        second, out = self.start("py", "second", 0)
        open(os.path.join(self.work, "go"), "w").close()
        self.assertEqual(first.wait(), 1, "a failed step was reported a success")
        self.assertIn("chunk failed (log: ", self.read(first_out))
        self.assertEqual(second.wait(), 0, self.read(out))
        self.assertEqual(self.read(os.path.join(self.work, "ran")), "first\nsecond\n")
        self.assertTrue(os.path.exists(os.path.join(self.work, "chunk.done")))
        # The log keeps both attempts.
        self.assertEqual(self.read(os.path.join(self.work, "chunk.log")).count("== "), 2)


if __name__ == "__main__":
    unittest.main(verbosity=2)
