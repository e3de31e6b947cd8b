"""python3 -m tools.lab.ship_network on a copy of the files it changes: a good network becomes
the default in all three places tools and zhbot read it from; each bad input is refused with its
reason and leaves every file as it was."""
import difflib
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


class ShipNetwork(unittest.TestCase):
    def setUp(self):
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        # A checkout with the tools and the files the tool reads and changes.
        self.tree = tree = os.path.join(tmp.name, "tree")
        shutil.copytree(os.path.join(ROOT, "tools"), os.path.join(tree, "tools"),
                        ignore=shutil.ignore_patterns("__pycache__"))
        for path in ("engine/evaluator_loader.cpp", "config/zhbot.yaml"):
            os.makedirs(os.path.dirname(os.path.join(tree, path)), exist_ok=True)
            shutil.copy(os.path.join(ROOT, path), os.path.join(tree, path))
        os.makedirs(os.path.join(tree, "models"))
        # A run with its two model files.
        self.run_dir = os.path.join(tmp.name, "run")
        os.makedirs(self.run_dir)
        self.net = self.write("zhbot-net-test.pt", 4096)
        self.write("zhbot-net-test-int8.pt", 1024)
        self.before = self.shipped()

    def write(self, name, size):
        path = os.path.join(self.run_dir, name)
        with open(path, "wb") as f:
            f.write(os.urandom(size))
        return path

    def tool(self, *args, module="tools.lab.ship_network"):
        return subprocess.run([sys.executable, "-m", module, *args], cwd=self.tree,
                              capture_output=True, text=True)

    def shipped(self):
        done = subprocess.run(["bash", os.path.join(self.tree, "tools/lab/shipped_model.sh")],
                              capture_output=True, text=True)
        self.assertEqual(done.returncode, 0, done.stderr)
        return done.stdout.strip()

    def snapshot(self):
        sums = {}
        for folder, _, files in os.walk(self.tree):
            for name in files:
                path = os.path.join(folder, name)
                if "__pycache__" not in path:
                    with open(path, "rb") as f:
                        sums[path] = hashlib.sha256(f.read()).hexdigest()
        return sums

    def refused(self, expected, *args):
        was = self.snapshot()
        done = self.tool(*args)
        self.assertNotEqual(done.returncode, 0)
        self.assertIn(expected, done.stderr)
        self.assertEqual(self.snapshot(), was, "a refusal changed a file")

    def test_bad_inputs_are_refused_with_nothing_changed(self):
        self.refused("usage")
        self.refused("no such file", os.path.join(self.run_dir, "zhbot-net-missing.pt"))
        self.refused("not its int8 file", os.path.join(self.run_dir, "zhbot-net-test-int8.pt"))
        lonely = self.write("lonely.pt", 64)
        self.refused("no int8 file", lonely)
        self.refused("already the shipped network", os.path.join(ROOT, self.before))
        big = self.write("big.pt", 16)
        with open(big, "r+b") as f:
            f.truncate(21 * 1024 * 1024)
        self.write("big-int8.pt", 16)
        self.refused("larger than 20 MB", big)

    def changed_lines(self, path):
        with open(os.path.join(ROOT, path)) as a, open(os.path.join(self.tree, path)) as b:
            return [x for x in difflib.unified_diff(a.readlines(), b.readlines(), n=0)
                    if x[:1] in "+-" and x[:3] not in ("+++", "---")]

    def test_a_good_network_ships_everywhere(self):
        done = self.tool(self.net)
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertEqual(self.shipped(), "models/zhbot-net-test.pt")
        # One line changed in each file (the other lines untouched), to name the new network.
        loader = self.changed_lines("engine/evaluator_loader.cpp")
        self.assertEqual(len(loader), 2, loader)
        self.assertEqual(loader[1], '+constexpr const char* kShippedModel = "zhbot-net-test.pt";\n')
        config = self.changed_lines("config/zhbot.yaml")
        self.assertEqual(len(config), 2, config)
        self.assertEqual(config[1], '+  model: "zhbot-net-test.pt"\n')
        for name in ("zhbot-net-test.pt", "zhbot-net-test-int8.pt"):
            with open(os.path.join(self.run_dir, name), "rb") as a, \
                    open(os.path.join(self.tree, "models", name), "rb") as b:
                self.assertEqual(a.read(), b.read(), name)
        self.assertIn("was " + self.before[len("models/"):], done.stdout)


if __name__ == "__main__":
    unittest.main(verbosity=2)
