"""tools/measure/strength: the clock notation; the refusal to pool games of another control,
to read a damaged results file or to share one with another match; the losses and their
judgement lag; the report; and the score / Elo interval a ladder rung reports."""
import contextlib
import fcntl
import io
import json
import os
import shutil
import tempfile
import unittest

from tests.tools.tool_process import run_tool, scripted_engine
from tools.measure.strength import ladder, losses, report, runner, stats
from tools.zhtools import match


def game(n, a_white, result, tc="1+1", tc_ms=(60000, 1000)):
    a, b = ("zhbot", "fsf:nodes=1") if a_white else ("fsf:nodes=1", "zhbot")
    return {"game": n, "white": a, "black": b, "result": result, "reason": "checkmate",
            "tc": tc, "tc_ms": list(tc_ms)}


class LichessClock(unittest.TestCase):
    def test_minutes_plus_seconds(self):
        self.assertEqual(runner.parse_lichess_tc("1+1"), (60000, 1000))
        self.assertEqual(runner.parse_lichess_tc("3+2"), (180000, 2000))
        self.assertEqual(runner.parse_lichess_tc("0.5+0"), (30000, 0))

    def test_malformed_controls_are_refused(self):
        for bad in ("1", "", "x+1", "1+y", "0+0", "-1+2"):
            with self.assertRaises(SystemExit, msg=bad):
                runner.parse_lichess_tc(bad)


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
                runner.run_match("zhbot", "fsf:nodes=1", 1, "1+1", path, "zhbot", [], 400)
            self.assertIn("another time control", str(e.exception))

    def test_a_finished_match_resumes_without_playing(self):
        path = self.write([game(0, True, "1-0"), game(1, False, "1-0")])
        done = runner.run_match("zhbot", "fsf:nodes=1", 2, "1+1", path, "zhbot", [], 400,
                                log=lambda *_: None)
        self.assertEqual(len(done), 2)

    def test_a_truncated_or_foreign_line_stops_with_its_place(self):
        # A write cut short by a kill, or a stray line, must stop the resume with the file and
        # line named, not a traceback and not a silently shorter match.
        for bad in ('{"game": 2, "white": "zh', '[1, 2]'):
            path = self.write([game(0, True, "1-0"), game(1, False, "1-0")])
            with open(path, "a") as f:
                f.write(bad + "\n")
            with self.assertRaises(SystemExit) as e:
                runner.run_match("zhbot", "fsf:nodes=1", 4, "1+1", path, "zhbot", [], 400)
            self.assertIn("%s:3: not a game record" % path, str(e.exception))

    def test_a_second_writer_is_refused(self):
        # Another match appending to the same file would number its games alike.
        path = self.write([game(0, True, "1-0")])
        with open(path, "a") as held:
            fcntl.flock(held, fcntl.LOCK_EX)
            with self.assertRaises(SystemExit) as e:
                runner.run_match("zhbot", "fsf:nodes=1", 1, "1+1", path, "zhbot", [], 400)
            self.assertIn("another match is writing", str(e.exception))
        # Once the first writer is gone, the finished match resumes.
        self.assertEqual(len(runner.run_match("zhbot", "fsf:nodes=1", 1, "1+1", path, "zhbot",
                                              [], 400)), 1)


FAKE_ENGINE = """#!%s
import sys
log = open(sys.argv[0] + ".log", "w")  # what the engine was told, for the test to read
for line in sys.stdin:
    log.write(line); log.flush()
    cmd = line.split()[0] if line.split() else ""
    if cmd == "uci": print("uciok", flush=True)
    elif cmd == "isready": print("readyok", flush=True)
    elif cmd == "go":
        print("info string WARNING: the kept search tree does not match", flush=True)
        print("info string searched the wrong position", flush=True)
        print("bestmove a1a1", flush=True)
    elif cmd == "quit": break
"""


def fake_zhbot(test):
    """A stand-in for zhbot that always answers a1a1 and logs its input to <path>.log; and a
    results file beside it."""
    engine = scripted_engine(test, FAKE_ENGINE)
    return engine, os.path.join(os.path.dirname(engine), "match.jsonl")


