"""tools/measure/sim_threads: the sim's own settings (--sim-options) reach the sim runs and
only them, the figures are the medians of the runs, and a malformed setting is refused."""
import contextlib
import io
import json
import os
import stat
import sys
import tempfile
import unittest
from unittest import mock

from tools.measure import sim_threads

# A stand-in for `zhbot selfplay`: it logs its arguments and prints a summary line whose
# figures depend on the backend (uniform twice the sim's nodes/s) and on the run's number.
FAKE_ZHBOT = """#!%s
import json, sys
log = sys.argv[0] + ".log"
with open(log, "a") as f:
    f.write(json.dumps(sys.argv[1:]) + "\\n")
runs = sum(1 for _ in open(log))
sim = "sim" in sys.argv
nodes = 1000.0 * runs * (1 if sim else 2)
print("progress text")
print(json.dumps({"nodes_per_s": nodes, "capacity": 0.1 * runs, "evaluations_per_s": nodes,
                  "device_limit_per_s": 5000.0}))
"""


class SimOptions(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.zhbot = os.path.join(self.dir.name, "zhbot")
        with open(self.zhbot, "w") as f:
            f.write(FAKE_ZHBOT % sys.executable)
        os.chmod(self.zhbot, os.stat(self.zhbot).st_mode | stat.S_IEXEC)

    def tearDown(self):
        self.dir.cleanup()

    def runs(self):
        with open(self.zhbot + ".log") as f:
            return [json.loads(line) for line in f]

    def test_the_sim_runs_get_the_settings_and_the_uniform_runs_do_not(self):
        uniform, sim, capacity, limit = sim_threads.measure(
            self.zhbot, True, 8, 3, "fixed_us=760,per_position_us=35.6")
        runs = self.runs()
        self.assertEqual(len(runs), 6)  # three pairs, uniform first
        for i, args in enumerate(runs):
            backend = args[args.index("--backend") + 1]
            self.assertEqual(backend, "uniform" if i % 2 == 0 else "sim")
            self.assertIn("threads=8", args)
            self.assertIn("graph=true", args)
            has_settings = "backend_options=fixed_us=760,per_position_us=35.6" in args
            self.assertEqual(has_settings, backend == "sim", args)
        # Medians of the three runs of each kind (run numbers 1, 3, 5 and 2, 4, 6).
        self.assertEqual(uniform, 2 * 3000.0)
        self.assertEqual(sim, 4000.0)
        self.assertAlmostEqual(capacity, 0.4)
        self.assertEqual(limit, 5000.0)

    def test_without_settings_the_sim_runs_at_its_defaults(self):
        sim_threads.measure(self.zhbot, False, 1, 1)
        for args in self.runs():
            self.assertFalse(any(a.startswith("backend_options") for a in args), args)

    def test_a_setting_with_spaces_is_refused(self):
        argv = ["sim_threads", "--zhbot", self.zhbot, "--sim-options", "fixed_us=1, x=2"]
        with mock.patch.object(sys, "argv", argv), \
                contextlib.redirect_stderr(io.StringIO()) as err, \
                self.assertRaises(SystemExit):
            sim_threads.main()
        self.assertIn("without spaces", err.getvalue())
        self.assertFalse(os.path.exists(self.zhbot + ".log"))


if __name__ == "__main__":
    unittest.main()
