"""The sequential probability ratio test that fishtest runs for Stockfish, on colour-balanced
game pairs (pentanomial): each opening is played twice with colours swapped, and a pair scores
0, 1/2, 1, 3/2 or 2 for the side measured. The counts of the five pair scores are the data.

H0: the difference is elo0; H1: it is elo1. After each pair the generalized log-likelihood ratio
(GSPRT: each hypothesis's likelihood at its maximum over the distributions that fit it) is
compared with Wald's bounds ln(beta / (1 - alpha)) and ln((1 - beta) / alpha); crossing the lower
accepts H0, the upper H1.

Two Elo models, both with the closed-form approximations of the GSPRT that M. Van den Bergh
derived for fishtest (his notes "Normalized Elo, practical", section 4.2, and "GSPRT
approximation"), which fishtest's own statistics module carries beside the exact
maximum-likelihood form its server computes:
- normalized (the default, as on fishtest): Elo per unit of t-value, t = (score - 1/2) / sigma,
  sigma a game's standard deviation (from the pairs: sqrt(2) times a pair's). It measures how
  many games a difference takes to see, whatever the draw ratio;
  LLR = games / 2 * ln((1 + (t - t0)^2) / (1 + (t - t1)^2)).
- logistic: the usual Elo of the expected score s;
  LLR = pairs * (s1 - s0) * (2 s - s0 - s1) / (2 var), s and var a pair's mean score and its
  variance.
"""
import math

# Normalized Elo per unit of t-value: 800 / ln 10, the slope of the logistic Elo curve at 50 %
# over a game's standard deviation with no draws (1/2), so that both scales agree there.
NELO_PER_T = 800 / math.log(10)

# What a pair's count stands for when it is zero: a count of zero can make the variance zero
# (every pair drawn) and the ratio undefined; fishtest mixes in the same small prior.
PRIOR = 1e-3

MODELS = ("normalized", "logistic")


def llr_bounds(alpha, beta):
    """(lower, upper): Wald's bounds for error rates alpha (accepting H1 when H0 holds) and
    beta (accepting H0 when H1 holds)."""
    return math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)


def pair_moments(counts):
    """(pairs, mean, variance) of a pair's average score (0, 1/4, 1/2, 3/4, 1) over the five
    counts [0, 1/2, 1, 3/2, 2 points], a zero count taken as PRIOR."""
    c = [x if x else PRIOR for x in counts]
    n = sum(c)
    mean = sum(x * i / 4 for i, x in enumerate(c)) / n
    var = sum(x * (i / 4 - mean) ** 2 for i, x in enumerate(c)) / n
    return n, mean, var


def logistic_score(elo):
    """The expected score of a difference of `elo` logistic Elo."""
    return 1 / (1 + 10 ** (-elo / 400))


def logistic_elo(counts):
    """The logistic Elo of the pairs' mean score (None without pairs)."""
    if not any(counts):
        return None
    s = min(max(pair_moments(counts)[1], 1e-3), 1 - 1e-3)
    return -400 * math.log10(1 / s - 1)


def t_value(counts):
    """(mean score - 1/2) / a game's standard deviation, from the pairs."""
    _, mean, var = pair_moments(counts)
    return (mean - 0.5) / math.sqrt(2 * var)


def normalized_elo(counts):
    """The normalized Elo of the pairs (None without pairs)."""
    return t_value(counts) * NELO_PER_T if any(counts) else None


def normalized_elo_interval(counts, z=1.96):
    """(low, high): the 95 % interval of the normalized Elo (None without pairs). The estimate
    of t from n pairs has variance 1 / (2 n) near t = 0 (expected_pairs below), whatever the
    draw ratio: the interval's width depends on the number of pairs alone."""
    if not any(counts):
        return None
    half = z * NELO_PER_T / math.sqrt(2 * sum(counts))
    centre = normalized_elo(counts)
    return centre - half, centre + half


def llr_normalized(counts, nelo0, nelo1):
    """The approximate GSPRT log-likelihood ratio of H1 (nelo1) against H0 (nelo0)."""
    if not any(counts):
        return 0.0
    pairs = pair_moments(counts)[0]
    t = t_value(counts)
    t0, t1 = nelo0 / NELO_PER_T, nelo1 / NELO_PER_T
    return pairs * math.log((1 + (t - t0) ** 2) / (1 + (t - t1) ** 2))  # pairs = games / 2


def llr_logistic(counts, elo0, elo1):
    """The approximate GSPRT log-likelihood ratio of H1 (elo1) against H0 (elo0)."""
    if not any(counts):
        return 0.0
    pairs, mean, var = pair_moments(counts)
    s0, s1 = logistic_score(elo0), logistic_score(elo1)
    return pairs * (s1 - s0) * (2 * mean - s0 - s1) / (2 * var)


class Sprt:
    """A test's parameters and its verdict on pentanomial counts."""

    def __init__(self, elo0, elo1, alpha=0.05, beta=0.05, model="normalized"):
        if model not in MODELS:
            raise SystemExit("--elo-model %s: want one of %s" % (model, ", ".join(MODELS)))
        if not elo0 < elo1:
            raise SystemExit("--elo0 %g --elo1 %g: want elo0 < elo1" % (elo0, elo1))
        if not (0 < alpha < 0.5 and 0 < beta < 0.5):
            raise SystemExit("--alpha %g --beta %g: want each between 0 and 0.5" % (alpha, beta))
        self.elo0, self.elo1, self.alpha, self.beta, self.model = elo0, elo1, alpha, beta, model
        self.lower, self.upper = llr_bounds(alpha, beta)

    def llr(self, counts):
        ratio = llr_normalized if self.model == "normalized" else llr_logistic
        return ratio(counts, self.elo0, self.elo1)

    def verdict(self, counts):
        """"H1" when the ratio is at or above the upper bound, "H0" at or below the lower, else
        None (play on)."""
        llr = self.llr(counts)
        return "H1" if llr >= self.upper else "H0" if llr <= self.lower else None

    def fields(self):
        """What a game record of this test carries, so that a resume with other bounds is
        refused rather than pooled."""
        return {"elo0": self.elo0, "elo1": self.elo1, "alpha": self.alpha, "beta": self.beta,
                "model": self.model}

    def __str__(self):
        return "SPRT(%g, %g) %s Elo, alpha %g, beta %g" % (self.elo0, self.elo1, self.model,
                                                           self.alpha, self.beta)


def expected_pairs(nelo, nelo0, nelo1, alpha=0.05, beta=0.05):
    """(probability of accepting H1, expected pairs to a verdict) when the true difference is
    `nelo` normalized Elo: the LLR above as a Brownian motion between Wald's bounds (no
    overshoot). For small t it grows by 2 dt (t - (t0 + t1) / 2) a pair on average, dt = t1 - t0,
    with variance 2 dt^2 a pair (t's estimate from n pairs has variance 1 / (2 n)); the draw ratio
    does not enter, which is what normalized Elo is for."""
    lower, upper = llr_bounds(alpha, beta)
    t, t0, t1 = (x / NELO_PER_T for x in (nelo, nelo0, nelo1))
    drift, var = 2 * (t1 - t0) * (t - (t0 + t1) / 2), 2 * (t1 - t0) ** 2
    if abs(drift) < 1e-12:
        return -lower / (upper - lower), -lower * upper / var
    theta = -2 * drift / var  # exp(theta * LLR) is a martingale
    p1 = (1 - math.exp(theta * lower)) / (math.exp(theta * upper) - math.exp(theta * lower))
    return p1, (p1 * upper + (1 - p1) * lower) / drift
