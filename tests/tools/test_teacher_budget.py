"""python3 -m tools.lab.teacher_budget at toy scale (about a minute), every step for real: two
teacher data sets with the CPU time each took, the costlier one cut shard by shard to the
other's CPU time, the lab's test set, a network trained, measured and exported on each, a
refereed match between them; a second run redoes nothing."""
import glob
import json
import os
import unittest

from tests.tools import lab_harness as h
from tools.lab import teacher_budget


class TeacherBudget(unittest.TestCase):
    def test_a_toy_question_then_resumed(self):
        work = h.work_dir("teacher-budget")
        folder = os.path.join(work, "run")

        def question():
            # Small shards, so that the cut to the other set's CPU time is made shard by shard.
            return h.run("tools.lab.teacher_budget", folder, "--zhbot", h.zhbot(), "--nodes-a",
                         10, "--nodes-b", 80, "--positions-b", 40, "--datagen-opts",
                         "--shard-records 4", "--workers", 1,
                         "--test-nodes", 60, "--test-games", 1, "--arch", "resnet-1x8",
                         "--batch", 16, "--steps", 4, "--match-games", 2, "--match-nodes", 10,
                         env={"ZHBOT_LAB": os.path.join(work, "lab")})

        first = question()
        self.assertEqual(first.returncode, 0, first.stdout[-3000:])
        cpu = {n: teacher_budget.cpu_seconds_of(os.path.join(folder, "data-%d.time" % n))
               for n in (10, 80)}
        self.assertTrue(all(c > 0 for c in cpu.values()), cpu)
        # The costlier set is cut to the other's CPU time: whole shards, in the order written,
        # until its share of the positions reaches the ratio of the CPU times.
        costly = max(cpu, key=cpu.get)
        made = sorted(glob.glob(os.path.join(folder, "data-%d" % costly, "*.zhrec")))
        kept = sorted(glob.glob(os.path.join(folder, "train-data-%d" % costly, "*.zhrec")))
        self.assertEqual([os.path.basename(x) for x in kept],
                         [os.path.basename(x) for x in made[:len(kept)]])
        counts = [teacher_budget.shard_positions(x) for x in made]
        wanted = round(sum(counts) * min(cpu.values()) / cpu[costly])
        self.assertGreaterEqual(sum(counts[:len(kept)]), wanted)
        if len(kept) > 0:
            self.assertLess(sum(counts[:len(kept) - 1]), wanted, "a shard more than needed")
        cheap = min(cpu, key=cpu.get)
        self.assertEqual(len(glob.glob(os.path.join(folder, "train-data-%d" % cheap, "*"))),
                         len(glob.glob(os.path.join(folder, "data-%d" % cheap, "*.zhrec"))))
        for n in (10, 80):
            self.assertGreater(os.path.getsize(os.path.join(folder, "net-%d.pt" % n)), 0)
            self.assertRegex(first.stdout, r"(?m)^== teacher at %d nodes: \d+ positions" % n)
        self.assertTrue(os.path.exists(os.path.join(work, "lab", "data", "test-60",
                                                    "test-set.done")))
        with open(os.path.join(folder, "match.jsonl")) as f:
            games = [json.loads(line) for line in f]
        self.assertEqual(len(games), 2)
        self.assertEqual({g["white"] for g in games} | {g["black"] for g in games},
                         {"zhbot:backend=torch,model=%s,nodes=10" % os.path.join(folder, x)
                          for x in ("net-10.pt", "net-80.pt")})

        again = question()
        self.assertEqual(again.returncode, 0, again.stdout[-3000:])
        for name in ("data-10", "data-80", "equal-cpu", "test-set", "train-10", "eval-80",
                     "export-10", "match"):
            self.assertIn("%s: done before" % name, again.stdout)


if __name__ == "__main__":
    h.main()
