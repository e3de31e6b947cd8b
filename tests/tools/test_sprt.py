"""tools/measure/strength's sequential test: the log-likelihood ratio against figures worked out
by hand, Wald's bounds, the normalized Elo, the expected length of a test; and the test played
for real (a scripted engine against Fairy-Stockfish): the verdict, the exit codes, a resume from
a file cut in the middle of a pair, and a results file of another test refused."""
import json
import os
import unittest

from tests.tools.test_strength import fake_zhbot
from tests.tools.tool_process import run_tool
from tools.measure.strength import runner, sprt, sprt_match

# 1 pair scoring 0, 3 scoring 1/2, 5 scoring 1, 4 scoring 3/2, 2 scoring 2: 15 pairs.
COUNTS = [1, 3, 5, 4, 2]


class Ratio(unittest.TestCase):
    def test_normalized_llr_by_hand(self):
        # A pair's mean score (0, 1/4, 1/2, 3/4, 1 a pair): (3/4 + 5/2 + 3 + 2) / 15 = 0.55.
        # Its variance: (0.3025 + 3 * 0.09 + 5 * 0.0025 + 4 * 0.04 + 2 * 0.2025) / 15
        #   = 1.15 / 15 = 0.0766667; a game's standard deviation sqrt(2 * 0.0766667) = 0.391578.
        # t = 0.05 / 0.391578 = 0.127688 (t^2 = 0.0025 / 0.153333 = 3 / 184 = 0.0163043).
        # elo1 = 20 normalized Elo: t1 = 20 / (800 / ln 10) = 20 / 347.435586 = 0.0575646.
        # LLR = 15 * ln((1 + 0.0163043) / (1 + (0.127688 - 0.0575646)^2))
        #     = 15 * ln(1.0163043 / 1.0049174) = 15 * 0.0112676 = 0.169013.
        self.assertAlmostEqual(sprt.llr_normalized(COUNTS, 0, 20), 0.169013, delta=1e-6)
        # Swapping the hypotheses negates it.
        self.assertAlmostEqual(sprt.llr_normalized(COUNTS, 20, 0), -0.169013, delta=1e-6)

    def test_logistic_llr_by_hand(self):
        # s0 = 1/2, s1 = 1 / (1 + 10^(-20/400)) = 0.5287506; with the mean 0.55 and variance
        # 0.0766667 above: LLR = 15 * 0.0287506 * (1.1 - 0.5 - 0.5287506) / (2 * 0.0766667)
        #   = 15 * 0.0287506 * 0.0712494 / 0.153333 = 0.200393.
        self.assertAlmostEqual(sprt.llr_logistic(COUNTS, 0, 20), 0.200393, delta=1e-6)

    def test_a_zero_count_is_a_small_prior(self):
        # [0, 1, 2, 1, 0]: the zero counts are taken as 0.001, 4.002 pairs, mean 2.001 / 4.002 =
        # 1/2 exactly, t = 0: LLR = 4.002 * ln(1 / (1 + 0.0575646^2)) = 4.002 * -0.00330819
        #   = -0.0132394.
        self.assertAlmostEqual(sprt.llr_normalized([0, 1, 2, 1, 0], 0, 20), -0.0132394,
                               delta=1e-6)
        # Every pair drawn: no variance without the prior; with it a finite ratio.
        self.assertLess(sprt.llr_normalized([0, 0, 9, 0, 0], 0, 20), 0)
        self.assertEqual(sprt.llr_normalized([0] * 5, 0, 20), 0.0)

    def test_normalized_elo_of_the_pairs(self):
        # t * 800 / ln 10 = 0.127688 * 347.435586 = 44.3635; the logistic Elo of a 55 % score
        # 400 * log10(0.55 / 0.45) = 400 * 0.0871502 = 34.8601.
        self.assertAlmostEqual(sprt.normalized_elo(COUNTS), 44.3635, delta=1e-4)
        self.assertAlmostEqual(sprt.logistic_elo(COUNTS), 34.8601, delta=1e-4)
        self.assertIsNone(sprt.normalized_elo([0] * 5))

    def test_the_interval_of_the_normalized_elo(self):
        # Half its width: 1.96 * 347.435586 / sqrt(2 * 15 pairs) = 680.973749 / 5.477226
        #   = 124.3280, about the estimate 44.3635: [-79.9645, 168.6915].
        low, high = sprt.normalized_elo_interval(COUNTS)
        self.assertAlmostEqual(low, -79.9645, delta=1e-3)
        self.assertAlmostEqual(high, 168.6915, delta=1e-3)
        # Four times the pairs halve it, whatever the scores.
        low4, high4 = sprt.normalized_elo_interval([4 * c for c in COUNTS])
        self.assertAlmostEqual(high4 - low4, (high - low) / 2, delta=1e-9)
        self.assertIsNone(sprt.normalized_elo_interval([0] * 5))
        self.assertEqual(sprt_match.signed_interval(COUNTS), "+44.4 [-80.0, +168.7]")


