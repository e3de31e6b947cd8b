"""python3 -m tools.lab.status on a toy lab (seconds): a good chunk is counted with the positions
datagen wrote, a chunk marked done that fails its check (a damaged shard, another seed's games) is
named and makes the status exit 1, a chunk under way (with its games and time left) and a missing
one are listed as still to make (one the shared folder holds as to import), the seeds come out as
ranges, the rest is costed at the pace of the last chunk made here, own-game data is counted, the
gate's score is the new network's, a training under way is given its step, time left and last
validation, and with no options it is the recipe's."""
import glob
import os
import re
import shutil
import unittest

from tests.tools import lab_harness as h
from tools.zhtools import recipe
from tools.zhtools.fairy import FAIRY


def write(path, text, mode="w"):
    with open(path, mode) as f:
        f.write(text)


class LabStatus(unittest.TestCase):
    def test_status_of_a_toy_lab(self):
        work = h.work_dir("lab-status")
        lab = os.path.join(work, "lab")
        data, run = os.path.join(lab, "data", "teacher-50"), os.path.join(lab, "toy-net")
        os.makedirs(data)
        os.makedirs(run)
        chunk = lambda seed: os.path.join(data, "chunk-%d" % seed)  # noqa: E731
        # Seeds 7-12: 7 and 8 done and sound, 9 done with a damaged shard, 10 done with seed
        # 7's games, 11 under way (a folder, no marker), 12 missing.
        positions = {}
        for seed in (7, 8, 9):
            positions[seed] = h.written(h.datagen(chunk(seed), seed))
            write(chunk(seed) + ".done", "")
        shard = sorted(glob.glob(os.path.join(chunk(9), "*.zhrec")))[0]
        write(shard, b"damaged", "r+b")
        shutil.copytree(chunk(7), chunk(10))
        write(chunk(10) + ".done", "")
        os.makedirs(chunk(11))
        # The logs the chunk step leaves: chunk-7 made here at 2 labelled positions a second,
        # chunk-8 imported from the shared folder (its pace is not this machine's), chunk-11's
        # progress so far.
        write(chunk(7) + ".log", "throughput   2.0 labelled positions/s; teacher alone 2.1\n")
        write(chunk(8) + ".log", "throughput   9.0 labelled positions/s; teacher alone 9.1\n")
        write(chunk(8) + ".source", "")
        # Two runs: the second took up the first's 9 games and counts only its own 19.
        write(chunk(11) + ".log",
              "datagen: seed 11, 1 worker(s), teacher fsf at 50 nodes, MultiPV 4, out c\n"
              "datagen: 600 positions (300.0/s), 9 games, 1 duplicates skipped, 0 games lost, "
              "elapsed 0h02m00s, ETA 0h08m00s\n"
              "datagen: seed 11, 1 worker(s), teacher fsf at 50 nodes, MultiPV 4, out c\n"
              "datagen: taking up c: 9 games of this work (600 positions) in 1 shard(s) from an "
              "earlier run; 0 unfinished shard(s) removed, their games are played again\n"
              "datagen: 1200 positions (321.9/s), 19 games, 3 duplicates "
              "skipped, 0 games lost, elapsed 0h03m00s, ETA 0h06m46s\n")
        # The gate: the new network (its model file named after the run) wins with White and
        # draws with Black; a match file naming no player of this run is said so.
        new = "zhbot:model=%s/toy-net.pt,nodes=8" % run
        old = "zhbot:model=models/zhbot-net-2.pt,nodes=8"
        write(os.path.join(run, "gate.jsonl"),
              '{"game": 1, "white": "%s", "black": "%s", "result": "1-0", "reason": "checkmate"}\n'
              '{"game": 2, "white": "%s", "black": "%s", "result": "1/2-1/2", "reason": "x"}\n'
              % (new, old, old, new))
        write(os.path.join(run, "match.jsonl"),
              '{"game": 1, "white": "%s", "black": "zhbot:model=models/other.pt", '
              '"result": "1-0", "reason": "checkmate"}\n' % old)
        # The shared folder (none of its seeds yet: the first status sees the lab alone).
        shared = os.path.join(work, "shared", "teacher-50")
        os.makedirs(shared)
        env = {"ZHBOT_LAB": lab, "ZHBOT_SHARED_DATA": os.path.dirname(shared)}

        def status():
            return h.run("tools.lab.status", "--name", "toy-net", "--seed", 7, "--chunks", 6,
                         "--nodes", 50, "--chunk-games", 1, env=env)

        faulty = status()
        out = faulty.stdout
        self.assertEqual(faulty.returncode, 1, out)
        self.assertRegex(out, r"(?m)^chunk-7  done +%d positions from +1 of 1 games \(made here\)"
                         % positions[7])
        self.assertRegex(out, r"(?m)^chunk-9  FAULT")
        self.assertRegex(out, r"(?m)^chunk-10  FAULT .*not among seed 10's first 1 games")
        self.assertRegex(out, r"(?m)^chunk-11  under way +0 shard\(s\) closed; 28 games so far, "
                         r"0h06m46s left$")
        total = positions[7] + positions[8]
        self.assertRegex(out, r"(?m)^chunks done: 2 of 6 \(7-8\), %d positions from 2 games; "
                         r"still to make: 11-12$" % total)
        self.assertRegex(out, r"(?m)^2 chunk\(s\) marked done fail their check")
        self.assertRegex(out, r"(?m)^own-game data: none yet$")
        self.assertRegex(out, r"(?m)^training: not started")
        self.assertRegex(out, r"(?m)^gate: under way, 2 games: 75\.0 %, Elo \+191")
        self.assertRegex(out, r"(?m)^match: no player in %s is toy-net\.pt"
                         % re.escape(os.path.join(run, "match.jsonl")))

        # The faulty chunks removed (as the message says), it passes; the four chunks still to
        # make, each the mean size of the two done, at chunk-7's pace (not the shared chunk-8's).
        for seed in (9, 10):
            shutil.rmtree(chunk(seed))
            os.remove(chunk(seed) + ".done")
        sound = status()
        self.assertEqual(sound.returncode, 0, sound.stdout)
        self.assertRegex(sound.stdout, r"(?m)^chunks done: 2 of 6 \(7-8\), %d positions from 2 "
                         r"games; still to make: 9-12$" % total)
        rest = 4 * (total // 2) // 2
        self.assertRegex(sound.stdout, r"(?m)^the rest: %dh%02dm for 4 chunk\(s\) at chunk-7's "
                         r"2\.0 labelled positions/s$" % (rest // 3600, rest % 3600 // 60))

        # A missing seed the shared folder holds is imported, not made: listed apart, no cost.
        write(os.path.join(shared, "chunk-12.tar.xz"), "")
        taken = status().stdout
        self.assertRegex(taken, r"(?m)^chunks done: 2 of 6 \(7-8\), %d positions from 2 games; "
                         r"still to make: 9-11; to import from the shared folder: 12$" % total)
        rest = 3 * (total // 2) // 2
        self.assertRegex(taken, r"(?m)^the rest: %dh%02dm for 3 chunk\(s\) at chunk-7's "
                         r"2\.0 labelled positions/s$" % (rest // 3600, rest % 3600 // 60))
        os.remove(os.path.join(shared, "chunk-12.tar.xz"))

        # Own-game positions: a relabelled folder, counted by its complete shards.
        recorded = os.path.join(lab, "data", "recorded-50")
        mine = h.written(h.datagen(recorded, 21))
        write(os.path.join(recorded, "recorded-000009.zhrec.tmp"), "an open shard")
        self.assertRegex(status().stdout, r"(?m)^own-game data: recorded-50, %d positions from "
                         r"1 games$" % mine)

        # A training under way: its last progress line's step, speed and time left.
        log = os.path.join(run, "train.log")
        write(log, "resumed at step 235 of 25000\n"
              "[.....] step 236/25000  0 samples/s  loss 2.1054  ETA ?\n"
              "[.....] step 387/25000  403 samples/s  loss 1.9845  ETA 08:41:41\n")
        training = status()
        self.assertEqual(training.returncode, 0, training.stdout)
        self.assertRegex(training.stdout, r"(?m)^training: step 387 of 25000, 403 samples/s, "
                         r"08:41:41 left at that speed")
        self.assertNotRegex(training.stdout, r"(?m)^held out")
        write(log, "epoch 0.20 step 3000: policy top-1 0.3930 top-5 0.8011\n"
              "[...] step 3010/25000  450 samples/s  loss 2.0 ETA 07:00:00\n", "a")
        self.assertRegex(status().stdout, r"(?m)^held out so far: epoch 0\.20 step 3000: policy "
                         r"top-1 0\.3930")
        write(log, "resumed at step 235 of 25000\n"
              "[.....] step 236/25000  0 samples/s  loss 2.1054  ETA ?\n")
        self.assertRegex(status().stdout, r"(?m)^training: step 236 of 25000, its speed not "
                         r"measured yet")

        # With no options it reports on the recipe (tools/lab/recipe.toml).
        r = recipe.load_recipe()
        plain = h.run("tools.lab.status", env=env)
        self.assertIn("lab %s: %s's %d chunks of %d games at %d nodes, seeds %d-%d\n"
                      % (lab, r["name"], r["chunks"], r["chunk_games"], r["nodes"], r["seed"],
                         r["seed"] + r["chunks"] - 1), plain.stdout)
        # Which Fairy-Stockfish labels: the lab has no build of its own here.
        self.assertIn("teacher: %s (python3 -m tools.lab.teacher_build makes one" % FAIRY,
                      plain.stdout)


if __name__ == "__main__":
    h.main()
