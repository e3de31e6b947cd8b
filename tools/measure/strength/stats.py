"""A match's score from one side's view: the score fraction, its Elo, Wilson's 95 % interval,
and the failures (illegal move, time forfeit, crash) charged to that side."""
import math
from collections import Counter

from tools.zhtools.match import FAILURES, failure


def game_score(record, side):
    """1, 0.5 or 0: what `side` scored in the game `record`."""
    if record["result"] == "1/2-1/2":
        return 0.5
    return 1.0 if (record["result"] == "1-0") == (record["white"] == side) else 0.0


def summarize(results, a):
    """Score of `a` over `results`: (games, score, elo, elo_low, elo_high, failures)."""
    xs = []
    fails = Counter()
    for r in results:
        xs.append(game_score(r, a))
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
