"""What a match's results say about one side, as a line of text or a Markdown row: the score
and its interval, failures on both sides, and for a side on the clock how much of it it left
and where its time went."""
import statistics

from tools.zhtools.match import bounded, parse_spec

from .stats import failure_counts, summarize


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
