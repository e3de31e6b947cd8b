"""The games of a match: numbered games from numbered openings, played N at a time (each with
its own referee), appended to a JSONL results file as they finish, so that an interrupted match
resumes where it stopped. Game g starts from opening g // 2 with `a` White in the even games:
each opening is played twice, colours swapped."""
import concurrent.futures
import contextlib
import fcntl
import json
import os
import threading
import time

from tools.zhtools import ROOT
from tools.zhtools.epd import load_fens
from tools.zhtools.lab import lab_path
from tools.zhtools.match import Player, failure, play_game
from tools.zhtools.referee import Referee
from tools.zhtools.timecontrol import parse_tc

from .stats import summarize

DEFAULT_OPENINGS = os.path.join(ROOT, "tools", "measure", "openings", "zh-balanced.epd")


def parse_lichess_tc(tc):
    """Lichess notation: "1+1" is 1 minute on each clock plus 1 second a move; returns ms."""
    try:
        return tuple(parse_tc(tc))
    except ValueError as e:
        raise SystemExit("--tc: %s" % e)


def load_openings(path):
    return load_fens(path)


def load_results(path):
    """The game records of a results file; a line that is not a record stops with its place
    (a hand-edited or truncated file must not be pooled or overwritten blindly)."""
    records = []
    with open(path) as f:
        for number, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except ValueError as e:
                raise SystemExit("%s:%d: not a game record (%s); mend or move the file away"
                                 % (path, number, e))
            if not isinstance(record, dict) or "result" not in record:
                raise SystemExit("%s:%d: not a game record (no result); mend or move the file"
                                 " away" % (path, number))
            records.append(record)
    return records


def log_line(text):
    print(text, flush=True)  # a match's log is usually a file that someone is watching