def play_one_game(engine, out, a="zhbot"):
    """One game of `a` (played by `engine`) against the real Fairy-Stockfish."""
    opening = runner.load_openings(runner.DEFAULT_OPENINGS)[0]
    return runner.run_match(a, "fsf:nodes=1", 1, "0.1+0.1", out, engine, [opening], 400,
                            log=lambda *_: None)


class ZhbotSpec(unittest.TestCase):
    def test_nodes_bound_the_move_and_the_rest_are_engine_options(self):
        engine, out = fake_zhbot(self)
        play_one_game(engine, out, "zhbot:nodes=50,model=x.pt")
        with open(engine + ".log") as f:
            told = f.read().splitlines()
        self.assertIn("go nodes 50", told)
        self.assertIn("setoption name model value x.pt", told)
        self.assertFalse([line for line in told if line.startswith("setoption name nodes")], told)

    def test_bin_plays_another_binary_and_is_not_an_engine_option(self):
        engine, out = fake_zhbot(self)
        play_one_game("/nonexistent/zhbot", out, "zhbot:nodes=50,bin=" + engine)
        with open(engine + ".log") as f:
            told = f.read().splitlines()
        self.assertIn("go nodes 50", told)
        self.assertFalse([line for line in told if line.startswith("setoption name bin")], told)


FALLBACK_ENGINE = """#!%s
import sys
for line in sys.stdin:
    cmd = line.split()[0] if line.split() else ""
    if cmd == "uci": print("uciok", flush=True)
    elif cmd == "isready":
        print("info string WARNING: evaluator 'torch' (model file 'x.pt') cannot be loaded",
              flush=True)
        print("info string WARNING: FALLING BACK TO THE MATERIAL EVALUATOR: zhbot will play "
              "far weaker", flush=True)
        print("readyok", flush=True)
    elif cmd == "go": print("bestmove e2e4", flush=True)
    elif cmd == "quit": break
"""


class NetworkFallback(unittest.TestCase):
    def test_a_zhbot_that_cannot_load_its_network_stops_the_match_before_any_game(self):
        engine = scripted_engine(self, FALLBACK_ENGINE)
        out = os.path.join(os.path.dirname(engine), "match.jsonl")
        with self.assertRaises(match.EngineError) as e:
            play_one_game(engine, out, "zhbot:nodes=50,model=x.pt")
        self.assertIn("cannot load its network", str(e.exception))
        self.assertIn("model file 'x.pt'", str(e.exception))  # why, in the engine's words
        with open(out) as f:
            self.assertEqual(f.read(), "")  # no game recorded


class IllegalMove(unittest.TestCase):
    def test_an_illegal_move_loses_and_keeps_what_the_engine_said(self):
        engine, out = fake_zhbot(self)
        done = play_one_game(engine, out)
        self.assertEqual(done[0]["reason"], "illegal move: zhbot played a1a1")
        self.assertEqual(done[0]["result"], "0-1")  # zhbot had white in game 0
        self.assertIn("info string searched the wrong position", done[0]["engine_output"])
        # Warnings are kept whether or not the game ends in a failure; plain info is not.
        self.assertEqual(done[0]["warnings"],
                         {"zhbot": ["info string WARNING: the kept search tree does not match"]})
        self.assertEqual(stats.summarize(done, "zhbot")[5]["illegal move"], 1)


def counting_starts(test, target):
    """An engine that appends a line to <path>.starts each time it is started, then runs
    `target` (a Python script for scripted_engine, or a path to execute); its path."""
    if not os.path.isabs(target):
        target = scripted_engine(test, target)
    # Beside the test's own files, never beside an installed engine.
    folder = tempfile.mkdtemp(prefix="counted-")
    test.addCleanup(shutil.rmtree, folder, True)
    path = os.path.join(folder, os.path.basename(target) + "-counted")
    with open(path, "w") as f:
        f.write('#!/bin/sh\necho start >> "$0.starts"\nexec "%s"\n' % target)
    os.chmod(path, 0o755)
    return path


def starts(engine):
    with open(engine + ".starts") as f:
        return len(f.read().splitlines())


