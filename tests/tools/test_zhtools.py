"""tools/zhtools, the library every measurement tool shares: lichess clock notation, the lab
folder, position files, the UCI helpers, and the referee's rules against the real
Fairy-Stockfish (lichess crazyhouse: drops count for mate and stalemate, fivefold repetition,
no insufficient material)."""
import argparse
import os
import subprocess
import tempfile
import unittest
from unittest import mock

from tests.tools.tool_process import run_tool, scripted_engine
from tools.measure import deep_suites, suites
from tools.measure.strength import runner
from tools.zhtools import epd, lab, match, referee, timecontrol, uci
from tools.zhtools.fairy import FAIRY, FairyStockfish
from tools.zhtools.fairy import Line as FairyLine


class TimeControlNotation(unittest.TestCase):
    def test_minutes_plus_seconds(self):
        self.assertEqual(timecontrol.parse_tc("1+1"), (60000, 1000))
        self.assertEqual(timecontrol.parse_tc("3+2"), (180000, 2000))
        self.assertEqual(timecontrol.parse_tc("0.25+0.1"), (15000, 100))
        self.assertEqual(timecontrol.parse_tc("0+1").base_ms, 0)

    def test_bad_controls_say_what_is_wanted(self):
        for bad in ("1", "", "10", "x+1", "1+y", "0+0", "-1+2", "1+-1"):
            with self.assertRaises(ValueError, msg=bad) as e:
                timecontrol.parse_tc(bad)
            self.assertIn("MINUTES+SECONDS", str(e.exception))
        with self.assertRaises(argparse.ArgumentTypeError):
            timecontrol.tc_argument("10")

    def test_uci_match_reads_tc_as_lichess_notation(self):
        # uci_match.py once read --tc as seconds: "1" alone (seconds) must now be refused as
        # a usage error before any engine starts.
        run = run_tool("tools.measure.uci_match", "--zhbot", "unused", "--tc", "10")
        self.assertEqual(run.returncode, 2, run.stderr)
        self.assertIn("MINUTES+SECONDS", run.stderr)


class LabFolder(unittest.TestCase):
    def test_the_environment_names_the_lab_and_folders_appear_on_demand(self):
        with tempfile.TemporaryDirectory() as tmp:
            where = os.path.join(tmp, "lab")
            with mock.patch.dict(os.environ, {"ZHBOT_LAB": where}):
                self.assertEqual(lab.lab_dir(), where)
                self.assertFalse(os.path.exists(where))
                made = lab.lab_path("strength", "ladder")
                self.assertEqual(made, os.path.join(where, "strength", "ladder"))
                self.assertTrue(os.path.isdir(made))
                # A match without --out keeps its results in the lab, named by sides and control.
                out = runner.default_results_file("matches", "zhbot", "fsf:nodes=1000", "1+1")
                self.assertEqual(os.path.dirname(out), os.path.join(where, "strength", "matches"))
                self.assertEqual(os.path.basename(out), "zhbot--fsf_nodes1000--1+1.jsonl")

    def test_the_lab_labels_with_its_own_teacher_build_once_there_is_one(self):
        with tempfile.TemporaryDirectory() as tmp:
            with mock.patch.dict(os.environ, {"ZHBOT_LAB": tmp}):
                self.assertEqual(lab.teacher_path(), FAIRY)
                built = os.path.join(lab.lab_path("bin"), "fairy-stockfish")
                with open(built, "w") as f:
                    f.write("#!/bin/sh\n")
                self.assertEqual(lab.teacher_path(), FAIRY)  # not executable: not a build
                os.chmod(built, 0o755)
                self.assertEqual(lab.teacher_path(), built)

    def test_the_default_lab_is_the_shells_and_outside_the_checkout(self):
        env = {k: v for k, v in os.environ.items() if k != "ZHBOT_LAB"}
        with mock.patch.dict(os.environ, env, clear=True):
            self.assertEqual(lab.lab_dir(), "/var/tmp/zhbot-lab")
        # What tools/lab/lab.sh exports when ZHBOT_LAB is unset (its line, run alone: sourcing
        # the whole file would create the folder).
        shell = subprocess.run(["bash", "-c", 'unset ZHBOT_LAB; eval "$(grep "^ZHBOT_LAB=" "$1")"; '
                                'echo "$ZHBOT_LAB"', "-", lab.LAB_SH],
                               capture_output=True, text=True, check=True).stdout.strip()
        self.assertEqual(shell, lab.default_lab())


