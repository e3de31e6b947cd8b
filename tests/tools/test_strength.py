"""tools/strength.py: the clock notation, the refusal to pool games of another control, and the
score / Elo interval a ladder rung reports."""
import json
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "tools"))
import strength  # noqa: E402


def game(n, a_white, result, tc="1+1", tc_ms=(60000, 1000)):
    a, b = ("zhbot", "fsf:nodes=1") if a_white else ("fsf:nodes=1", "zhbot")
    return {"game": n, "white": a, "black": b, "result": result, "reason": "checkmate",
            "tc": tc, "tc_ms": list(tc_ms)}


class LichessClock(unittest.TestCase):
    def test_minutes_plus_seconds(self):
        self.assertEqual(strength.parse_lichess_tc("1+1"), (60000, 1000))
        self.assertEqual(strength.parse_lichess_tc("3+2"), (180000, 2000))
        self.assertEqual(strength.parse_lichess_tc("0.5+0"), (30000, 0))

    def test_malformed_controls_are_refused(self):
        for bad in ("1", "", "x+1", "1+y", "0+0", "-1+2"):
            with self.assertRaises(SystemExit, msg=bad):
                strength.parse_lichess_tc(bad)


class Resume(unittest.TestCase):
    def write(self, records):
        fd, path = tempfile.mkstemp(suffix=".jsonl")
        with os.fdopen(fd, "w") as f:
            for r in records:
                f.write(json.dumps(r) + "\n")
        self.addCleanup(os.remove, path)
        return path

    def test_games_of_another_control_are_not_pooled(self):
        # Records from before the clock fix carry no tc_ms: "1+1" then meant one second.
        old = dict(game(0, True, "1-0"))
        del old["tc_ms"]
        for records in ([old], [game(0, True, "1-0", "3+2", (180000, 2000))]):
            path = self.write(records)
            with self.assertRaises(SystemExit) as e:
                strength.run_match("zhbot", "fsf:nodes=1", 1, "1+1", path, "zhbot", [], 400)
            self.assertIn("another time control", str(e.exception))

    def test_a_finished_match_resumes_without_playing(self):
        path = self.write([game(0, True, "1-0"), game(1, False, "1-0")])
        done = strength.run_match("zhbot", "fsf:nodes=1", 2, "1+1", path, "zhbot", [], 400,
                                  log=lambda *_: None)
        self.assertEqual(len(done), 2)


class Score(unittest.TestCase):
    def test_score_and_interval_from_a_side(self):
        # zhbot wins as white and loses as black: 50%, Elo 0, interval around it.
        n, score, elo, low, high, fails = strength.summarize(
            [game(0, True, "1-0"), game(1, False, "1-0")], "zhbot")
        self.assertEqual((n, score), (2, 0.5))
        self.assertAlmostEqual(elo, 0.0)
        self.assertLess(low, 0)
        self.assertGreater(high, 0)
        self.assertEqual(sum(fails.values()), 0)

    def test_a_perfect_score_keeps_a_finite_lower_bound(self):
        n, score, elo, low, high, _ = strength.summarize(
            [game(i, i % 2 == 0, "1-0" if i % 2 == 0 else "0-1") for i in range(20)], "zhbot")
        self.assertEqual(score, 1.0)
        self.assertGreater(low, 200)
        self.assertLess(low, 400)


if __name__ == "__main__":
    unittest.main()
