"""The strength ladder: zhbot against Fairy-Stockfish rung by rung, from 1 node a move to full
strength, each rung a match in the ladder's folder; then a confirmation at a longer control at
the highest rung passed. The report lists the folder's matches in the ladder's order."""
import os

from .report import describe
from .runner import file_name, load_results, run_match
from .stats import summarize

LADDER = (["fsf:nodes=%d" % n for n in (1, 10, 100, 1000, 10000, 100000)]
          + ["fsf:skill=%d" % s for s in (0, 3, 6, 10, 15, 20)] + ["fsf"])


def run_ladder(a, folder, games, tc, confirm_tc, zhbot, openings, max_plies, concurrency):
    """Rung by rung; skips a rung after two in a row at >= 90%, stops after two at <= 10%."""
    scores, passed, skipped_last = [], None, False
    for rung in LADDER:
        if not skipped_last and len(scores) >= 2 and min(scores[-2:]) >= 0.9:
            print("skipping %s (two rungs in a row at >= 90%%)" % rung)
            skipped_last = True
            continue
        skipped_last = False
        results = run_match(a, rung, games, tc, os.path.join(folder, file_name(rung)), zhbot,
                            openings, max_plies, concurrency=concurrency)
        s = summarize(results, a)[1]
        scores.append(s)
        print("rung " + describe(results, a, rung), flush=True)
        if s >= 0.5:
            passed = rung
        if len(scores) >= 2 and scores[-1] <= 0.1 and scores[-2] <= 0.1:
            print("stopping: two rungs in a row at <= 10%")
            break
    if passed:
        results = run_match(a, passed, games, confirm_tc,
                            os.path.join(folder, "confirm-" + file_name(passed)), zhbot,
                            openings, max_plies, concurrency=concurrency)
        print("confirmation at %s: %s" % (confirm_tc, describe(results, a, passed)))


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