class Bounds(unittest.TestCase):
    def test_wald_bounds(self):
        # ln(0.05 / 0.95) = -ln 19 = -2.944439; with alpha 0.05, beta 0.1: ln(0.1 / 0.95) =
        # -2.251292 and ln(0.9 / 0.05) = ln 18 = 2.890372.
        lower, upper = sprt.llr_bounds(0.05, 0.05)
        self.assertAlmostEqual(lower, -2.944439, delta=1e-6)
        self.assertAlmostEqual(upper, 2.944439, delta=1e-6)
        lower, upper = sprt.llr_bounds(0.05, 0.1)
        self.assertAlmostEqual(lower, -2.251292, delta=1e-6)
        self.assertAlmostEqual(upper, 2.890372, delta=1e-6)

    def test_the_verdict_at_each_bound(self):
        test = sprt.Sprt(0, 20)
        self.assertIsNone(test.verdict(COUNTS))  # 0.17: play on
        # 150 pairs as above (t unchanged): 10 times the LLR, 1.69, still inside.
        self.assertIsNone(test.verdict([10 * x for x in COUNTS]))
        # 300 pairs: 3.38 >= 2.944: H1; the mirror image (t = -0.128) is well below -2.944: H0.
        self.assertEqual(test.verdict([20 * x for x in COUNTS]), "H1")
        self.assertEqual(test.verdict([20 * x for x in reversed(COUNTS)]), "H0")

    def test_bad_parameters_are_refused(self):
        for args in ((20, 0), (0, 20, 0.6), (0, 20, 0.05, 0), (0, 20, 0.05, 0.05, "bayes")):
            with self.assertRaises(SystemExit, msg=args):
                sprt.Sprt(*args)

    def test_expected_length_by_hand(self):
        # At the truth elo1, LLR drifts dt^2 a pair with variance 2 dt^2, theta = -1: H1 is
        # accepted with (1 - 19) / (1/19 - 19) = 0.95 after (0.95 - 0.05) * ln 19 / dt^2 pairs,
        # dt = 20 / 347.435586 = 0.0575646, dt^2 = 0.00331369: 2.649995 / 0.00331369 = 799.71.
        p1, pairs = sprt.expected_pairs(20, 0, 20)
        self.assertAlmostEqual(p1, 0.95, delta=1e-9)
        self.assertAlmostEqual(pairs, 799.71, delta=0.01)
        # Half way, no drift: H1 half the time after ln(19)^2 / (2 dt^2) = 1308.2 pairs.
        p1, pairs = sprt.expected_pairs(10, 0, 20)
        self.assertAlmostEqual(p1, 0.5, delta=1e-9)
        self.assertAlmostEqual(pairs, 1308.2, delta=0.1)


