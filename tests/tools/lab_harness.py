"""What the lab's and the GPU tools' tests share: the zhbot under test and a work folder (from
ctest: $ZH_TEST_ZHBOT, $ZH_TEST_WORK), a tool run as its users run it, toy teacher chunks, and
the exit status 77 that ctest reports as skipped when the teacher engine is missing."""
import os
import shutil
import subprocess
import sys
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
FAIRY = "/usr/games/fairy-stockfish"
SKIPPED = 77


def zhbot():
    path = os.environ.get("ZH_TEST_ZHBOT", os.path.join(ROOT, "build/default/bot/zhbot"))
    if not os.access(path, os.X_OK):
        raise RuntimeError("no zhbot at %s: build it, or name it in ZH_TEST_ZHBOT" % path)
    return path


def work_dir(name):
    """A fresh folder for one test: $ZH_TEST_WORK/NAME (kept after a failure to read)."""
    base = os.environ.get("ZH_TEST_WORK") or os.path.join(ROOT, "build", "tool-tests")
    path = os.path.join(base, name)
    shutil.rmtree(path, ignore_errors=True)
    os.makedirs(path)
    return path


def run(module, *args, env=None):
    """`python3 -m MODULE ARGS` from the checkout's root with `env` added to the environment;
    the finished process, stdout and stderr together as text."""
    full = dict(os.environ, OPENBLAS_NUM_THREADS="1", **(env or {}))
    return subprocess.run([sys.executable, "-m", module, *map(str, args)], cwd=ROOT, env=full,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def datagen(out, seed, games=1, nodes=50, workers=1, *extra):
    """A toy teacher chunk made by the real zhbot; datagen's report."""
    done = subprocess.run([zhbot(), "datagen", "--out", out, "--nodes", str(nodes), "--games",
                           str(games), "--workers", str(workers), "--seed", str(seed), *extra],
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if done.returncode:
        raise AssertionError("datagen of seed %d failed:\n%s" % (seed, done.stdout))
    return done.stdout


def written(report):
    """The positions datagen says it wrote."""
    for line in report.splitlines():
        if line.startswith("positions") and "written" in line:
            return int(line.split()[1])
    raise AssertionError("no 'positions N written' line in:\n" + report)


def main():
    """unittest.main, or the skip status when the teacher engine is missing."""
    if not os.access(FAIRY, os.X_OK):
        print("SKIP: fairy-stockfish is not installed at %s" % FAIRY)
        sys.exit(SKIPPED)
    unittest.main(verbosity=2)
