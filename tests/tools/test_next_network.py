"""python3 -m tools.lab.next_network at toy scale (about a minute): every step runs for real
(teacher games, training, held-out metrics, export and int8 file checked against zhbot, a
refereed gate and match against the previous network), an interrupted run goes on where it
stopped instead of starting over, --data-only adds chunks and trains nothing, a format 2.0 run
trains on re-encoded copies of the same chunks, and bad inputs are named before any work."""
import contextlib
import glob
import io
import os
import re
import subprocess
import unittest
from unittest import mock

from tests.tools import lab_harness as h


class NextNetwork(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.work = w = h.work_dir("next-network")
        h.datagen(os.path.join(w, "base"), 3, 2, 50, 2, "--max-plies", "40", "--progress", "5")
        made = h.run("training.make_random_net", os.path.join(w, "previous.pt"), "--arch",
                     "resnet-1x8", "--seed", "2")
        assert made.returncode == 0, made.stdout
        cls.lab = os.path.join(w, "lab")  # not there yet: the first run makes it
        # A stand-in for the lab's other jobs, which the training and the timed match pause
        # (tools/measure/quiet.sh, found by QUIET_PAUSE); the machine's real jobs are not.
        marker = "next-network-test-lab-job-%d" % os.getpid()
        cls.lab_job = subprocess.Popen(["bash", "-c", "while :; do sleep 0.2; done", marker],
                                       start_new_session=True)
        cls.env = {"ZHBOT_LAB": cls.lab, "QUIET_PAUSE": "^bash -c .* %s$" % marker}
        cls.dir = os.path.join(w, "next")
        cls.data = os.path.join(cls.lab, "data", "teacher-50")

    @classmethod
    def tearDownClass(cls):
        cls.lab_job.kill()
        cls.lab_job.wait()

    def pipeline(self, *extra, folder=None, env=None, chunk_job=False):
        """A run with the toy settings (`extra` last, so they win); with `chunk_job`, through
        tools/lab/lab_chunks.sh (the background data job's command line)."""
        args = self.pipeline_args(*extra, folder=folder)
        env = dict(self.env, **(env or {}))
        if chunk_job:
            return subprocess.run(["bash", os.path.join(h.ROOT, "tools/lab/lab_chunks.sh"),
                                   *map(str, args)], env=dict(os.environ, **env),
                                  stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        return h.run("tools.lab.next_network", *args, env=env)

    def pipeline_args(self, *extra, folder=None):
        return [folder or self.dir, "--zhbot", h.zhbot(), "--base-data",
                os.path.join(self.work, "base"), "--previous",
                os.path.join(self.work, "previous.pt"), "--name", "toy-next", "--chunks", 2,
                "--chunk-games", 1, "--nodes", 50, "--seed", 7, "--datagen-opts",
                "--max-plies 30", "--test-nodes", 60, "--test-games", 1, "--arch",
                "resnet-1x8", "--train-minutes", 0.01, "--train-opts",
                "--batch-size 16 --validation-permille 500 --epoch-steps 10 --seed 1",
                "--eval-positions", 0, "--eval-permille", 500, "--match-games", 2,
                "--match-tc", "0.05+0.05", "--match-max-plies", 60, "--workers", 1,
                "--gate", "games", "--gate-games", 2, "--gate-nodes", 20, "--gate-min", 0,
                *extra]

    def lines(self, path):
        with open(path) as f:
            return f.read().splitlines()

    def test_1_a_complete_run_then_resumed_gated_and_data_only(self):
        first = self.pipeline()
        self.assertEqual(first.returncode, 0, first.stdout)
        for marker in ("train", "eval", "eval-previous", "export", "quantize", "gate", "match"):
            self.assertTrue(os.path.exists(os.path.join(self.dir, marker + ".done")), marker)
        # The teacher data and the test set are the lab's, apart from the run that made them.
        for marker in ("chunk-7", "chunk-8"):
            self.assertTrue(os.path.exists(os.path.join(self.data, marker + ".done")), marker)
        self.assertTrue(glob.glob(os.path.join(self.data, "chunk-8", "*.zhrec")))
        test_set = os.path.join(self.lab, "data", "test-60")
        self.assertTrue(os.path.exists(os.path.join(test_set, "test-set.done")))
        self.assertTrue(glob.glob(os.path.join(test_set, "shards", "*.zhrec")))
        self.assertTrue(os.path.isfile(os.path.join(self.dir, "toy-next.pt")))
        self.assertTrue(os.path.isfile(os.path.join(self.dir, "toy-next-int8.pt")))
        self.assertEqual(len(self.lines(os.path.join(self.dir, "match.jsonl"))), 2)
        # The training and the timed match ran with the lab's other jobs paused; the gate, bound
        # by nodes, beside them.
        paused = "quiet: paused process group %d" % self.lab_job.pid
        for log, quiet in (("train", True), ("match", True), ("gate", False)):
            with open(os.path.join(self.dir, log + ".log")) as f:
                self.assertEqual(paused in f.read(), quiet, log)
        gate = self.lines(os.path.join(self.dir, "gate.jsonl"))
        self.assertEqual(sum(',nodes=20"' in g for g in gate), 2, "the gate's 2 games at 20 nodes")
        # Both networks measured on the test set and the base set's held-out games, the
        # previous one from its model file, each time on the same positions as the new one.
        for kind in ("eval.test", "eval"):
            new = re.search(r"^%s: top-1 .*\((\d+) positions\)" % kind, first.stdout, re.M)
            old = re.search(r"^%s: top-1 .*\((\d+) positions\)"
                            % kind.replace("eval", "eval-previous"), first.stdout, re.M)
            self.assertTrue(new and old, first.stdout)
            self.assertNotEqual(new.group(1), "0")
            self.assertEqual(new.group(1), old.group(1), "measured on different positions")

        # Interrupted in training and in the match: resumed, nothing remade.
        for marker in ("train", "eval", "export", "match"):
            os.remove(os.path.join(self.dir, marker + ".done"))
        match = os.path.join(self.dir, "match.jsonl")
        first_game = self.lines(match)[0]
        with open(match, "w") as f:
            f.write(first_game + "\n")
        shards = glob.glob(os.path.join(self.data, "chunk-7", "*.zhrec"))
        before = max(os.stat(s).st_mtime_ns for s in shards)
        second = self.pipeline()
        self.assertEqual(second.returncode, 0, second.stdout)
        self.assertIn("chunk-7: done before", second.stdout)
        self.assertIn("test-set: done before", second.stdout)
        self.assertEqual(max(os.stat(s).st_mtime_ns for s in shards), before, "chunk-7 rewritten")
        with open(os.path.join(self.dir, "train.log")) as f:
            self.assertIn("resumed at step", f.read())
        games = self.lines(match)
        self.assertEqual(len(games), 2)
        self.assertEqual(games[0], first_game, "the finished game was replayed")

        # Under --gate-min in the gate (no score reaches 2): no timed match.
        os.remove(os.path.join(self.dir, "match.done"))
        os.remove(match)
        gated = self.pipeline("--gate-min", 2)
        self.assertEqual(gated.returncode, 0, gated.stdout)
        self.assertRegex(gated.stdout, r"(?m)^== gate: toy-next scored .* in 2 games at 20 nodes")
        self.assertIn("no timed match", gated.stdout)
        self.assertFalse(os.path.exists(match) or os.path.exists(match[:-6] + ".done"))

        # The background chunk job (--data-only): one more chunk for the lab, nothing trained.
        bulk = os.path.join(self.work, "bulk")
        more = self.pipeline("--chunks", 3, folder=bulk, chunk_job=True)
        self.assertEqual(more.returncode, 0, more.stdout)
        self.assertIn("== data only: 3 chunks", more.stdout)
        self.assertTrue(os.path.exists(os.path.join(self.data, "chunk-9.done")))
        self.assertIn("chunk-7: done before", more.stdout)
        self.assertFalse(os.path.exists(os.path.join(bulk, "train.done")))
        self.assertFalse(os.path.exists(os.path.join(bulk, "run")))

    def test_3_a_format_2_run_trains_on_re_encoded_copies_of_the_same_chunks(self):
        from tools.zhtools import input_format
        folder = os.path.join(self.work, "next-v2")
        run = self.pipeline("--input-format", "2.0", "--match-games", 0, "--gate-games", 0,
                            folder=folder)
        self.assertEqual(run.returncode, 0, run.stdout)
        # The chunks stay as made (1.0); their copies in 2.0 live apart, one marker each.
        copies = os.path.join(self.lab, "data", "format-2.0")
        for chunk in ("chunk-7", "chunk-8"):
            self.assertTrue(os.path.exists(os.path.join(copies, "teacher-50", chunk + ".done")))
            self.assertTrue(glob.glob(os.path.join(copies, "teacher-50", chunk, "*.zhrec")))
        self.assertFalse(glob.glob(os.path.join(self.data, "chunk-*-*")))
        with mock.patch.dict(os.environ, self.env):
            base = input_format.encoded_copy(os.path.join(self.work, "base"), "2.0")
        self.assertTrue(base.startswith(os.path.join(copies, "elsewhere") + os.sep), base)
        self.assertTrue(glob.glob(os.path.join(base, "*.zhrec")))
        # The network takes 2.0, the previous one 1.0; both measured on the same positions.
        self.assertEqual(input_format.network_format(os.path.join(folder, "toy-next.pt")), "2.0")
        self.assertEqual(input_format.network_format(os.path.join(self.work, "previous.pt")),
                         "1.0")
        self.assertTrue(os.path.isfile(os.path.join(folder, "toy-next-int8.pt")))
        for kind in ("eval.test", "eval"):
            new = re.search(r"^%s: top-1 .*\((\d+) positions\)" % kind, run.stdout, re.M)
            old = re.search(r"^%s: top-1 .*\((\d+) positions\)"
                            % kind.replace("eval", "eval-previous"), run.stdout, re.M)
            self.assertTrue(new and old, run.stdout)
            self.assertEqual(new.group(1), old.group(1), "measured on different positions")
        # Run again: every copy and step is done before.
        again = self.pipeline("--input-format", "2.0", "--match-games", 0, "--gate-games", 0,
                              folder=folder)
        self.assertEqual(again.returncode, 0, again.stdout)
        self.assertNotRegex(again.stdout, r"re-encoded into format 2\.0\n")
        # A format zhbot has no encoder for is refused before any work.
        bad = self.pipeline("--input-format", "3.0", folder=os.path.join(self.work, "v3"))
        self.assertNotEqual(bad.returncode, 0)
        self.assertIn("invalid choice: '3.0'", bad.stdout)

    def test_4_the_sprt_gate_plays_the_match_only_on_h1_and_goes_on_with_more_pairs(self):
        # test_1's run: everything done but the SPRT gate; its match made again when it passes.
        match = os.path.join(self.dir, "match.jsonl")
        for f in (match, os.path.join(self.dir, "match.done")):
            if os.path.exists(f):
                os.remove(f)
        sprt_games = os.path.join(self.dir, "gate-sprt.jsonl")
        one = self.pipeline("--gate", "sprt", "--gate-max-pairs", 1)
        self.assertEqual(one.returncode, 0, one.stdout)
        self.assertRegex(one.stdout, r"(?m)^== gate: toy-next, SPRT\(0, 20\) normalized Elo.* "
                         r"at 20 nodes a move: 1 pairs")
        self.assertIn("no verdict within 1 pairs", one.stdout)
        self.assertIn("no timed match", one.stdout)
        self.assertFalse(os.path.exists(match))
        first = self.lines(sprt_games)
        self.assertEqual(len(first), 2)
        self.assertTrue(all(',nodes=20"' in g and '"elo1": 20' in g for g in first), first)
        # More pairs: the same test goes on with its games.
        two = self.pipeline("--gate", "sprt", "--gate-max-pairs", 2)
        self.assertEqual(two.returncode, 0, two.stdout)
        self.assertIn("2 pairs", two.stdout)
        games = self.lines(sprt_games)
        self.assertEqual(len(games), 4)
        self.assertEqual(games[:2], first, "the first pair was replayed")
        self.assertFalse(os.path.exists(match))
        status = h.run("tools.lab.status", self.dir, "--name", "toy-next", "--nodes", 50,
                       "--chunk-games", 1, "--seed", 7, "--chunks", 2, "--test-nodes", 60,
                       env=self.env)
        self.assertRegex(status.stdout, r"(?m)^gate \(SPRT\(0, 20\) normalized Elo.*\): no "
                         r"verdict yet, 2 pairs")
        # A verdict for the new network (played here by a stand-in for the games): the match.
        from tools.lab import next_network
        from tools.measure.strength import sprt_match

        class Passed:
            verdict = "H1"

            def line(self):
                return "3 pairs, H1 by the stand-in"
        said = io.StringIO()
        with mock.patch.object(sprt_match, "run_sprt", return_value=(0, Passed())), \
                mock.patch.dict(os.environ, self.env), contextlib.redirect_stdout(said):
            args = self.pipeline_args("--gate", "sprt", "--gate-max-pairs", 3)
            next_network.main([str(x) for x in args])
        self.assertIn("at 20 nodes a move: 3 pairs, H1 by the stand-in", said.getvalue())
        self.assertEqual(len(self.lines(match)), 2, "no timed match after H1")

    def test_2_bad_inputs_are_named_before_any_work(self):
        other = os.path.join(self.work, "other")
        bad = self.pipeline("--base-data", os.path.join(self.work, "nowhere"), folder=other)
        self.assertNotEqual(bad.returncode, 0)
        self.assertRegex(bad.stdout, r"--base-data .*nowhere: no such directory")
        self.assertFalse(os.path.exists(other), "a failed start left its folder")
        # A starter-set folder without the set is named, and nothing is marked imported.
        empty = os.path.join(self.work, "no-set")
        os.makedirs(empty, exist_ok=True)
        starter = os.path.join(self.lab, "data", "starter")
        no_set = self.pipeline("--base-data", starter, folder=other,
                               env={"ZHBOT_TEACHER_SET": empty})
        self.assertNotEqual(no_set.returncode, 0)
        self.assertRegex(no_set.stdout, r"ZHBOT_TEACHER_SET .*no-set: no \*\.jsonl\.gz files")
        self.assertFalse(os.path.exists(os.path.join(starter, ".imported")))
        # A recipe file that lacks a setting is refused by name.
        recipe = os.path.join(self.work, "recipe.toml")
        with open(recipe, "w") as f:
            f.write('name = "x"\nnodes = 50\n')
        broken = self.pipeline("--recipe", recipe, folder=other)
        self.assertNotEqual(broken.returncode, 0)
        self.assertIn("chunk_games is missing", broken.stdout)


if __name__ == "__main__":
    h.main()
