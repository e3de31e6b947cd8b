"""An SPRT played as a match: game pairs of `a` against `b` (opening k for games 2k and 2k + 1,
`a` White in the first), the openings shuffled once with a fixed seed and cycled, until the
log-likelihood ratio crosses a bound or --max-pairs pairs are done. The results file is the
test's state: resuming reads the pairs in the order they finished, checking the bounds after
each, as the first run did; a pair cut in half by an interruption is completed first."""
import random

from tools.zhtools.match import bounded, failure, parse_spec

from .runner import GameSetup, play_games, results_file
from .sprt import logistic_elo, normalized_elo, normalized_elo_interval
from .stats import game_score

# The order of the openings: one shuffle, the same on every run and resume.
OPENING_SEED = 1

# Exit codes of the `sprt` command.
ACCEPTED_H1, ACCEPTED_H0, INCONCLUSIVE = 0, 3, 4

# A pair's five scores for `a` (0 to 2 points), the order of the pentanomial counts.
PAIR_NAMES = "0 / 0.5 / 1 / 1.5 / 2"


def shuffled(openings):
    order = list(openings)
    random.Random(OPENING_SEED).shuffle(order)
    return order


def opening_order(openings, more=()):
    """The pairs' openings: `openings` shuffled, then each further set shuffled on its own
    without the openings already in the order. So a test's first pairs keep their openings when
    a set is added behind them, and a resumed test that ran out of openings goes on."""
    order = shuffled(openings)
    for extra in more:
        seen = set(order)
        order += shuffled([o for o in dict.fromkeys(extra) if o not in seen])
    return order


class Tally:
    """The pentanomial counts of the pairs finished so far, fed game records in the order they
    finished, and the verdict at the first pair that crossed a bound."""

    def __init__(self, a, test, carried=None):
        """`carried`: the counts of pairs played before this results file began (in a lab
        that is gone: tools/lab/sprt_carry.py); they count toward the verdict."""
        self.a, self.test = a, test
        self.counts = list(carried or [0] * 5)
        self.halves = {}  # pair number -> the score of its game finished first
        self.pairs = sum(self.counts)
        self.verdict = test.verdict(self.counts) if self.pairs else None

    def add(self, record):
        """Counts `record`; returns True when it finished a pair. Pairs after a verdict are not
        counted: the test stopped there."""
        pair = record["game"] // 2
        if self.verdict or pair not in self.halves:
            if not self.verdict:
                self.halves[pair] = game_score(record, self.a)
            return False
        self.counts[int(round(2 * (self.halves.pop(pair) + game_score(record, self.a))))] += 1
        self.pairs += 1
        self.verdict = self.test.verdict(self.counts)
        return True

    def line(self):
        """The state as the log shows it."""
        nelo, elo = normalized_elo(self.counts), logistic_elo(self.counts)
        return ("%d pairs, pentanomial [%s] = %s, LLR %.2f [%.2f, %.2f], normalized Elo %s, "
                "Elo %s" % (self.pairs, PAIR_NAMES, self.counts, self.test.llr(self.counts),
                            self.test.lower, self.test.upper, signed(nelo), signed(elo)))


def signed(x):
    return "-" if x is None else "%+.1f" % x


def signed_interval(counts):
    """The normalized Elo of `counts` with its 95 % interval, "+1.9 [-23.7, +27.5]"."""
    interval = normalized_elo_interval(counts)
    if interval is None:
        return "-"
    return "%s [%s, %s]" % (signed(normalized_elo(counts)), signed(interval[0]),
                            signed(interval[1]))


def check_records(records, a, b, test, openings):
    """Refuses a results file that another test wrote: other sides, other bounds or model, or
    other openings (another file, another order)."""
    for r in records:
        g = r["game"]
        if {r["white"], r["black"]} != {a, b} or r["white"] != (a if g % 2 == 0 else b):
            raise SystemExit("game %d was %s - %s, not a game of %s against %s; choose another "
                             "--out" % (g, r["white"], r["black"], a, b))
        if r.get("sprt") != test.fields():
            raise SystemExit("game %d belongs to another test (%s), not %s; choose another --out"
                             % (g, r.get("sprt", "a match"), test))
        if r.get("opening") != openings[(g // 2) % len(openings)]:
            raise SystemExit("game %d started from another opening than game pair %d's of "
                             "--openings; choose another --out" % (g, g // 2))


def game_numbers(records, max_pairs, first=0):
    """The games still to play from game `first` on, in order: those missing below the highest
    recorded (a pair cut in half, a game lost to an interruption while others ran), then the
    following ones, up to max_pairs pairs (None: no end)."""
    played = {r["game"] for r in records}
    g, end = first, None if max_pairs is None else 2 * max_pairs
    while end is None or g < end:
        if g not in played:
            yield g
        g += 1


def deterministic(a, b):
    """Whether both sides are bounded by nodes or depth: one search thread each then plays an
    opening's pair again move for move (seen at 50 nodes a move), so a repeated opening adds
    the same pair again, not new evidence."""
    return all(bounded(parse_spec(side)[1]) for side in (a, b))


def run_sprt(a, b, test, tc, out, zhbot, openings, max_plies, max_pairs=None, concurrency=1,
             log=print, more_openings=(), carried=None):
    """Plays the test to its verdict; returns (exit code, Tally). Two sides bounded by nodes
    play each opening once at most: the test ends without a verdict when they run out (of
    `openings`, then of each set of `more_openings`, in that order). `carried`: the pentanomial
    of pairs played elsewhere on the first openings (Tally); the games here go on after them."""
    openings = opening_order(openings, more_openings)
    if deterministic(a, b) and (max_pairs is None or max_pairs > len(openings)):
        log("both sides are bounded by nodes or depth: at most %d pairs, one an opening (a "
            "larger --openings set, tools/measure/make_openings.py, allows more)"
            % len(openings))
        max_pairs = len(openings)
    with results_file(out, tc) as (results, done):
        check_records(done, a, b, test, openings)
        tally = Tally(a, test, carried)
        first_game = 2 * tally.pairs
        for record in done:
            tally.add(record)
        log("%s: %s against %s, %s; %s" % (test, a, b, tc, tally.line()))
        full = max_pairs is not None and tally.pairs >= max_pairs

        def on_record(record):
            if tally.add(record):
                failed = "; %s" % record["reason"] if failure(record["reason"])[0] else ""
                log("pair %d done (games %d-%d)%s | %s" % (
                    record["game"] // 2 + 1, record["game"] // 2 * 2 + 1,
                    record["game"] // 2 * 2 + 2, failed, tally.line()))
            return tally.verdict is not None

        if not tally.verdict and not full:
            play_games(game_numbers(done, max_pairs, first_game),
                       GameSetup(a, b, tc, zhbot, openings, max_plies, {"sprt": test.fields()}),
                       results, done, on_record, concurrency)
    code = {"H1": ACCEPTED_H1, "H0": ACCEPTED_H0}.get(tally.verdict, INCONCLUSIVE)
    verdict = {ACCEPTED_H1: "H1 accepted (elo1 %g)" % test.elo1,
               ACCEPTED_H0: "H0 accepted (elo0 %g)" % test.elo0,
               INCONCLUSIVE: "no verdict within %s pairs" % max_pairs}[code]
    log("%s: %s after %s" % (test, verdict, tally.line()))
    return code, tally