class PositionFiles(unittest.TestCase):
    def test_fields_and_comments(self):
        with tempfile.NamedTemporaryFile("w", suffix=".epd", delete=False) as f:
            f.write("# a comment ; not a position\n\n"
                    "8/8/8/8/8/8/8/K6k[] w - - 0 1 ; mate 2 ; best P@e4\n"
                    "k7/8/8/8/8/8/8/K7[] b - - 0 1 ; 12 ; e2e4 e7e5\n")
        self.addCleanup(os.remove, f.name)
        entries = epd.load_epd(f.name)
        self.assertEqual(entries[0], {"fen": "8/8/8/8/8/8/8/K6k[] w - - 0 1", "mate": "2",
                                      "best": "P@e4"})
        self.assertEqual(epd.load_fens(f.name), ["8/8/8/8/8/8/8/K6k[] w - - 0 1",
                                                 "k7/8/8/8/8/8/8/K7[] b - - 0 1"])


class UciHelpers(unittest.TestCase):
    def test_commands_and_answers(self):
        self.assertEqual(uci.position_command(), "position startpos")
        self.assertEqual(uci.position_command(None, ["e2e4"]), "position startpos moves e2e4")
        self.assertEqual(uci.position_command("F", ["P@e4", "e7e5"]),
                         "position fen F moves P@e4 e7e5")
        self.assertEqual(uci.bestmove_of("bestmove e2e4 ponder e7e5"), ("e2e4", "e7e5"))
        self.assertEqual(uci.bestmove_of("bestmove N@f7"), ("N@f7", None))
        with self.assertRaises(uci.EngineError):
            uci.bestmove_of("info depth 1")
        self.assertEqual(uci.option_pairs(["threads=1", "Skill Level=3"]),
                         [("threads", "1"), ("Skill Level", "3")])
        with self.assertRaises(ValueError):
            uci.option_pairs(["threads"])

    def test_an_engine_that_cannot_start_or_exits_is_a_clear_error(self):
        with self.assertRaises(uci.EngineError) as e:
            uci.UciEngine("nothing", ["/nonexistent/engine"])
        self.assertIn("cannot start", str(e.exception))
        engine = uci.UciEngine("true", ["true"])
        with self.assertRaises(uci.EngineError) as e:
            engine.read_until("uciok")
        self.assertIn("true exited", str(e.exception))
        engine.quit()


# A pondering engine: its real searches answer e2e4 (expecting e7e5), then d2d4 (expecting
# d7d5); a `go ponder` answers only once told `ponderhit` or `stop`, as UCI wants.
PONDERING_ENGINE = """#!%s
import sys
log = open(sys.argv[0] + ".log", "w")
answers = iter(["e2e4 ponder e7e5", "d2d4 ponder d7d5", "g1f3"])
pondering = False
for line in sys.stdin:
    log.write(line); log.flush()
    words = line.split()
    cmd = words[0] if words else ""
    if cmd == "uci": print("uciok", flush=True)
    elif cmd == "isready": print("readyok", flush=True)
    elif cmd == "go" and "ponder" in words: pondering = True
    elif cmd == "go" or (cmd == "ponderhit" and pondering):
        pondering = False
        print("info depth 1 score cp 12", flush=True)
        print("bestmove " + next(answers), flush=True)
    elif cmd == "stop" and pondering:
        pondering = False
        print("bestmove a2a3", flush=True)
    elif cmd == "quit": break
"""