class EngineReuse(unittest.TestCase):
    def test_a_worker_keeps_its_engines_from_game_to_game(self):
        # Starting zhbot costs seconds (its network loaded and timed); the games of a worker
        # share one process a side, each game begun with ucinewgame. Real Fairy-Stockfish plays
        # the "zhbot" side here, started through a wrapper that counts its starts.
        engine = counting_starts(self, match.FAIRY)
        out = os.path.join(os.path.dirname(engine), "match.jsonl")
        openings = runner.load_openings(runner.DEFAULT_OPENINGS)[:2]
        done = runner.run_match("zhbot:nodes=20", "fsf:nodes=20", 4, "0.1+0.1", out, engine,
                                openings, 60, log=lambda *_: None)
        self.assertEqual(len(done), 4)
        self.assertFalse([r["reason"] for r in done if match.failure(r["reason"])[0]])
        self.assertEqual(starts(engine), 1)

    def test_a_fairy_stockfish_side_plays_the_build_its_spec_names(self):
        # fsf:bin=PATH, as the lab's teacher build is measured against Debian's binary: the
        # named build plays (its wrapper counts one start), the other side is Debian's.
        engine = counting_starts(self, match.FAIRY)
        out = os.path.join(os.path.dirname(engine), "match.jsonl")
        openings = runner.load_openings(runner.DEFAULT_OPENINGS)[:1]
        done = runner.run_match("fsf:bin=%s,nodes=20" % engine, "fsf:nodes=20", 2, "0.1+0.1",
                                out, "unused", openings, 60, log=lambda *_: None)
        self.assertEqual(len(done), 2)
        self.assertFalse([r["reason"] for r in done if match.failure(r["reason"])[0]])
        self.assertEqual(starts(engine), 1)

    def test_an_engine_that_failed_is_started_afresh_for_the_next_game(self):
        engine = counting_starts(self, FAKE_ENGINE)  # it plays a1a1: every game a failure
        out = os.path.join(os.path.dirname(engine), "match.jsonl")
        openings = runner.load_openings(runner.DEFAULT_OPENINGS)[:2]
        done = runner.run_match("zhbot", "fsf:nodes=1", 3, "0.1+0.1", out, engine, openings,
                                400, log=lambda *_: None)
        self.assertEqual([r["reason"] for r in done], ["illegal move: zhbot played a1a1"] * 3)
        self.assertEqual(starts(engine), 3)
        # What a record keeps of a game is that game's alone, not the games before it.
        self.assertEqual([len(r["warnings"]["zhbot"]) for r in done], [1, 1, 1])