def record(g, a, b, result, openings, test):
    return {"game": g, "white": a if g % 2 == 0 else b, "black": b if g % 2 == 0 else a,
            "result": result, "reason": "checkmate", "plies": 10, "tc": "0.1+0.1",
            "tc_ms": [6000, 100], "opening": openings[(g // 2) % len(openings)],
            "sprt": test.fields()}


class Tallying(unittest.TestCase):
    def test_pairs_count_when_they_finish_and_not_after_the_verdict(self):
        # Finished in the order 0, 2, 1, 3: pair 0 (zhbot lost both) finishes third and
        # decides (logistic: LLR -7.9); pair 1 (zhbot won both) finishes after the verdict.
        test = sprt.Sprt(0, 20, model="logistic")
        tally = sprt_match.Tally("zhbot", test)
        finished = [tally.add(record(g, "zhbot", "fsf", result, ["x"], test))
                    for g, result in ((0, "0-1"), (2, "1-0"), (1, "1-0"), (3, "0-1"))]
        self.assertEqual(finished, [False, False, True, False])
        self.assertEqual((tally.verdict, tally.counts), ("H0", [1, 0, 0, 0, 0]))


class PlayedTest(unittest.TestCase):
    """A scripted zhbot that answers every position with an illegal move loses each game at
    once; Fairy-Stockfish at 1 node a move is its opponent. The logistic model decides on the
    first pair lost twice (LLR -7.9)."""

    def setUp(self):
        self.engine, self.out = fake_zhbot(self)
        self.openings = runner.load_openings(runner.DEFAULT_OPENINGS)[:4]
        self.test = sprt.Sprt(0, 20, model="logistic")
        self.lines = []

    def run_sprt(self, a="zhbot", b="fsf:nodes=1", max_pairs=None, concurrency=1, zhbot=None,
                 more=()):
        return sprt_match.run_sprt(a, b, self.test, "0.1+0.1", self.out, zhbot or self.engine,
                                   self.openings, 400, max_pairs, concurrency,
                                   log=self.lines.append, more_openings=more)

    def records(self):
        with open(self.out) as f:
            return [json.loads(line) for line in f]

    def test_a_lost_pair_accepts_h0_and_stops(self):
        code, tally = self.run_sprt()
        self.assertEqual(code, sprt_match.ACCEPTED_H0)
        self.assertEqual((tally.counts, tally.pairs), ([1, 0, 0, 0, 0], 1))
        self.assertEqual([r["game"] for r in self.records()], [0, 1])
        self.assertIn("LLR -7.9", self.lines[-1])
        self.assertIn("[-2.94, 2.94]", self.lines[-1])
        self.assertIn("H0 accepted", self.lines[-1])
        # The file holds the verdict: a resume plays nothing (the engine path would fail).
        code, tally = self.run_sprt(zhbot="/nonexistent/zhbot")
        self.assertEqual((code, tally.pairs), (sprt_match.ACCEPTED_H0, 1))

    def test_a_won_pair_accepts_h1(self):
        code, tally = self.run_sprt(a="fsf:nodes=1", b="zhbot")
        self.assertEqual((code, tally.counts), (sprt_match.ACCEPTED_H1, [0, 0, 0, 0, 1]))

    def test_the_verdict_is_the_first_crossing_in_the_order_pairs_finished(self):
        # Two games at once: game 2 may start before pair 0 decides; it is recorded, not
        # counted, and a resume reads the same verdict from the file.
        code, tally = self.run_sprt(concurrency=2)
        self.assertEqual((code, tally.pairs), (sprt_match.ACCEPTED_H0, 1))
        self.assertLessEqual(len(self.records()), 3)
        self.assertEqual(self.run_sprt(zhbot="/nonexistent/zhbot")[1].counts, [1, 0, 0, 0, 0])

    def test_a_resume_completes_the_pairs_cut_in_half_and_counts_the_finished_ones(self):
        # Pair 0 finished (1 + 1/2 for zhbot: 3/2 points); game 2 lost to an interruption while
        # game 3 finished (a draw); game 4 finished (a zhbot win), game 5 not. The resume plays
        # games 2 and 5 only, in that order, each with its colours and its pair's opening, and
        # at --max-pairs 3 stops without a verdict (the normalized model: the logistic one
        # would have decided on pair 0 already).
        self.test = sprt.Sprt(0, 20)
        order = sprt_match.shuffled(self.openings)
        with open(self.out, "w") as f:
            for g, result in ((0, "1-0"), (1, "1/2-1/2"), (3, "1/2-1/2"), (4, "1-0")):
                f.write(json.dumps(record(g, "zhbot", "fsf:nodes=1", result, order,
                                          self.test)) + "\n")
        code, tally = self.run_sprt(max_pairs=3)
        self.assertEqual(code, sprt_match.INCONCLUSIVE)
        # zhbot loses games 2 and 5 with its illegal move: pair 1 scores 0 + 1/2, pair 2 1 + 0.
        self.assertEqual(tally.counts, [0, 1, 1, 1, 0])
        new = self.records()[4:]
        self.assertEqual([(r["game"], r["white"], r["opening"]) for r in new],
                         [(2, "zhbot", order[1]), (5, "fsf:nodes=1", order[2])])
        self.assertIn("no verdict within 3 pairs", self.lines[-1])

    def test_two_sides_bounded_by_nodes_play_each_opening_once(self):
        # At fixed nodes a repeated opening replays its pair: with 2 openings the test ends
        # without a verdict after 2 pairs (the normalized model decides slowly here).
        self.test, self.openings = sprt.Sprt(0, 20), self.openings[:2]
        code, tally = self.run_sprt(a="zhbot:nodes=1")
        self.assertEqual((code, tally.pairs), (sprt_match.INCONCLUSIVE, 2))
        self.assertIn("at most 2 pairs", self.lines[0])
        self.assertEqual(len(self.records()), 4)

    def test_a_further_openings_set_continues_a_test_that_ran_out_keeping_its_pairs(self):
        # Two openings, then a set of three of which one is already played: the test resumes
        # with the two new ones only, after the two pairs it had.
        self.test, first = sprt.Sprt(0, 20), self.openings[:2]
        self.openings = first
        self.run_sprt(a="zhbot:nodes=1")
        more = [self.openings[1:2] + runner.load_openings(runner.DEFAULT_OPENINGS)[2:4]]
        code, tally = self.run_sprt(a="zhbot:nodes=1", more=more)
        self.assertEqual((code, tally.pairs), (sprt_match.INCONCLUSIVE, 4))
        self.assertTrue([line for line in self.lines if "at most 4 pairs" in line], self.lines)
        played = [r["opening"] for r in self.records()[::2]]
        self.assertEqual(played[:2], sprt_match.shuffled(first))
        self.assertEqual(sorted(played[2:]),
                         sorted(runner.load_openings(runner.DEFAULT_OPENINGS)[2:4]))

    def test_a_file_of_another_test_is_refused(self):
        order = sprt_match.shuffled(self.openings)
        other = sprt.Sprt(0, 10, model="logistic")
        cases = ((record(0, "zhbot", "fsf:nodes=1", "1-0", order, other), "another test"),
                 (record(0, "zhbot:nodes=5", "fsf:nodes=1", "1-0", order, self.test),
                  "not a game of"),
                 (record(0, "zhbot", "fsf:nodes=1", "1-0", order[1:], self.test),
                  "another opening"))
        for bad, why in cases:
            with open(self.out, "w") as f:
                f.write(json.dumps(bad) + "\n")
            with self.assertRaises(SystemExit, msg=why) as e:
                self.run_sprt()
            self.assertIn(why, str(e.exception))


class CommandLine(unittest.TestCase):
    def test_the_exit_code_says_the_verdict(self):
        engine, out = fake_zhbot(self)
        args = ["sprt", "--zhbot", engine, "--b", "fsf:nodes=1", "--tc", "0.1+0.1",
                "--elo0", "0", "--elo1", "20", "--out", out]
        run = run_tool("tools.measure.strength", *args, "--elo-model", "logistic")
        self.assertEqual(run.returncode, sprt_match.ACCEPTED_H0, run.stderr)
        self.assertIn("pentanomial [0 / 0.5 / 1 / 1.5 / 2] = [1, 0, 0, 0, 0]", run.stdout)
        # The normalized model is the default, and a file of the logistic test is not its.
        run = run_tool("tools.measure.strength", *args)
        self.assertEqual(run.returncode, 1)
        self.assertIn("another test", run.stderr)
        os.remove(out)
        run = run_tool("tools.measure.strength", *args, "--max-pairs", "2")
        self.assertEqual(run.returncode, sprt_match.INCONCLUSIVE, run.stderr)
        self.assertIn("normalized Elo", run.stdout.splitlines()[-1])
        run = run_tool("tools.measure.strength", "sprt", "--b", "fsf", "--elo0", "0")
        self.assertEqual(run.returncode, 1)
        self.assertIn("needs --elo0 and --elo1", run.stderr)


if __name__ == "__main__":
    unittest.main()