class Pondering(unittest.TestCase):
    def engine(self):
        return scripted_engine(self, PONDERING_ENGINE)

    def test_the_expected_reply_is_a_ponderhit_and_another_stops_the_ponder_search(self):
        path = self.engine()
        player = match.Player("zhbot", path, ponder=True)
        clock = {"w": 60000, "b": 60000}
        try:
            player.new_game()
            self.assertEqual(player.go("position startpos", clock, 1000), "e2e4")
            self.assertEqual(player.ponder_move, "e7e5")
            player.ponder("position startpos moves e2e4 e7e5", clock, 1000)
            # The opponent played the move expected: the ponder search becomes the real one.
            self.assertEqual(player.go("position startpos moves e2e4 e7e5", clock, 1000), "d2d4")
            player.ponder("position startpos moves e2e4 e7e5 d2d4 d7d5", clock, 1000)
            # It played another: the ponder search is stopped, its answer dropped, a new one run.
            self.assertEqual(player.go("position startpos moves e2e4 e7e5 d2d4 g8f6", clock,
                                       1000), "g1f3")
            self.assertEqual(player.scores, [])  # play_game, not Player, keeps the scores
        finally:
            player.quit()
        with open(path + ".log") as f:
            told = [line for line in f.read().splitlines() if not line.startswith(
                ("uci", "setoption", "isready", "ucinewgame", "quit"))]
        self.assertEqual(told, [
            "position startpos",
            "go wtime 60000 btime 60000 winc 1000 binc 1000",
            "position startpos moves e2e4 e7e5",
            "go ponder wtime 60000 btime 60000 winc 1000 binc 1000",
            "ponderhit",
            "position startpos moves e2e4 e7e5 d2d4 d7d5",
            "go ponder wtime 60000 btime 60000 winc 1000 binc 1000",
            "stop",
            "position startpos moves e2e4 e7e5 d2d4 g8f6",
            "go wtime 60000 btime 60000 winc 1000 binc 1000"])

    def test_a_game_that_ends_while_a_side_ponders_stops_that_search(self):
        path = self.engine()
        zh, fsf = match.Player("zhbot", path, ponder=True), match.Player("fsf:nodes=1", None)
        ref = referee.Referee()
        try:
            # Three plies, the last one zhbot's: the ply cap ends the game while zhbot ponders.
            (result, reason), moves, _, move_ms = match.play_game(zh, fsf, None, (60000, 1000),
                                                                  3, ref)
        finally:
            zh.quit()
            fsf.quit()
            ref.quit()
        self.assertEqual((moves[0], moves[2], len(move_ms)), ("e2e4", "d2d4", 3))
        self.assertEqual(zh.pondering, None)
        with open(path + ".log") as f:
            told = f.read().splitlines()
        self.assertEqual(told[-2:], ["stop", "quit"])
        self.assertEqual(len(zh.scores), 2)


def state_of(ref, fen, moves=()):
    return ref.state(uci.position_command(fen, moves))


class Rules(unittest.TestCase):
    """The referee's view of positions whose crazyhouse rules differ from chess."""

    @classmethod
    def setUpClass(cls):
        cls.ref = referee.Referee()

    @classmethod
    def tearDownClass(cls):
        cls.ref.quit()

    def test_the_start_position(self):
        state = state_of(self.ref, None)
        self.assertEqual(len(state.legal), 20)
        self.assertEqual((state.side, state.in_check), ("w", False))
        self.assertIsNone(referee.game_end(state, 1, 0, 400))

    def test_checkmate_counts_drops(self):
        # A pawn check next to the king cannot be blocked: mate with a full pocket.
        state = state_of(self.ref,
                         "r2q1b1r/ppp1kPpp/2p5/2PpN3/1n1Pb3/3PK3/PPr1BPPP/n1q1N2R/b w - - 0 20")
        self.assertEqual(state.legal, set())
        self.assertTrue(state.in_check)
        self.assertEqual(referee.game_end(state, 1, 40, 400), ("0-1", "checkmate"))

    def test_a_piece_in_the_pocket_is_no_stalemate(self):
        state = state_of(self.ref, "7k/5Q2/6K1/8/8/8/8/8[n] b - - 0 1")
        self.assertEqual(len(state.legal), 61)  # knight drops on every empty square
        self.assertTrue(all(m.startswith("N@") for m in state.legal))
        self.assertIsNone(referee.game_end(state, 1, 10, 400))
        empty = state_of(self.ref, "7k/5Q2/6K1/8/8/8/8/8[] b - - 0 1")
        self.assertEqual(referee.game_end(empty, 1, 10, 400), ("1/2-1/2", "stalemate"))

    def test_bare_kings_play_on_and_fivefold_repetition_draws(self):
        fen = "k7/8/8/8/8/8/8/7K[] w - - 0 1"
        shuffle = ["h1h2", "a8a7", "h2h1", "a7a8"]
        repetitions = referee.Repetitions()
        state = state_of(self.ref, fen)
        self.assertIsNone(referee.game_end(state, repetitions.add(state.fen), 0, 400))
        for cycle in range(1, 5):
            moves = shuffle * cycle
            state = state_of(self.ref, fen, moves)
            end = referee.game_end(state, repetitions.add(state.fen), len(moves), 400)
            self.assertEqual(end, None if cycle < 4 else ("1/2-1/2", "fivefold repetition"))

    def test_the_ply_cap_is_a_draw(self):
        state = state_of(self.ref, None)
        self.assertEqual(referee.game_end(state, 1, 400, 400), ("1/2-1/2", "ply cap"))


