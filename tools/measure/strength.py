"""The strength ladder: colour-balanced matches from balanced openings, refereed by
Fairy-Stockfish's own move list (never by zhbot), with Elo and a 95% interval.

  python3 -m tools.measure.strength match  --a zhbot:backend=torch,model=models/X.pt \
      --b fsf:nodes=1000 --games 20 --tc 1+1 [--out FILE.jsonl]
  python3 -m tools.measure.strength ladder --a zhbot:... --tc 1+1 --games 20 [--dir DIR]
  python3 -m tools.measure.strength report [--dir DIR]

Results live in the lab folder outside the checkout by default ($ZHBOT_LAB, else
/var/tmp/zhbot-lab): a match in <lab>/strength/matches/, the ladder in <lab>/strength/ladder/.

Engine specs:
  zhbot[:NAME=VALUE,...]  `zhbot uci` with those engine options (always Threads 1 for the search
                          and nn_threads 1: one core per side), ponder off; nodes=N or depth=D
                          bound every move instead of the clock (equal work for two networks)
  fsf[:nodes=N|depth=D|skill=S]  Fairy-Stockfish 11.1, Threads 1, Hash 16; nodes/depth bound
                          every move, skill sets its Skill Level (clock-limited)
Each opening is played twice, colours swapped. Clocks are kept here, in lichess notation
(1+1: one minute on each clock plus one second a move); a side whose clock runs out loses.
Results are appended to a JSONL file as games finish, so an interrupted match resumes where it
stopped (the games not yet in the file are played). --concurrency N plays N games at once, each
with its own referee: ponder is off, so a game keeps one core busy (its side to move); give
every game a core. Illegal moves, time forfeits and crashes are counted and must be 0. Lichess
crazyhouse rules: mate, stalemate, fivefold repetition; no 50-move rule; a game still running at
--max-plies is adjudicated a draw.
"""
import argparse
import concurrent.futures
import fcntl
import json
import math
import os
import queue
import statistics
import threading
import time
from collections import Counter

from tools.zhtools import ROOT
from tools.zhtools.epd import load_fens
from tools.zhtools.lab import lab_path
from tools.zhtools.match import FAILURES, Player, bounded, failure, parse_spec, play_game
from tools.zhtools.referee import Referee
from tools.zhtools.timecontrol import TC_HELP, parse_tc

DEFAULT_OPENINGS = os.path.join(ROOT, "tools", "measure", "openings", "zh-balanced.epd")
LADDER = (["fsf:nodes=%d" % n for n in (1, 10, 100, 1000, 10000, 100000)]
          + ["fsf:skill=%d" % s for s in (0, 3, 6, 10, 15, 20)] + ["fsf"])


def parse_lichess_tc(tc):
    """Lichess notation: "1+1" is 1 minute on each clock plus 1 second a move; returns ms."""
    try:
        return tuple(parse_tc(tc))
    except ValueError as e:
        raise SystemExit("--tc: %s" % e)


# A score at or below this (centipawns, the side's own view) counts as a lost position.
LOST_CP = -300


def lost_since(record, side):
    """How many plies before the end `side`'s own scores went to LOST_CP or below (or a mate
    against it) and stayed there, a move without a search (one legal move, "cp 0") aside; None
    when its last scored move was not lost."""
    def lost(score):
        kind, value = score.split()
        return value.startswith("-") if kind == "mate" else int(value) <= LOST_CP
    since = None
    for ply, score in record.get("scores", {}).get(side, []):
        if score == "cp 0" and since is not None:
            continue
        since = (since if since is not None else ply) if lost(score) else None
    return None if since is None else record["plies"] - since


def first_mate_warning(record, side):
    """For a game `side` lost by mate: how many plies before the end its own search first
    reported the mate against it (None: never)."""
    for ply, score in record.get("scores", {}).get(side, []):
        if score.startswith("mate -"):
            return record["plies"] - ply
    return None


def load_openings(path):
    return load_fens(path)


def summarize(results, a):
    """Score of `a` over `results`: (games, score, elo, elo_low, elo_high, failures)."""
    xs = []
    fails = Counter()
    for r in results:
        a_white = r["white"] == a
        if r["result"] == "1/2-1/2":
            x = 0.5
        else:
            x = 1.0 if (r["result"] == "1-0") == a_white else 0.0
        xs.append(x)
        kind, spec = failure(r["reason"])
        if kind and spec == a:
            fails[kind] += 1
    n = len(xs)
    if n == 0:
        return 0, 0.0, None, None, None, fails
    mean = sum(xs) / n
    low, high = wilson_interval(mean, n)
    return n, mean, elo(mean), elo(low), elo(high), fails


def failure_counts(results, side):
    """The failures of `side` as "illegal / time / crash" counts."""
    fails = summarize(results, side)[5]
    return tuple(fails[kind] for kind in FAILURES)


