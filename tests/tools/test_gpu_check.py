"""The GPU check (python3 -m tools.gpu.measure, entered by tools/gpu/gpu_check.sh) at toy scale
on the CPU, every stage for real: prepare carries the header-only libraries, Fairy-Stockfish and
shards, build configures against the carried headers (--configure-only: the compile itself is
`make ci-engine-only`'s), then facts, nnbench, search, games, datagen and train each write their
part of one report; datagen and train go on where they stopped when run again."""
import os
import re
import subprocess
import sys
import unittest

from tests.tools import lab_harness as h
from tools.zhtools import shipped


class GpuCheck(unittest.TestCase):
    def test_every_stage_at_toy_scale(self):
        work = h.work_dir("gpu-check")
        out, carry, folder = (os.path.join(work, x) for x in ("out", "carry", "check"))
        os.makedirs(out)
        log = os.path.join(work, "run.log")

        def stages(*args):  # the options after the common ones win
            done = h.run("tools.gpu.measure", "--dir", folder, "--carry", carry, "--scale", "toy",
                         "--device", "cpu", "--zhbot", h.zhbot(), "--out-dir", out, "--workers",
                         2, "--datagen-minutes", 5, "--datagen-chunks", 2, *args)
            with open(log, "a") as f:
                f.write(done.stdout)
            self.assertEqual(done.returncode, 0, done.stdout[-3000:])
            return done.stdout

        def report():
            with open(os.path.join(folder, "report.md")) as f:
                return f.read()

        # Shards to carry, as the prepare stage is given them on a zhbot machine.
        shards = os.path.join(work, "shards")
        subprocess.run([h.zhbot(), "datagen", "--import",
                        os.path.join(h.ROOT, "tests/data/datagen/sample.jsonl"), "--out", shards],
                       stdout=subprocess.DEVNULL, check=True)
        stages("prepare", "--carry-data", shards)
        for path in ("prefix/include/nlohmann/json.hpp", "prefix/include/CLI/CLI.hpp",
                     "prefix/share/cmake/nlohmann_json/nlohmann_jsonConfig.cmake",
                     "prefix/share/cmake/CLI11/CLI11Config.cmake", "bin/fairy-stockfish"):
            self.assertGreater(os.path.getsize(os.path.join(carry, path)), 0, path)
        self.assertTrue(any(f.endswith(".zhrec") for f in os.listdir(os.path.join(carry, "data"))))

        stages("build", "--configure-only")
        with open(os.path.join(folder, "build", "CMakeCache.txt")) as f:
            cache = f.read()
        self.assertRegex(cache, r"(?m)^nlohmann_json_DIR:PATH=%s/prefix" % re.escape(carry))
        self.assertRegex(cache, r"(?m)^ZH_BUILD_BOT:BOOL=OFF")

        # Through the shell entry point, with this interpreter as python3.
        bin_dir = os.path.join(work, "bin")
        os.makedirs(bin_dir)
        os.symlink(sys.executable, os.path.join(bin_dir, "python3"))
        entry = subprocess.run(
            ["bash", os.path.join(h.ROOT, "tools/gpu/gpu_check.sh"), "facts", "nnbench", "search",
             "games", "--dir", folder, "--carry", carry, "--scale", "toy", "--device", "cpu",
             "--zhbot", h.zhbot()], env=dict(os.environ, PATH=bin_dir + ":" + os.environ["PATH"]),
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        self.assertEqual(entry.returncode, 0, entry.stdout[-3000:])
        text = report()
        self.assertIn("- CPU: ", text)
        self.assertIn("- zhbot: zhbot", text)
        net = os.path.basename(shipped.shipped_model())[:-len(".pt")]
        self.assertRegex(text, r"(?m)^### %s, fp32" % re.escape(net))
        self.assertRegex(text, r"(?m)^### random-resnet-1x8, fp32")
        # The layout run: the option reached the network (of the fp32 runs, nnbench's header
        # says channels-last there and nowhere else).
        self.assertRegex(text, r"(?m)^### %s, fp32, layout channels-last$" % re.escape(net))
        self.assertEqual(len(re.findall(
            r"precision fp32, \d+ intra-op thread\(s\), [a-z_]+, channels-last", text)), 1)
        self.assertRegex(text, r"pos/s|positions/s")
        self.assertNotIn("nnbench failed", text)
        self.assertEqual(len(re.findall(r"(?m)^\| [12] \| \d+ \| \d+ \| \d+ ms \|$", text)), 2,
                         "a search row per thread count")
        self.assertRegex(text, r"(?m)^### 1 game\(s\), 1 search thread")
        self.assertRegex(text, r"(?m)^### 2 game\(s\), 1 search thread")
        self.assertEqual(len(re.findall(r"(?m)^batch fill", text)), 2)
        self.assertNotIn("selfplay failed", text)

        stages("datagen", "train")
        text = report()
        self.assertRegex(text, r"(?m)^2 chunk\(s\) of 1 games")
        self.assertGreater(os.path.getsize(os.path.join(folder, "gpu-resnet-1x8.pt")), 0)
        self.assertGreater(os.path.getsize(os.path.join(out, "gpu-resnet-1x8.ckpt")), 0)
        with open(os.path.join(out, "gpu-check-report.md")) as f:
            self.assertEqual(f.read(), text, "the report handed back")

        # Run again: no chunk made twice, the training resumes from its checkpoint.
        again = stages("datagen", "train")
        self.assertIn("chunk-30001: done before", again)
        listing = subprocess.run(["tar", "-tJf", os.path.join(out, "chunk-30001.tar.xz")],
                                 capture_output=True, text=True).stdout
        self.assertRegex(listing, r"(?m)^chunk-30001/.*\.zhrec$")
        # Seeds named, and no more chunks than --datagen-chunks.
        stages("datagen", "--datagen-seeds", 77, 78, "--datagen-chunks", 1)
        self.assertTrue(os.path.exists(os.path.join(folder, "datagen", "chunk-77.done")))
        self.assertFalse(os.path.exists(os.path.join(folder, "datagen", "chunk-78")))
        self.assertGreater(os.path.getsize(os.path.join(out, "chunk-77.tar.xz")), 0)
        with open(os.path.join(folder, "train.log")) as f:
            self.assertRegex(f.read(), r"(?i)resum")
        self.assertEqual(len(re.findall(r"(?m)^## ", report())), 7, "every section")


if __name__ == "__main__":
    h.main()