class FairySearch(unittest.TestCase):
    def test_a_mate_in_one_is_found_and_scored(self):
        fsf = FairyStockfish([("Threads", "1")])
        self.addCleanup(fsf.quit)
        # White mates with a queen drop next to the cornered king.
        best, lines = fsf.search(uci.position_command("k7/8/1K6/8/8/8/8/8[Q] w - - 0 1"),
                                 "depth 6", multipv=2)
        self.assertEqual((lines[0].kind, lines[0].value), ("mate", 1))
        self.assertEqual(best, lines[0].move)
        self.assertEqual(len(lines), 2)


class SuiteSearchLimit(unittest.TestCase):
    def test_a_node_count_replaces_the_time(self):
        # Equal nodes make two builds comparable on a busy machine; the time stays the default.
        go = suites.go_command
        self.assertEqual(go(argparse.Namespace(nodes=2000, movetime=1000)), "go nodes 2000")
        self.assertEqual(go(argparse.Namespace(nodes=0, movetime=1000)), "go movetime 1000")

    def test_a_negative_node_count_is_refused(self):
        r = run_tool("tools.measure.suites", "solve", "--suite", "none.epd", "--nodes", "-5")
        self.assertEqual(r.returncode, 2)
        self.assertIn("--nodes must be >= 0", r.stderr)


class ScriptedSearches:
    """Fairy-Stockfish's MultiPV 2 answers, one list of lines per depth."""

    def __init__(self, by_depth):
        self.by_depth = by_depth

    def send(self, _):
        pass

    def quit(self):
        pass

    def search(self, _position, limit, _multipv):
        lines = self.by_depth[int(limit.split()[1])]
        return lines[0].move, lines


def lines(best, best_cp, second, second_cp):
    return [FairyLine("cp", best_cp, best), FairyLine("cp", second_cp, second)]


class DefenceLabels(unittest.TestCase):
    # A defence label must be the only move that holds at every verification depth: a depth-12
    # label alone was wrong at depth 16 in a third of the old suite.
    def only(self, by_depth):
        return suites.only_move_at_every_depth(ScriptedSearches(by_depth), "fen", [12, 16],
                                               400)

    def test_the_same_only_move_at_every_depth_is_the_label(self):
        self.assertEqual(self.only({12: lines("a1a2", 50, "b1b2", -600),
                                    16: lines("a1a2", 20, "b1b2", -900)}), "a1a2")

    def test_a_second_move_that_holds_deeper_drops_the_position(self):
        self.assertIsNone(self.only({12: lines("a1a2", 50, "b1b2", -600),
                                     16: lines("a1a2", 20, "b1b2", -100)}))

    def test_another_best_move_deeper_drops_the_position(self):
        self.assertIsNone(self.only({12: lines("a1a2", 50, "b1b2", -600),
                                     16: lines("c1c2", 20, "a1a2", -900)}))

    def test_a_best_move_that_loses_deeper_drops_the_position(self):
        self.assertIsNone(self.only({12: lines("a1a2", 50, "b1b2", -600),
                                     16: lines("a1a2", -450, "b1b2", -1200)}))

    def test_a_second_move_that_also_holds_is_no_defence(self):
        # 600 cp apart, but the second move keeps +300: the position asks for no only move.
        self.assertIsNone(self.only({12: lines("a1a2", 900, "b1b2", 300),
                                     16: lines("a1a2", 900, "b1b2", 300)}))

    def test_verify_keeps_only_the_labels_that_still_pass(self):
        holds, no_defence = "k7/8/8/8/8/8/8/K7/ w - - 0 1", "7k/8/8/8/8/8/8/7K/ w - - 0 1"
        answers = {holds: lines("a1a2", 50, "b1b2", -700),
                   no_defence: lines("h1h2", 900, "g1g2", 300)}

        class ByPosition(ScriptedSearches):
            def search(self, position, _limit, _multipv):
                found = [v for fen, v in answers.items() if fen in position]
                return found[0][0].move, found[0]

        with tempfile.TemporaryDirectory() as d:
            suite, kept = os.path.join(d, "suite.epd"), os.path.join(d, "kept.epd")
            with open(suite, "w") as f:
                f.write("%s ; best a1a2\n%s ; best h1h2\n" % (holds, no_defence))
            args = argparse.Namespace(suite=suite, out=kept, verify_depths=[12, 16], gap=400)
            with mock.patch.object(suites, "FairyStockfish", lambda _options: ByPosition({})), \
                    mock.patch("sys.stdout"):
                suites.verify(args)
            self.assertEqual([(e["fen"], e["best"]) for e in epd.load_epd(kept)],
                             [(holds, "a1a2")])

    def test_make_needs_exactly_one_source(self):
        for extra in ([], ["--teacher", "t.jsonl.gz", "--shards", "dir"]):
            r = run_tool("tools.measure.suites", "make", *extra)
            self.assertEqual(r.returncode, 2)
            self.assertIn("exactly one of --teacher and --shards", r.stderr)