def wilson_interval(score, n, z=1.96):
    """95% interval of a score fraction over n games: Wilson's, which stays honest at 0% and
    100% (a normal interval collapses to a point there); draws only make it conservative."""
    centre = (score + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(score * (1 - score) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def elo(score):
    """Elo difference for a score fraction (clamped at 0.1% and 99.9%: +-1200)."""
    s = min(max(score, 1e-3), 1 - 1e-3)
    return -400 * math.log10(1 / s - 1)


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


def run_match(a, b, games, tc, out, zhbot, openings, max_plies, log=log_line, concurrency=1):
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
        stale = [r["game"] for r in done if r.get("tc_ms") != clock_ms]
        if stale:
            # Games from another control (or from before the clocks were read as lichess's
            # minutes) must not be pooled with these: say so rather than resume.
            raise SystemExit("%s holds games at another time control than %s (%s ms); move it "
                             "away" % (out, tc, clock_ms))
        play_rest(a, b, games, tc, clock_ms, results, done, zhbot, openings, max_plies, log,
                  concurrency)
    return done


def play_rest(a, b, games, tc, clock_ms, results, done, zhbot, openings, max_plies, log,
              concurrency=1):
    """Plays the games of 0..games-1 not in `done`, `concurrency` at a time (each with its own
    referee), appending each record to `results` and to `done` as it finishes."""
    finished = {r["game"] for r in done}
    todo = queue.Queue()
    for g in range(games):
        if g not in finished:
            todo.put(g)
    if todo.empty():
        return
    lock = threading.Lock()  # one record and one log line at a time

    def worker():
        referee = Referee()
        try:
            while True:
                try:
                    g = todo.get_nowait()
                except queue.Empty:
                    return
                record = play_numbered_game(g, a, b, tc, clock_ms, zhbot, openings, max_plies,
                                            referee)
                with lock:
                    results.write(json.dumps(record) + "\n")
                    results.flush()
                    done.append(record)
                    n, s, e, lo, hi, _ = summarize(done, a)
                    log("game %d/%d: %s - %s %s (%s, %d plies) | %s: %.1f/%d = %.1f%%, "
                        "Elo %+.0f [%+.0f, %+.0f]%s"
                        % (g + 1, games, record["white"], record["black"], record["result"],
                           record["reason"], record["plies"], a, s * n, n, 100 * s, e, lo, hi,
                           "; engine warnings!" if "warnings" in record else ""))
        finally:
            referee.quit()

    workers = max(1, min(concurrency, todo.qsize()))
    with concurrent.futures.ThreadPoolExecutor(workers) as pool:
        for future in [pool.submit(worker) for _ in range(workers)]:
            future.result()  # a worker's exception stops the match here


def play_numbered_game(g, a, b, tc, clock_ms, zhbot, openings, max_plies, referee):
    """Game g of a match: opening g // 2, `a` white in the even games; returns its record."""
    opening = openings[(g // 2) % len(openings)]
    a_white = g % 2 == 0
    pa, pb = Player(a, zhbot), Player(b, zhbot)
    white, black = (pa, pb) if a_white else (pb, pa)
    started = time.time()
    try:
        (result, reason), moves, clock, move_ms = play_game(white, black, opening, clock_ms,
                                                            max_plies, referee)
    finally:
        pa.quit()
        pb.quit()
    failed = [p for p in (pa, pb) if p.failed]
    record = {"game": g, "white": white.spec, "black": black.spec, "opening": opening,
              "tc": tc, "tc_ms": clock_ms, "result": result, "reason": reason,
              "plies": len(moves), "seconds": round(time.time() - started, 1),
              "clock_ms": clock, "moves": " ".join(moves),
              "move_ms": move_ms}  # each ply's thinking time, as the clock charged it
    if failed:  # what the engine said before its illegal move, for the bug report
        record["engine_output"] = failed[0].last_lines
    scores = {p.spec: p.scores for p in (pa, pb) if p.kind == "zhbot" and p.scores}
    if scores:
        record["scores"] = scores
    warnings = {p.spec: p.warnings for p in (pa, pb) if p.warnings}
    if warnings:
        record["warnings"] = warnings
    return record


def clock_left(results, side):
    """(median, least) seconds left on `side`'s clock when its games ended, or None when its
    moves were bounded by nodes or depth (its clock then says nothing). How much of its clock
    an engine leaves unused is what the time manager is tuned on."""
    if bounded(parse_spec(side)[1]):
        return None
    left = [r["clock_ms"]["w" if r["white"] == side else "b"] / 1000.0
            for r in results if "clock_ms" in r]
    return (statistics.median(left), min(left)) if left else None


# Our move numbers (1-based) that the time report groups: opening, early and late middlegame, end.
PHASES = ((1, 10), (11, 20), (21, 30), (31, None))


def own_move_ms(record, side):
    """`side`'s thinking time (ms) on each of its moves in `record`, in order. The plies start
    from the opening position, whose side to move is Black in some openings."""
    fields = (record.get("opening") or "").split()
    first_mover = fields[1] if len(fields) > 1 else "w"  # no FEN: the start position
    own_colour = "w" if record["white"] == side else "b"
    return record.get("move_ms", [])[0 if own_colour == first_mover else 1::2]


def time_by_phase(results, side):
    """Mean seconds `side` thought per move in each of PHASES, over the games whose records
    carry each ply's time (move_ms); None where there are none, or for a bounded side. Where a
    game's clock went is what the time manager's plan is judged by."""
    if bounded(parse_spec(side)[1]):
        return None
    spent = [[] for _ in PHASES]
    for r in results:
        for number, ms in enumerate(own_move_ms(r, side), start=1):
            for i, (low, high) in enumerate(PHASES):
                if number >= low and (high is None or number <= high):
                    spent[i].append(ms / 1000.0)
    if not any(spent):
        return None
    return [statistics.mean(x) if x else None for x in spent]


def clock_low_point(results, side):
    """The median over games of the least `side`'s clock showed (seconds, at the end of one of
    its moves, before the increment), or None. Unlike the clock left at the end it does not
    count the increments of a finish played at once (a proven mate, forced replies), so it
    says how much of the clock the decisive part of the game left unused."""
    if bounded(parse_spec(side)[1]):
        return None
    lows = []
    for r in results:
        spent = own_move_ms(r, side)
        if not spent or "tc_ms" not in r:
            continue
        base, inc = r["tc_ms"]
        clock, low = base, base
        for ms in spent:
            clock -= ms
            low = min(low, clock)
            clock += inc
        lows.append(low / 1000.0)
    return statistics.median(lows) if lows else None


def describe(results, a, b):
    n, s, e, lo, hi, _ = summarize(results, a)
    if not n:
        return "%-40s no games" % b
    line = ("%-28s %3d games  %5.1f%%  Elo %+5.0f [%+.0f, %+.0f]  illegal %d, time %d, crash %d"
            % ((b, n, 100 * s, e, lo, hi) + failure_counts(results, a)))
    theirs = failure_counts(results, b)
    if any(theirs):  # must be 0 too: a failing opponent makes the score meaningless
        line += "; opponent: illegal %d, time %d, crash %d" % theirs
    left = clock_left(results, a)
    if left:
        line += "; clock left at the end: median %.1f s, least %.1f s" % left
    low = clock_low_point(results, a)
    if low is not None:
        line += "; its low point in a game: median %.1f s" % low
    phases = time_by_phase(results, a)
    if phases:
        line += "; seconds a move, moves %s" % ", ".join(
            "%s: %s" % ("%d-%d" % (lo, hi) if hi else "%d+" % lo,
                        "-" if t is None else "%.2f" % t)
            for (lo, hi), t in zip(PHASES, phases))
    return line


def describe_match(results, a, b):
    # describe() is a ladder row, named by the opponent; a match names the measured side first.
    return "%s against %s" % (a, describe(results, a, b))


def report(folder, a):
    """(opponent, results) for every results file in `folder`: the ladder's rungs in the
    ladder's order, then the other matches by file name."""
    order = {file_name(rung): i for i, rung in enumerate(LADDER)}
    names = [n for n in os.listdir(folder) if n.endswith(".jsonl")]
    for name in sorted(names, key=lambda n: (order.get(n, len(order)), n)):
        results = load_results(os.path.join(folder, name))
        if results:
            first = results[0]
            yield (first["black"] if first["white"] == a else first["white"]), results


def markdown_row(results, a, b):
    n, s, e, lo, hi, _ = summarize(results, a)
    # At 0% or 100% the point estimate is the clamp; only the interval's inner end says much.
    rating = ("≥ %+.0f" % lo if s == 1 else "≤ %+.0f" % hi if s == 0
              else "%+.0f [%+.0f, %+.0f]" % (e, lo, hi))
    failures = "%d / %d / %d" % failure_counts(results, a)
    theirs = failure_counts(results, b)
    if any(theirs):
        failures += " (opponent: %d / %d / %d)" % theirs
    return "| %s | %s | %d | %.1f %% | %s | %s |" % (
        b, results[0]["tc"], n, 100 * s, rating, failures)


def file_name(spec):
    return spec.replace(":", "_").replace("=", "").replace(",", "_").replace("/", "_") + ".jsonl"


def default_match_file(a, b, tc):
    """Where a match keeps its results when --out is not given: in the lab, named by both
    sides and the control, so rerunning the same match resumes it."""
    name = "%s--%s--%s" % (file_name(a)[:-6], file_name(b)[:-6], tc)
    return os.path.join(lab_path("strength", "matches"), name + ".jsonl")


def print_losses(results, a):
    """Each game `a` lost: how it ended and, for a mate, when `a` first saw it coming."""
    lost = [r for r in results if (r["result"] == "0-1") == (r["white"] == a)
            and r["result"] != "1/2-1/2"]
    mates = 0
    for r in lost:
        seen = first_mate_warning(r, a)
        mated = r["reason"] == "checkmate"
        mates += mated
        if seen:
            warning = "mate against %s first reported %d plies before the end" % (a, seen)
            since = lost_since(r, a)
            if since is not None:
                warning += ", its score at %d cp or below from %d plies before" % (LOST_CP, since)
        elif a not in r.get("scores", {}):
            warning = "no scores recorded (a build before tools/measure/strength.py kept them)"
        else:
            warning = "no mate against %s reported" % a
        print("game %d: %s after %d plies; %s" % (r["game"], r["reason"], r["plies"], warning))
    print("%d of %d games lost, %d of them by mate" % (len(lost), len(results), mates))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("command", choices=["match", "ladder", "report", "losses"])
    ap.add_argument("--a", default="zhbot", help="the engine measured (spec)")
    ap.add_argument("--b", help="its opponent (match)")
    ap.add_argument("--zhbot", default=os.path.join(ROOT, "build", "default", "bot", "zhbot"))
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--tc", default="1+1", help=TC_HELP)
    ap.add_argument("--max-plies", type=int, default=400)
    ap.add_argument("--openings", default=DEFAULT_OPENINGS)
    ap.add_argument("--out", help="results file (match; default: <lab>/strength/matches/"
                    "A--B--TC.jsonl)")
    ap.add_argument("--dir", help="the ladder's results (ladder, report; default: "
                    "<lab>/strength/ladder)")
    ap.add_argument("--confirm-tc", default="3+2", help="the confirmation's --tc (%s)" % TC_HELP)
    ap.add_argument("--markdown", action="store_true", help="report as a Markdown table")
    ap.add_argument("--concurrency", type=int, default=1,
                    help="games played at once; give each a core (its side to move searches)")
    args = ap.parse_args()
    if args.concurrency < 1:
        raise SystemExit("--concurrency %d: want at least 1 game at a time" % args.concurrency)
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    openings = load_openings(args.openings)

    if args.command == "match":
        if not args.b:
            raise SystemExit("match needs --b")
        out = args.out or default_match_file(args.a, args.b, args.tc)
        results = run_match(args.a, args.b, args.games, args.tc, out, args.zhbot, openings,
                            args.max_plies, concurrency=args.concurrency)
        print(describe_match(results, args.a, args.b))
        return
    args.dir = args.dir or lab_path("strength", "ladder")
    if args.command == "losses":
        if not args.out:
            raise SystemExit("losses needs --out (a match's results file)")
        print_losses(load_results(args.out), args.a)
        return
    if args.command == "report":
        if args.markdown:
            print("| opponent | time control | games | score | Elo [95%] "
                  "| illegal / time / crash |")
            print("|---|---|---|---|---|---|")
        for b, results in report(args.dir, args.a):
            print(markdown_row(results, args.a, b) if args.markdown
                  else "%-8s %s" % (results[0]["tc"], describe(results, args.a, b)))
        return
    # ladder: rung by rung; skip a rung after two in a row at >= 90%, stop after two at <= 10%.
    scores, passed, skipped_last = [], None, False
    for rung in LADDER:
        if not skipped_last and len(scores) >= 2 and min(scores[-2:]) >= 0.9:
            print("skipping %s (two rungs in a row at >= 90%%)" % rung)
            skipped_last = True
            continue
        skipped_last = False
        results = run_match(args.a, rung, args.games, args.tc,
                            os.path.join(args.dir, file_name(rung)), args.zhbot, openings,
                            args.max_plies, concurrency=args.concurrency)
        s = summarize(results, args.a)[1]
        scores.append(s)
        print("rung " + describe(results, args.a, rung), flush=True)
        if s >= 0.5:
            passed = rung
        if len(scores) >= 2 and scores[-1] <= 0.1 and scores[-2] <= 0.1:
            print("stopping: two rungs in a row at <= 10%")
            break
    if passed:
        results = run_match(args.a, passed, args.games, args.confirm_tc,
                            os.path.join(args.dir, "confirm-" + file_name(passed)), args.zhbot,
                            openings, args.max_plies, concurrency=args.concurrency)
        print("confirmation at %s: %s" % (args.confirm_tc, describe(results, args.a, passed)))


if __name__ == "__main__":
    main()