@contextlib.contextmanager
def results_file(out, tc):
    """The results file `out` opened for appending and locked, with the records already in it:
    (file, records). Refuses a file another match is writing and one that holds games at
    another time control."""
    clock_ms = list(parse_lichess_tc(tc))
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    with open(out, "a") as results:
        try:
            # One writer per results file: two matches appending to it would number their
            # games alike and pool them.
            fcntl.flock(results, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise SystemExit("%s: another match is writing this file; wait for it or choose "
                             "another --out" % out)
        done = load_results(out)
        if [r["game"] for r in done if r.get("tc_ms") != clock_ms]:
            # Games from another control (or from before the clocks were read as lichess's
            # minutes) must not be pooled with these: say so rather than resume.
            raise SystemExit("%s holds games at another time control than %s (%s ms); move it "
                             "away" % (out, tc, clock_ms))
        yield results, done


def run_match(a, b, games, tc, out, zhbot, openings, max_plies, log=log_line, concurrency=1):
    """Plays the games 0..games-1 of `a` against `b` not yet in `out`; returns all records."""
    with results_file(out, tc) as (results, done):
        finished = {r["game"] for r in done}

        def logged(record):
            n, s, e, lo, hi, _ = summarize(done, a)
            log("game %d/%d: %s - %s %s (%s, %d plies) | %s: %.1f/%d = %.1f%%, "
                "Elo %+.0f [%+.0f, %+.0f]%s"
                % (record["game"] + 1, games, record["white"], record["black"],
                   record["result"], record["reason"], record["plies"], a, s * n, n, 100 * s,
                   e, lo, hi, "; engine warnings!" if "warnings" in record else ""))

        play_games([g for g in range(games) if g not in finished],
                   GameSetup(a, b, tc, zhbot, openings, max_plies), results, done, logged,
                   concurrency)
    return done


def play_games(numbers, setup, results, done, on_record, concurrency=1):
    """Plays the games `numbers` (an iterable, read in order) by `setup`, `concurrency` at a
    time, each worker with its own referee; appends each record to `results` and to `done` as
    it finishes and calls `on_record(record)`, one at a time. When that returns true no further
    game starts; the games already under way finish and are recorded."""
    numbers = iter(numbers)
    lock = threading.Lock()  # one number, one record and one log line at a time
    stopped = [False]

    def next_number():
        with lock:
            return None if stopped[0] else next(numbers, None)

    def worker():
        g = next_number()
        if g is None:
            return  # nothing left: no referee to start
        referee, sides = Referee(), Sides(setup)
        try:
            while g is not None:
                record = setup.play(g, referee, sides)
                with lock:
                    results.write(json.dumps(record) + "\n")
                    results.flush()
                    done.append(record)
                    if on_record(record):
                        stopped[0] = True
                g = next_number()
        finally:
            referee.quit()
            sides.quit()

    with concurrent.futures.ThreadPoolExecutor(max(1, concurrency)) as pool:
        for future in [pool.submit(worker) for _ in range(max(1, concurrency))]:
            future.result()  # a worker's exception stops the match here


class GameSetup:
    """What every game of a match shares: the sides, the clock, the openings, the ply cap, and
    `extra` fields written into each record."""

    def __init__(self, a, b, tc, zhbot, openings, max_plies, extra=None):
        self.a, self.b, self.tc, self.zhbot = a, b, tc, zhbot
        self.clock_ms = list(parse_lichess_tc(tc))
        self.openings, self.max_plies, self.extra = openings, max_plies, extra or {}

    def play(self, g, referee, sides=None):
        """Game g: opening g // 2, `a` White in the even games; returns its record. `sides`
        (a Sides) keeps the engines for the next game; without it they quit after this one."""
        opening = self.openings[(g // 2) % len(self.openings)]
        a_white = g % 2 == 0
        own = sides is None
        sides = sides or Sides(self)
        pa, pb = sides.engines()
        white, black = (pa, pb) if a_white else (pb, pa)
        started = time.time()
        reason = "crash"  # until the game says otherwise: an exception leaves no engine kept
        try:
            (result, reason), moves, clock, move_ms = play_game(
                white, black, opening, self.clock_ms, self.max_plies, referee)
        finally:
            if own or failure(reason)[0]:
                sides.quit()
        failed = [p for p in (pa, pb) if p.failed]
        record = {"game": g, "white": white.spec, "black": black.spec, "opening": opening,
                  "tc": self.tc, "tc_ms": self.clock_ms, "result": result, "reason": reason,
                  "plies": len(moves), "seconds": round(time.time() - started, 1),
                  "clock_ms": clock, "moves": " ".join(moves),
                  "move_ms": move_ms}  # each ply's thinking time, as the clock charged it
        record.update(self.extra)
        if failed:  # what the engine said before its illegal move, for the bug report
            record["engine_output"] = failed[0].last_lines
        scores = {p.spec: p.scores for p in (pa, pb) if p.kind == "zhbot" and p.scores}
        if scores:
            record["scores"] = scores
        warnings = {p.spec: p.warnings for p in (pa, pb) if p.warnings}
        if warnings:
            record["warnings"] = warnings
        return record


class Sides:
    """The two engines of one worker's games, kept from game to game: each game begins with
    `ucinewgame`, on which zhbot forgets its tree and its evaluation cache and Fairy-Stockfish
    its hash, so a game starts as a fresh process would, without the seconds a zhbot start
    costs (its network loaded and, with `precision: auto`, timed: some 5 s for both sides, a
    tenth of a game at 1 000 nodes a move). After a game that ended in a crash, an illegal
    move or a time forfeit both engines are started afresh."""

    def __init__(self, setup):
        self.setup, self.players = setup, {}

    def engines(self):
        """(a, b): the engines for the sides `a` and `b`, started if need be."""
        for side, spec in (("a", self.setup.a), ("b", self.setup.b)):
            if side not in self.players:
                self.players[side] = Player(spec, self.setup.zhbot)
        return self.players["a"], self.players["b"]

    def quit(self):
        for player in self.players.values():
            player.quit()
        self.players.clear()


def file_name(spec):
    return spec.replace(":", "_").replace("=", "").replace(",", "_").replace("/", "_") + ".jsonl"


def default_results_file(kind, a, b, tc):
    """Where a match (kind "matches") or an SPRT ("sprt") keeps its results when --out is not
    given: in the lab, named by both sides and the control, so rerunning it resumes it."""
    name = "%s--%s--%s" % (file_name(a)[:-6], file_name(b)[:-6], tc)
    return os.path.join(lab_path("strength", kind), name + ".jsonl")