class Concurrency(unittest.TestCase):
    def test_games_at_once_fill_the_gaps_with_their_own_colours_and_openings(self):
        # A match cut off while two games ran at once leaves a gap (here game 1) behind a
        # finished one: resuming plays exactly the missing games, each with its colours and
        # opening fixed by its number, so the match stays colour-balanced.
        engine, out = fake_zhbot(self)
        openings = runner.load_openings(runner.DEFAULT_OPENINGS)[:3]
        with open(out, "w") as f:
            for g in (0, 2):
                record = game(g, g % 2 == 0, "1-0", "0.1+0.1", (6000, 100))
                record["opening"] = openings[g // 2]
                f.write(json.dumps(record) + "\n")
        done = runner.run_match("zhbot", "fsf:nodes=1", 6, "0.1+0.1", out, engine, openings,
                                400, log=lambda *_: None, concurrency=2)
        self.assertEqual(sorted(r["game"] for r in done), list(range(6)))
        with open(out) as f:
            records = {r["game"]: r for r in map(json.loads, f)}
        self.assertEqual(sorted(records), list(range(6)))  # each game written once
        for g in (1, 3, 4, 5):
            r = records[g]
            self.assertEqual(r["white"], "zhbot" if g % 2 == 0 else "fsf:nodes=1", g)
            self.assertEqual(r["opening"], openings[g // 2], g)
            self.assertEqual(r["reason"], "illegal move: zhbot played a1a1", g)

    def test_a_count_below_one_is_refused(self):
        run = run_tool("tools.measure.strength", "match", "--b", "fsf", "--out", "x.jsonl",
                       "--concurrency", "0")
        self.assertNotEqual(run.returncode, 0)
        self.assertIn("--concurrency 0", run.stderr)


class Losses(unittest.TestCase):
    def lines(self, results):
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            losses.print_losses(results, "zhbot")
        return out.getvalue().splitlines()

    def test_each_lost_mate_says_when_zhbot_first_reported_it(self):
        seen = dict(game(1, True, "0-1"), plies=40,
                    scores={"zhbot": [[30, "cp -200"], [34, "mate -3"], [38, "mate -1"]]})
        blind = dict(game(2, False, "1-0"), plies=50, scores={"zhbot": [[47, "cp 80"]]})
        old = dict(game(3, True, "0-1"), plies=60)
        won = dict(game(4, True, "1-0"), plies=30)
        lines = self.lines([seen, blind, old, won])
        self.assertIn("first reported 6 plies before the end", lines[0])
        self.assertIn("no mate against zhbot reported", lines[1])
        self.assertIn("no scores recorded", lines[2])
        self.assertEqual(lines[3], "3 of 4 games lost, 3 of them by mate")

    def test_a_lost_score_counts_from_where_it_stayed_lost(self):
        # cp -400 at ply 20, a recovery, then lost for good from ply 26; the one-move "cp 0"
        # (no search) does not break it.
        r = dict(game(1, True, "0-1"), plies=34,
                 scores={"zhbot": [[20, "cp -400"], [22, "cp 15"], [26, "cp -350"],
                                   [28, "cp 0"], [30, "mate -2"], [32, "mate -1"]]})
        self.assertEqual(losses.lost_since(r, "zhbot"), 8)
        self.assertIn("first reported 4 plies before the end, its score at -300 cp or below "
                      "from 8 plies before", self.lines([r])[0])
        self.assertIsNone(losses.lost_since(dict(r, scores={"zhbot": [[20, "cp 50"]]}),
                                            "zhbot"))

    def test_a_mate_reported_and_then_no_longer_is_listed_with_the_result(self):
        kept = dict(game(1, True, "1-0"), plies=41,
                    scores={"zhbot": [[30, "cp 900"], [34, "mate 4"], [36, "mate 3"]]})
        let_go_won = dict(game(2, True, "1-0"), plies=61,
                          scores={"zhbot": [[40, "mate 7"], [42, "cp 2100"], [44, "mate 5"]]})
        let_go_lost = dict(game(3, False, "1-0"), plies=90,
                           scores={"zhbot": [[65, "mate 13"], [67, "mate 12"], [69, "cp -64"]]})
        none = dict(game(4, True, "0-1"), plies=50, scores={"zhbot": [[47, "mate -2"]]})
        self.assertEqual(losses.mate_let_go(kept, "zhbot"), (34, None))
        self.assertEqual(losses.mate_let_go(let_go_lost, "zhbot"), (65, 69))
        self.assertIsNone(losses.mate_let_go(none, "zhbot"))
        lines = self.lines([kept, let_go_won, let_go_lost, none])
        self.assertIn("game 2: zhbot reported a mate for itself at ply 40 and none at ply 42; "
                      "it won", lines)
        self.assertIn("game 3: zhbot reported a mate for itself at ply 65 and none at ply 69; "
                      "1-0", lines)
        self.assertEqual(lines[-1], "2 of 3 games with a mate reported by zhbot for itself let "
                         "it go at a later move, 1 of them not won")


class JudgementLag(unittest.TestCase):
    def test_the_judge_scores_the_losers_positions_and_the_lag_is_its_score_behind(self):
        # zhbot has Black, the lone king against king and rook (Black moves first): the real
        # Fairy-Stockfish at depth 8 scores both of zhbot's positions (plies 0 and 2) lost for
        # it, while zhbot's own score went lost only at ply 2: a lag of 2 plies.
        r = dict(game(1, False, "1-0"), reason="time forfeit: zhbot", plies=4,
                 opening="8/8/8/4k3/8/8/8/K6R[] b - - 0 1", moves="e5d4 h1h5 d4c3 a1b1",
                 scores={"zhbot": [[0, "cp -100"], [2, "cp -500"]]})
        won = dict(game(2, True, "1-0"), plies=30)
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            losses.print_losses([r, won], "zhbot", judge_depth=8)
        lines = out.getvalue().splitlines()
        self.assertIn("the judge saw it lost from ply 0, zhbot from ply 2: lag 2 plies", lines[0])
        self.assertEqual(lines[2], "judgement lag (judge: Fairy-Stockfish depth 8): median 2 "
                         "plies over 1 losses")


class Report(unittest.TestCase):
    def test_only_results_files_are_read(self):
        # A match's log beside its results must not break the report.
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        folder = tmp.name
        with open(os.path.join(folder, "fsf_nodes1.jsonl"), "w") as f:
            f.write(json.dumps(game(0, True, "1-0")) + "\n")
        with open(os.path.join(folder, "ladder.log"), "w") as f:
            f.write("game 1/20: zhbot - fsf:nodes=1 1-0\n")
        out = run_tool("tools.measure.strength", "report", "--dir", folder).stdout
        self.assertIn("fsf:nodes=1", out)
        self.assertIn("100.0%", out)

    def test_rungs_in_ladder_order_then_other_matches_as_markdown(self):
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        # By name, skill=10 would come before skill=3 and the nodes rungs after "confirm-".
        for opponent in ("fsf:skill=10", "fsf:skill=3", "fsf:nodes=1000", "fsf:nodes=100"):
            with open(os.path.join(tmp.name, runner.file_name(opponent)), "w") as f:
                # zhbot is white in games 0 and 2: it loses game 0 and wins the others, 75%.
                for n, result in enumerate(("0-1", "0-1", "1-0", "0-1")):
                    record = game(n, n % 2 == 0, result)
                    record["black" if n % 2 == 0 else "white"] = opponent
                    f.write(json.dumps(record) + "\n")
        os.rename(os.path.join(tmp.name, "fsf_nodes100.jsonl"),
                  os.path.join(tmp.name, "confirm-fsf_nodes100.jsonl"))
        order = [b for b, _ in ladder.report(tmp.name, "zhbot")]
        self.assertEqual(order, ["fsf:nodes=1000", "fsf:skill=3", "fsf:skill=10", "fsf:nodes=100"])
        out = run_tool("tools.measure.strength", "report", "--dir", tmp.name, "--markdown").stdout
        rows = out.splitlines()
        self.assertEqual(rows[0].count("|"), 7)
        self.assertEqual(rows[2].split(" | ")[:4], ["| fsf:nodes=1000", "1+1", "4", "75.0 %"])
        self.assertIn("0 / 0 / 0", rows[2])


class Score(unittest.TestCase):
    def test_score_and_interval_from_a_side(self):
        # zhbot wins as white and loses as black: 50%, Elo 0, interval around it.
        n, score, elo, low, high, fails = stats.summarize(
            [game(0, True, "1-0"), game(1, False, "1-0")], "zhbot")
        self.assertEqual((n, score), (2, 0.5))
        self.assertAlmostEqual(elo, 0.0)
        self.assertLess(low, 0)
        self.assertGreater(high, 0)
        self.assertEqual(sum(fails.values()), 0)

    def test_a_match_names_the_measured_side_before_its_score(self):
        # zhbot wins both games: the 100 % is zhbot's, so zhbot comes first, then its opponent.
        line = report.describe_match([game(0, True, "1-0"), game(1, False, "0-1")], "zhbot",
                                     "fsf:nodes=1")
        self.assertRegex(line, r"^zhbot against fsf:nodes=1 +2 games +100\.0%")

    def test_a_failure_is_charged_to_the_side_that_failed(self):
        # "zhbot" is a prefix of its opponent's spec here: the opponent's illegal move must not
        # be counted as zhbot's, and the report must still show it.
        record = dict(game(0, True, "1-0"), black="zhbot:model=old.pt",
                      reason="illegal move: zhbot:model=old.pt played g8g7")
        self.assertEqual(sum(stats.summarize([record], "zhbot")[5].values()), 0)
        self.assertEqual(stats.summarize([record], "zhbot:model=old.pt")[5]["illegal move"],
                         1)
        self.assertIn("opponent: illegal 1", report.describe([record], "zhbot",
                                                             "zhbot:model=old.pt"))
        self.assertIn("0 / 0 / 0 (opponent: 1 / 0 / 0)",
                      report.markdown_row([record], "zhbot", "zhbot:model=old.pt"))
        self.assertEqual(match.failure("crash: fsf:nodes=1 (exited)")[1], "fsf:nodes=1")
        self.assertEqual(match.failure("time forfeit: zhbot")[1], "zhbot")

    def test_the_clock_left_at_the_end_is_the_measured_sides(self):
        games = [dict(game(0, True, "1-0"), clock_ms={"w": 12000, "b": 3000}),
                 dict(game(1, False, "1-0"), clock_ms={"w": 40000, "b": 8000}),
                 dict(game(2, True, "0-1"), clock_ms={"w": 2000, "b": 50000})]
        self.assertEqual(report.clock_left(games, "zhbot"), (8.0, 2.0))
        self.assertEqual(report.clock_left(games, "fsf:nodes=1"), None)  # bounded by nodes
        self.assertIn("clock left at the end: median 8.0 s, least 2.0 s",
                      report.describe(games, "zhbot", "fsf:nodes=1"))

    def test_the_time_by_phase_counts_the_sides_own_moves(self):
        # zhbot is White in game 0 (plies 0, 2, ...) and Black in game 1 (plies 1, 3, ...).
        white = [1000 if i % 2 == 0 else 9000 for i in range(24)]  # 12 moves each side
        black = [9000 if i % 2 == 0 else 3000 for i in range(24)]
        games = [dict(game(0, True, "1-0"), move_ms=white),
                 dict(game(1, False, "1-0"), move_ms=black)]
        self.assertEqual(report.time_by_phase(games, "zhbot"), [2.0, 2.0, None, None])
        self.assertEqual(report.time_by_phase(games, "fsf:nodes=1"), None)  # bounded
        self.assertEqual(report.time_by_phase([game(0, True, "1-0")], "zhbot"), None)
        self.assertIn("seconds a move, moves 1-10: 2.00, 11-20: 2.00, 21-30: -, 31+: -",
                      report.describe(games, "zhbot", "fsf:nodes=1"))

    def test_black_moves_first_from_an_opening_with_black_to_move(self):
        # The same plies from an opening where Black moves first: zhbot as White now owns the
        # odd plies, and as Black the even ones.
        black_first = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR[] b KQkq - 0 1"
        plies = [1000 if i % 2 == 0 else 3000 for i in range(24)]
        games = [dict(game(0, True, "1-0"), move_ms=plies, opening=black_first),
                 dict(game(1, False, "1-0"), move_ms=plies, opening=black_first)]
        self.assertEqual(report.own_move_ms(games[0], "zhbot"), [3000] * 12)
        self.assertEqual(report.own_move_ms(games[1], "zhbot"), [1000] * 12)
        self.assertEqual(report.own_move_ms(dict(games[1], opening=None), "zhbot"),
                         [3000] * 12)  # the start position: White first

    def test_the_clock_low_point_ignores_a_finish_played_at_once(self):
        # 60 s + 1 s: four moves of 6 s leave 39 s after the fourth (before its increment), and
        # ten instant moves after it bring the clock back up to 50 s at the end.
        spent = [6000] * 4 + [0] * 10
        plies = [x for ms in spent for x in (ms, 500)]
        games = [dict(game(0, True, "1-0"), move_ms=plies),
                 dict(game(1, True, "1-0"), move_ms=[2000, 0] * 3)]
        self.assertEqual(report.clock_low_point(games, "zhbot"), (39.0 + 56.0) / 2)
        self.assertEqual(report.clock_low_point(games, "fsf:nodes=1"), None)  # bounded
        self.assertIn("its low point in a game: median 47.5 s",
                      report.describe(games, "zhbot", "fsf:nodes=1"))

    def test_a_perfect_score_keeps_a_finite_lower_bound(self):
        n, score, elo, low, high, _ = stats.summarize(
            [game(i, i % 2 == 0, "1-0" if i % 2 == 0 else "0-1") for i in range(20)], "zhbot")
        self.assertEqual(score, 1.0)
        self.assertGreater(low, 200)
        self.assertLess(low, 400)


if __name__ == "__main__":
    unittest.main()
