"""The lab takes teacher chunks from the shared folder instead of making them again
(tools.zhtools.chunk_import, called by the next network's chunk step), at toy scale (seconds):
a good archive is imported, checked and marked done; a damaged archive and an archive that
holds another seed's games are refused with their names and made again from their seeds; a
second run takes nothing twice; a Python that cannot run the check stops before it throws a
good archive away."""
import filecmp
import glob
import os
import shutil
import subprocess
import sys
import unittest

from tests.tools import lab_harness as h


def pack(archive, folder, name):
    subprocess.run(["tar", "-cJf", archive, "-C", folder, name], check=True)


class SharedChunks(unittest.TestCase):
    def test_good_imported_bad_refused_and_made_again(self):
        work = h.work_dir("lab-import")
        made, pool = os.path.join(work, "made"), os.path.join(work, "pool", "teacher-50")
        os.makedirs(pool)
        reports = {seed: h.datagen(os.path.join(made, "chunk-%d" % seed), seed) for seed in (7, 8)}
        pack(os.path.join(pool, "chunk-7.tar.xz"), made, "chunk-7")
        # Damaged: seed 8's archive with a run of its bytes overwritten (xz's checksum).
        damaged = os.path.join(pool, "chunk-8.tar.xz")
        pack(damaged, made, "chunk-8")
        with open(damaged, "r+b") as f:
            f.seek(os.path.getsize(damaged) // 2)
            f.write(b"damaged" * 8)
        # Another seed's games under seed 9's name.
        renamed = os.path.join(work, "renamed")
        shutil.copytree(os.path.join(made, "chunk-7"), os.path.join(renamed, "chunk-9"))
        pack(os.path.join(pool, "chunk-9.tar.xz"), renamed, "chunk-9")

        env = {"ZHBOT_LAB": os.path.join(work, "lab"),
               "ZHBOT_SHARED_DATA": os.path.join(work, "pool")}
        args = (os.path.join(work, "run"), "--zhbot", h.zhbot(), "--previous",
                os.path.join(h.ROOT, "models", "zhbot-net-1.pt"), "--data-only", "--chunks", 3,
                "--seed", 7, "--nodes", 50, "--chunk-games", 1, "--workers", 1, "--test-nodes",
                60, "--test-games", 1)
        first = h.run("tools.lab.next_network", *args, env=env)
        self.assertEqual(first.returncode, 0, first.stdout)
        data = os.path.join(work, "lab", "data", "teacher-50")

        # The good archive: imported with the positions datagen wrote, marked done.
        self.assertRegex(first.stdout, r"(?m)^imported %s: chunk-7: %d positions from 1 of 1 "
                         r"games of seed 7" % (os.path.join(pool, "chunk-7.tar.xz"),
                                               h.written(reports[7])))
        self.assertTrue(os.path.exists(os.path.join(data, "chunk-7.done")))
        same = filecmp.dircmp(os.path.join(made, "chunk-7"), os.path.join(data, "chunk-7"))
        self.assertEqual((same.left_only, same.right_only, same.diff_files), ([], [], []))
        with open(os.path.join(data, "chunk-7.source")) as f:
            self.assertRegex(f.read(), r"(?m)^sha256 [0-9a-f]{64}$")
        with open(os.path.join(data, "chunk-7.log")) as f:
            self.assertNotIn("\nthroughput", f.read(), "made although the shared folder holds it")

        # The damaged archive and the stranger: refused by name, made again from their seeds.
        self.assertRegex(first.stdout, r"(?m)^refused %s: does not unpack" % damaged)
        self.assertRegex(first.stdout, r"(?m)^refused %s: .*not among seed 9's first 1 games"
                         % os.path.join(pool, "chunk-9.tar.xz"))
        for seed in (8, 9):
            self.assertIn("chunk-%d is made again from its seed" % seed, first.stdout)
            self.assertTrue(os.path.exists(os.path.join(data, "chunk-%d.done" % seed)))
            check = subprocess.run([sys.executable, "-m", "training.check_chunk",
                                    os.path.join(data, "chunk-%d" % seed), "--seed", str(seed),
                                    "--games", "1"], cwd=h.ROOT, capture_output=True, text=True)
            self.assertEqual(check.returncode, 0, check.stdout + check.stderr)
        self.assertEqual(glob.glob(os.path.join(data, ".import-*")), [], "a refusal left a folder")

        # Run again: nothing imported or made twice.
        second = h.run("tools.lab.next_network", *args, env=env)
        self.assertEqual(second.returncode, 0, second.stdout)
        for seed in (7, 8, 9):
            self.assertIn("chunk-%d: done before" % seed, second.stdout)

    def test_a_python_without_the_training_modules_stops_and_throws_nothing_away(self):
        # A Python that cannot import numpy (a fake module that fails as a missing one does)
        # would read every archive as damaged and make good chunks again for hours.
        work = h.work_dir("lab-import-no-numpy")
        made, pool = os.path.join(work, "made"), os.path.join(work, "pool", "teacher-50")
        os.makedirs(pool)
        h.datagen(os.path.join(made, "chunk-7"), 7)
        pack(os.path.join(pool, "chunk-7.tar.xz"), made, "chunk-7")
        fake = os.path.join(work, "fake-modules")
        os.makedirs(fake)
        with open(os.path.join(fake, "numpy.py"), "w") as f:
            f.write('raise ModuleNotFoundError("No module named \'numpy\'", name="numpy")\n')
        lab = os.path.join(work, "lab")
        env = {"ZHBOT_LAB": lab, "ZHBOT_SHARED_DATA": os.path.join(work, "pool"),
               "PYTHONPATH": fake}
        run = h.run("tools.lab.next_network", os.path.join(work, "run"), "--zhbot", h.zhbot(),
                    "--previous", os.path.join(h.ROOT, "models", "zhbot-net-1.pt"),
                    "--data-only", "--chunks", 1, "--seed", 7, "--nodes", 50, "--chunk-games", 1,
                    "--workers", 1, "--test-nodes", 60, "--test-games", 1, env=env)
        self.assertNotEqual(run.returncode, 0, run.stdout)
        self.assertIn("has no module 'numpy'", run.stdout)
        self.assertNotIn("refused", run.stdout)
        data = os.path.join(lab, "data", "teacher-50")
        self.assertFalse(os.path.exists(os.path.join(data, "chunk-7.done")))
        self.assertFalse(os.path.exists(os.path.join(data, "chunk-7")), "made from its seed")
        self.assertEqual(glob.glob(os.path.join(data, ".import-*")), [], "left a folder")


if __name__ == "__main__":
    h.main()
