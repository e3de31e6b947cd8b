"""The GPU session (python3 -m tools.gpu.session, entered by tools/gpu/gpu_session.sh) at toy
scale on the CPU (about a minute), every step for real: prepare carries the chunks to train on
within the travel budget and the seeds the lab lacks, from the top of the recipe's range; check
names a broken carry and the run stops; run makes chunks from those seeds while a network
trains warm from the "shipped" one for the time the session has left, and hands back the packed
chunks, the checkpoint (weights alone), its export and a report within the file budget; the
lab's import (python3 -m tools.lab.import_gpu) takes them in and refuses another node count."""
import glob
import os
import re
import subprocess
import sys
import time
import unittest

from tests.tools import lab_harness as h


class GpuSession(unittest.TestCase):
    def setUp(self):
        self.work = w = h.work_dir("gpu-session")
        self.pool = os.path.join(w, "pool", "teacher-50")
        os.makedirs(self.pool)
        self.shipped = os.path.join(w, "shipped.pt")
        made = h.run("training.make_random_net", self.shipped, "--arch", "resnet-1x8", "--seed", 2)
        self.assertEqual(made.returncode, 0, made.stdout)
        # Two packed chunks to train on (the shared folder's, at toy size).
        for seed in (3, 4):
            h.datagen(os.path.join(w, "made", "chunk-%d" % seed), seed, 2, 50, 2,
                      "--max-plies", "40")
            subprocess.run(["tar", "-cJf", os.path.join(self.pool, "chunk-%d.tar.xz" % seed),
                            "-C", os.path.join(w, "made"), "chunk-%d" % seed], check=True)
        # The lab has made the top seed of the toy recipe (100-103) already.
        self.lab_data = os.path.join(w, "lab", "data", "teacher-50")
        os.makedirs(self.lab_data)
        open(os.path.join(self.lab_data, "chunk-103.done"), "w").close()
        # A travel budget of 64 MiB plus what this build's zhbot takes stripped (a sanitizer
        # build's is tens of MiB): the big chunk below cannot fit.
        stripped = os.path.join(w, "zhbot.stripped")
        subprocess.run(["strip", "-o", stripped, h.zhbot()], check=True)
        self.travel_mb = 64 + os.path.getsize(stripped) // (1024 * 1024)
        self.env = {"ZHBOT_LAB": os.path.join(w, "lab"),
                    "ZHBOT_SHARED_DATA": os.path.join(w, "pool")}
        self.carry = os.path.join(w, "carry")
        self.dir = os.path.join(w, "session")

    def session(self, stage, *extra, carry=None):
        return h.run("tools.gpu.session", stage, *extra, "--dir", self.dir, "--carry",
                     carry or self.carry, "--scale", "toy", "--device", "cpu", "--shipped-net",
                     self.shipped, "--travel-mb", self.travel_mb, "--recipe-seed", 100,
                     "--recipe-chunks", 4, "--gpu-chunks", 2, "--workers", 2, env=self.env)

    def test_prepare_check_run_and_import(self):
        prepared = self.session("prepare", "--datagen-zhbot", h.zhbot())
        self.assertEqual(prepared.returncode, 0, prepared.stdout)
        with open(os.path.join(self.carry, "seeds")) as f:
            self.assertEqual(f.read().split(), ["102", "101"], "the seeds the lab lacks, top down")
        self.assertEqual(len(glob.glob(os.path.join(self.carry, "chunks", "chunk-*.tar.xz"))), 2)
        for tool in ("zhbot", "fairy-stockfish"):
            self.assertTrue(os.access(os.path.join(self.carry, "bin", tool), os.X_OK), tool)
        # What travels is bounded: an archive larger than the room left (sparse: the whole
        # budget, taking no disk) stays behind, the one before it travels.
        big = os.path.join(self.work, "big")
        os.makedirs(big)
        subprocess.run(["cp", os.path.join(self.pool, "chunk-3.tar.xz"), big], check=True)
        with open(os.path.join(big, "chunk-4.tar.xz"), "wb") as f:
            f.truncate(self.travel_mb * 1024 * 1024)
        big_carry = os.path.join(self.work, "carry-big")
        bounded = self.session("prepare", "--datagen-zhbot", h.zhbot(), "--carry-chunks", big,
                               carry=big_carry)
        self.assertEqual(bounded.returncode, 0, bounded.stdout)
        self.assertTrue(os.path.exists(os.path.join(big_carry, "chunks", "chunk-3.tar.xz")))
        self.assertFalse(os.path.exists(os.path.join(big_carry, "chunks", "chunk-4.tar.xz")))

        # The check, through the shell entry point with this interpreter as python3.
        bin_dir = os.path.join(self.work, "bin")
        os.makedirs(bin_dir)
        os.symlink(sys.executable, os.path.join(bin_dir, "python3"))
        started = time.monotonic()
        checked = subprocess.run(
            ["bash", os.path.join(h.ROOT, "tools/gpu/gpu_session.sh"), "check", "--dir", self.dir,
             "--carry", self.carry, "--scale", "toy", "--device", "cpu", "--shipped-net",
             self.shipped], env=dict(os.environ, PATH=bin_dir + ":" + os.environ["PATH"],
                                     **self.env), stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT, text=True)
        check_seconds = time.monotonic() - started
        self.assertEqual(checked.returncode, 0, checked.stdout)
        self.assertRegex(checked.stdout, r"(?m)^ok +PyTorch, numpy, the shipped network: .*; "
                         r"shipped network resnet-1x8$")
        self.assertRegex(checked.stdout, r"(?m)^ok +teacher games")
        self.assertEqual(len(re.findall(r"(?m)^ok +chunk chunk-", checked.stdout)), 2)
        # A broken carry: named, and the run stops before any work.
        teacher = os.path.join(self.carry, "bin", "fairy-stockfish")
        os.rename(teacher, teacher + ".moved")
        broken = self.session("run", os.path.join(self.work, "out-broken"))
        os.rename(teacher + ".moved", teacher)
        self.assertNotEqual(broken.returncode, 0, "a run without its teacher went on")
        self.assertRegex(broken.stdout, r"(?m)^FAILED +carried teacher")
        self.assertFalse(os.path.exists(os.path.join(self.dir, "datagen", "chunk-102")))

        # The session's length: the check again, the export's margin (12 s in toy), a start,
        # the carried chunks re-encoded into the recipe's input format (a zhbot start each),
        # and some 10 s of training and chunks; from this machine's speed with room for its
        # load to change. A budget of 4 files leaves room for one chunk beside the checkpoint,
        # its export and the report, though two seeds are asked for.
        session_seconds = int(4 * check_seconds + 45)
        out = os.path.join(self.work, "out")
        ran = self.session("run", out, "--session-seconds", session_seconds, "--return-files", 4)
        self.assertEqual(ran.returncode, 0, ran.stdout)
        listing = subprocess.run(["tar", "-tJf", os.path.join(out, "chunk-102.tar.xz")],
                                 capture_output=True, text=True).stdout
        self.assertRegex(listing, r"(?m)^chunk-102/.*\.zhrec$")
        self.assertRegex(listing, r"(?m)^chunk-102\.log$")
        with open(os.path.join(self.dir, "train.log")) as f:
            train_log = f.read()
        self.assertIn("warm start from %s" % self.shipped, train_log)
        # The recipe's format 2.0: the 1.0 chunks re-encoded, the 1.0 network widened.
        self.assertIn("takes format 1.0 (34 planes); the 12 planes format 2.0 adds", train_log)
        self.assertRegex(train_log, r"(?m)^time budget ")
        with open(os.path.join(out, "gpu-session.md")) as f:
            report = f.read()
        left = re.search(r"(?m)^- training started: (\d+) s of the session left to it$", report)
        self.assertTrue(left, report)
        self.assertTrue(0 < int(left.group(1)) < session_seconds, report)
        ckpts = glob.glob(os.path.join(out, "*.ckpt"))
        self.assertEqual(len(ckpts), 1, os.listdir(out))
        weights_alone = subprocess.run(
            [sys.executable, "-c", "import sys, torch; s = torch.load(sys.argv[1]); "
             "sys.exit(0 if 'model' in s and 'optimizer' not in s else 1)", ckpts[0]])
        self.assertEqual(weights_alone.returncode, 0, "the checkpoint is not the weights alone")
        self.assertGreater(os.path.getsize(ckpts[0][:-len(".ckpt")] + ".pt"), 0)
        self.assertLessEqual(len(os.listdir(out)), 4, os.listdir(out))
        self.assertRegex(report, r"(?m)^- room in OUT: 1 chunk\(s\)$")
        self.assertFalse(os.path.exists(os.path.join(out, "chunk-101.tar.xz")))
        self.assertRegex(report, r"(?m)^- check: \d+ s")
        self.assertRegex(report, r"(?m)^- chunk-102: \d+ s")

        # The lab takes what came back: the chunks marked done, the network exported here.
        taken = h.run("tools.lab.import_gpu", out, "--zhbot", h.zhbot(), "--nodes", 50,
                      "--chunk-games", 1, env=self.env)
        self.assertEqual(taken.returncode, 0, taken.stdout)
        self.assertTrue(os.path.exists(os.path.join(self.lab_data, "chunk-102.done")))
        with open(os.path.join(self.lab_data, "chunk-102.source")) as f:
            self.assertIn("chunk-102.tar.xz", f.read())
        name = os.path.basename(ckpts[0])[:-len(".ckpt")]
        net_dir = os.path.join(self.work, "lab", "gpu", name)
        self.assertGreater(os.path.getsize(os.path.join(net_dir, name + ".pt")), 0)
        self.assertTrue(os.path.exists(os.path.join(net_dir, "export.done")))
        # A chunk of another node count is refused by its log.
        other = h.run("tools.lab.import_gpu", out, "--zhbot", h.zhbot(), "--nodes", 3000,
                      "--chunk-games", 1, env=self.env)
        self.assertNotEqual(other.returncode, 0, "a 50-node chunk taken for a 3000-node one")
        self.assertIn("refused %s: its log does not name --nodes 3000"
                      % os.path.join(out, "chunk-102.tar.xz"), other.stdout)


if __name__ == "__main__":
    h.main()
