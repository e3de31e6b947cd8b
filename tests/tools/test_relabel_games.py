"""python3 -m tools.lab.relabel_games for real: the match records under a toy lab's strength
folder and a network's gate labelled into LAB/data/recorded-NODES; a game added later is the only
one the next run labels, by the lab's own teacher build once there is one; games without zhbot are
left out; a lab without records is said to have none."""
import glob
import json
import os
import unittest

from tests.tools import lab_harness as h
from tools.zhtools.fairy import FAIRY

OPENING = "rnbqkbnr/ppp1pppp/3p4/8/8/2N1P3/PPPP1PPP/R1BQKBNR[] b KQkq - 0 2"


def game(moves, result):
    return json.dumps({"opening": OPENING, "moves": moves, "result": result,
                       "white": "zhbot:nodes=1000", "black": "zhbot:graph=true,nodes=1000"})


class RelabelGames(unittest.TestCase):
    def relabel(self, lab):
        return h.run("tools.lab.relabel_games", "--zhbot", h.zhbot(), "--nodes", 60,
                     env={"ZHBOT_LAB": lab})

    def test_records_labelled_then_only_the_new_game(self):
        lab = os.path.join(h.work_dir("relabel-games"), "lab")
        empty = self.relabel(lab)
        self.assertEqual(empty.returncode, 0, empty.stdout)
        self.assertIn("no game records", empty.stdout)

        records = os.path.join(lab, "strength", "sprt", "a-test.jsonl")
        os.makedirs(os.path.dirname(records))
        with open(records, "w") as f:
            f.write(game("g8f6 d2d4 c7c6", "0-1") + "\n" + game("g8f6 g1f3", "1-0") + "\n")
        # Fairy-Stockfish against itself (a check of a teacher build) is no game of zhbot's.
        teacher_only = os.path.join(lab, "strength", "teacher", "fsf.jsonl")
        os.makedirs(os.path.dirname(teacher_only))
        with open(teacher_only, "w") as f:
            f.write(json.dumps({"opening": OPENING, "moves": "a7a6 a2a3", "result": "1-0",
                                "white": "fsf:nodes=3000", "black": "fsf:nodes=3000"}) + "\n")
        # A network's gate, at the top of its folder, is zhbot's games too.
        gate = os.path.join(lab, "zhbot-net-9", "gate-sprt.jsonl")
        os.makedirs(os.path.dirname(gate))
        with open(gate, "w") as f:
            f.write(game("g8f6 d2d3", "1-0") + "\n")
        first = self.relabel(lab)
        self.assertEqual(first.returncode, 0, first.stdout)
        self.assertIn("games        3 ", first.stdout)
        # 4 + 3 + 3 positions, the opening and g8f6 once.
        self.assertEqual(h.written(first.stdout), 6, first.stdout)
        out = os.path.join(lab, "data", "recorded-60")
        self.assertTrue(glob.glob(os.path.join(out, "recorded-*.zhrec")), os.listdir(out))

        with open(records, "a") as f:  # the queue plays on
            f.write(game("g8f6 c3e4", "1/2-1/2") + "\n")
        # The lab's own teacher build, once there, labels (a wrapper that leaves a mark).
        mark = os.path.join(lab, "teacher-started")
        build = os.path.join(lab, "bin", "fairy-stockfish")
        os.makedirs(os.path.dirname(build))
        with open(build, "w") as f:
            f.write('#!/bin/sh\necho >> "%s"\nexec "%s"\n' % (mark, FAIRY))
        os.chmod(build, 0o755)
        second = self.relabel(lab)
        self.assertEqual(second.returncode, 0, second.stdout)
        self.assertIn("games        1 ", second.stdout)
        self.assertIn("3 games, 6 positions already in the folder", second.stdout)
        self.assertEqual(h.written(second.stdout), 1, second.stdout)
        self.assertTrue(os.path.exists(mark), second.stdout)


if __name__ == "__main__":
    h.main()