class ByDepth(ScriptedSearches):
    """Fairy-Stockfish's answers by depth, the same whatever the position."""


def mate(value, move):
    return FairyLine("mate", value, move)


class LongerMateLabels(unittest.TestCase):
    # A longer mate counts when every depth reports the same distance: a shallow search often
    # sees a longer mate than the shortest one.
    def test_the_same_distance_at_every_depth_is_the_label(self):
        fsf = ByDepth({16: [mate(5, "Q@h7")], 20: [mate(5, "N@g6")]})
        self.assertEqual(deep_suites.confirmed_mate(fsf, "fen", [16, 20]), (5, "N@g6"))

    def test_a_shorter_mate_deeper_or_none_drops_the_position(self):
        for deeper in ([mate(4, "Q@h7")], [FairyLine("cp", 900, "Q@h7")], [mate(-6, "a1a2")]):
            fsf = ByDepth({16: [mate(5, "Q@h7")], 20: deeper})
            self.assertIsNone(deep_suites.confirmed_mate(fsf, "fen", [16, 20]), deeper)


class DeeperDefenceLabels(unittest.TestCase):
    def escape(self, by_depth):
        return deep_suites.only_escape(ByDepth(by_depth), "fen", [12, 16])

    def test_one_move_escapes_and_every_other_is_mated(self):
        self.assertEqual(self.escape({12: [FairyLine("cp", -80, "K@g1"), mate(-3, "a1a2")],
                                      16: [FairyLine("cp", -40, "K@g1"), mate(-4, "a1a2")]}),
                         ("K@g1", 4))

    def test_a_second_move_that_escapes_or_a_longer_mate_drops_the_position(self):
        for second in (FairyLine("cp", -900, "a1a2"), mate(-7, "a1a2")):
            self.assertIsNone(self.escape({12: [FairyLine("cp", 0, "K@g1"), mate(-3, "a1a2")],
                                           16: [FairyLine("cp", 0, "K@g1"), second]}), second)

    def test_a_best_move_mated_or_another_best_deeper_drops_the_position(self):
        for best in (mate(-5, "K@g1"), FairyLine("cp", 0, "b1b2")):
            self.assertIsNone(self.escape({12: [FairyLine("cp", 0, "K@g1"), mate(-3, "a1a2")],
                                           16: [best, mate(-3, "a1a2")]}), best)

    def test_a_mating_only_move_is_a_mate_to_find_not_a_defence(self):
        self.assertIsNone(self.escape({12: [mate(2, "Q@f7"), mate(-3, "a1a2")],
                                       16: [mate(2, "Q@f7"), mate(-3, "a1a2")]}))


class MateAcceptance(unittest.TestCase):
    # After the move played, Fairy-Stockfish scores the opponent's position: mate -k means the
    # opponent is mated in k.
    def solves(self, entry, after):
        return suites.solves(ByDepth({d: after for d in (10, 14, 20)}), entry, "x")

    def test_the_short_suite_wants_the_mate_no_slower(self):
        entry = {"fen": "fen", "mate": "3"}
        self.assertTrue(self.solves(entry, [mate(-2, "a1a2")]))
        self.assertFalse(self.solves(entry, [mate(-4, "a1a2")]))

    def test_the_longer_suite_takes_every_move_that_keeps_the_mate(self):
        entry = {"fen": "fen", "mate": "4", "accept": "mate-kept"}
        self.assertTrue(self.solves(entry, [mate(-3, "a1a2")]))
        self.assertTrue(self.solves(entry, [mate(-9, "a1a2")]))
        self.assertFalse(self.solves(entry, [FairyLine("cp", -2000, "a1a2")]))
        self.assertFalse(self.solves(entry, [mate(2, "a1a2")]))

    def test_a_kept_mate_found_only_deeper_counts(self):
        entry = {"fen": "fen", "mate": "6", "accept": "mate-kept"}
        fsf = ByDepth({10: [FairyLine("cp", -900, "a1a2")], 20: [mate(-7, "a1a2")]})
        self.assertTrue(suites.solves(fsf, entry, "x"))

    def test_a_defence_wants_its_move(self):
        self.assertTrue(suites.solves(None, {"fen": "fen", "best": "K@g1"}, "K@g1"))
        self.assertFalse(suites.solves(None, {"fen": "fen", "best": "K@g1"}, "g1h1"))


if __name__ == "__main__":
    unittest.main()
