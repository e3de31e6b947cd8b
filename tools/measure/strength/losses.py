"""The games a side lost: how each ended and how long before the end the side's own search
saw it (the first mate reported against it; the score from which it stayed lost); and the
games in which it reported a mate for itself and later no longer did. With a judge
(Fairy-Stockfish at a fixed depth, run over the saved moves after the match, never during it):
the ply from which the judge saw the side lost, and the judgement lag, how many plies later the
side's own score did."""
import statistics

from tools.zhtools.fairy import FairyStockfish
from tools.zhtools.uci import position_command

from .stats import game_score

# A score at or below this (centipawns, the side's own view) counts as a lost position.
LOST_CP = -300


def is_lost(score):
    """Whether a score ("cp -350", "mate -3"; the side to move's view) is lost."""
    kind, value = score.split()
    return value.startswith("-") if kind == "mate" else int(value) <= LOST_CP


def stayed_lost_from(scores):
    """The ply from which [ply, score] `scores` went lost and stayed so, a move without a
    search (one legal move, "cp 0") aside; None when the last one is not lost."""
    since = None
    for ply, score in scores:
        if score == "cp 0" and since is not None:
            continue
        since = (since if since is not None else ply) if is_lost(score) else None
    return since


def lost_since(record, side):
    """How many plies before the end `side`'s own scores went to LOST_CP or below (or a mate
    against it) and stayed there; None when its last scored move was not lost."""
    since = stayed_lost_from(record.get("scores", {}).get(side, []))
    return None if since is None else record["plies"] - since


def first_mate_warning(record, side):
    """For a game `side` lost by mate: how many plies before the end its own search first
    reported the mate against it (None: never)."""
    for ply, score in record.get("scores", {}).get(side, []):
        if score.startswith("mate -"):
            return record["plies"] - ply
    return None


def is_own_mate(score):
    """Whether a score ("mate 3"; the side to move's view) is a mate for the side to move."""
    return score.startswith("mate ") and not score.startswith("mate -")


def mate_let_go(record, side):
    """(the ply of `side`'s first reported mate for itself, the first later ply of its own at
    which it reported none), the second None while it kept it; None when it reported none."""
    scores = record.get("scores", {}).get(side, [])
    found = next((ply for ply, score in scores if is_own_mate(score)), None)
    if found is None:
        return None
    return found, next((ply for ply, score in scores if ply > found and not is_own_mate(score)),
                       None)


def print_mates_let_go(results, a):
    """The games in which `a` reported a mate for itself and no longer did at a later move: a
    mate found and then lost sight of (the root prover's proofs were once not kept between
    moves), and whether `a` still won."""
    found = [(r, m) for r in results for m in [mate_let_go(r, a)] if m]
    if not found:
        return
    let_go = [(r, m) for r, m in found if m[1] is not None]
    for r, (first, dropped) in let_go:
        print("game %d: %s reported a mate for itself at ply %d and none at ply %d; %s" % (
            r["game"], a, first, dropped, "it won" if game_score(r, a) == 1 else r["result"]))
    print("%d of %d games with a mate reported by %s for itself let it go at a later move, %d "
          "of them not won" % (len(let_go), len(found), a,
                               sum(game_score(r, a) != 1 for r, _ in let_go)))


def side_plies(record, side):
    """The plies at which `side` was to move in `record` (the opening may have Black first)."""
    fields = (record.get("opening") or "").split()
    first_mover = fields[1] if len(fields) > 1 else "w"
    own = "w" if record["white"] == side else "b"
    return range(0 if own == first_mover else 1, record["plies"], 2)


class Judge:
    """Fairy-Stockfish at a fixed depth scoring a side's positions of a saved game."""

    def __init__(self, depth, engine=None):
        self.depth = depth
        self.engine = engine or FairyStockfish([("Threads", "1"), ("Hash", "16")], name="judge")

    def scores(self, record, side):
        """[ply, score] for each position of `record` with `side` to move, its view."""
        moves = record["moves"].split()
        scored = []
        for ply in side_plies(record, side):
            _, lines = self.engine.search(position_command(record.get("opening"), moves[:ply]),
                                          "depth %d" % self.depth)
            if lines:
                scored.append([ply, "%s %d" % (lines[0].kind, lines[0].value)])
        return scored

    def quit(self):
        self.engine.quit()


def judgement(record, side, judge):
    """(ply from which the judge saw `side` lost, ply from which its own score said so, lag in
    plies); a ply is None where that one never stayed lost, and then the lag too."""
    judged = stayed_lost_from(judge.scores(record, side))
    since = lost_since(record, side)
    own = None if since is None else record["plies"] - since
    return judged, own, None if judged is None or own is None else own - judged


def print_losses(results, a, judge_depth=None, judge=None):
    """Each game `a` lost: how it ended and, for a mate, when `a` first saw it coming; with a
    judge depth, the judgement lag of each loss and its median."""
    lost = [r for r in results if game_score(r, a) == 0]
    if judge_depth is not None and judge is None:
        judge = Judge(judge_depth)
    mates, lags, unseen = 0, [], 0
    try:
        for r in lost:
            seen = first_mate_warning(r, a)
            mates += r["reason"] == "checkmate"
            if seen:
                warning = "mate against %s first reported %d plies before the end" % (a, seen)
                since = lost_since(r, a)
                if since is not None:
                    warning += (", its score at %d cp or below from %d plies before"
                                % (LOST_CP, since))
            elif a not in r.get("scores", {}):
                warning = "no scores recorded (a build before the match runner kept them)"
            else:
                warning = "no mate against %s reported" % a
            if judge:
                judged, own, lag = judgement(r, a, judge)
                warning += "; the judge saw it lost from ply %s, %s from ply %s" % (
                    "-" if judged is None else judged, a, "-" if own is None else own)
                if lag is not None:
                    warning += ": lag %d plies" % lag
                    lags.append(lag)
                else:
                    unseen += 1
            print("game %d: %s after %d plies; %s" % (r["game"], r["reason"], r["plies"],
                                                      warning))
    finally:
        if judge:
            judge.quit()
    print("%d of %d games lost, %d of them by mate" % (len(lost), len(results), mates))
    print_mates_let_go(results, a)
    if judge:
        print("judgement lag (judge: Fairy-Stockfish depth %d): %s over %d losses%s" % (
            judge.depth, "median %g plies" % statistics.median(lags) if lags else "no figure",
            len(lags), "; %d where the judge or %s never saw it lost for good" % (unseen, a)
            if unseen else ""))
