"""Two builds of Fairy-Stockfish labelling the same positions as `zhbot datagen` does (Threads 1,
Hash 16, MultiPV 4, `go nodes N`, `ucinewgame` between games): each build's CPU seconds a
position, counted from its own process (/proc/PID/stat: user + system), so that other work on
the machine moves the figure less than a wall clock would; the ratio; and how often the two chose
the same move and the same first line. Rounds alternate the builds. With --reference-nodes, the
quality of each build's labels too: how often its move is the move of a deeper search (Debian's
binary at that many nodes, MultiPV 1) of the same position.

  python3 -m tools.measure.teacher_speed --a LAB/bin/fairy-stockfish [--b DEBIAN] \\
      --records FILE.jsonl [--games 8] [--nodes 3000] [--rounds 2] [--reference-nodes 100000]

The positions are every position of the first --games games of a match record (the JSONL that
tools.measure.strength writes), from each game's opening.
"""
import argparse
import math
import os
import statistics
import sys

from tools.measure.strength import runner
from tools.zhtools.fairy import FAIRY, FairyStockfish
from tools.zhtools.uci import position_command


def cpu_seconds(pid):
    """User + system CPU seconds of process `pid` so far."""
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def load_games(path, count, skip=0):
    """(opening FEN, [moves]) of `count` games of a match record, after its first `skip`."""
    return [(r["opening"], r["moves"].split())
            for r in runner.load_results(path)[skip:skip + count]]


def label(binary, games, nodes, multipv):
    """([(best move, first line)] for every position of `games`, CPU seconds they took)."""
    engine = FairyStockfish([("Threads", "1"), ("Hash", "16"), ("MultiPV", str(multipv))],
                            name=binary, path=binary)
    try:
        before = cpu_seconds(engine.proc.pid)
        answers = []
        for opening, moves in games:
            engine.new_game()
            for ply in range(len(moves) + 1):
                best, lines = engine.search(position_command(opening, moves[:ply]),
                                            "nodes %d" % nodes, multipv)
                answers.append((best, lines[0] if lines else None))
        return answers, cpu_seconds(engine.proc.pid) - before
    finally:
        engine.quit()


def sign_test(k, m):
    """Two-sided p of k successes against m under even odds (exact binomial)."""
    n = k + m
    if n == 0:
        return 1.0
    tail = sum(math.comb(n, i) for i in range(min(k, m) + 1)) / 2.0 ** n
    return min(1.0, 2 * tail)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--a", required=True, help="the build measured")
    p.add_argument("--b", default=FAIRY, help="its anchor (default: Debian's binary)")
    p.add_argument("--records", required=True, help="a match record (JSONL) whose games to label")
    p.add_argument("--games", type=int, default=8)
    p.add_argument("--skip", type=int, default=0, help="games of the record passed over first")
    p.add_argument("--nodes", type=int, default=3000)
    p.add_argument("--multipv", type=int, default=4)
    p.add_argument("--rounds", type=int, default=2)
    p.add_argument("--reference-nodes", type=int, default=0,
                   help="also the agreement of each build's moves with a search this deep")
    a = p.parse_args(argv)
    games = load_games(a.records, a.games, a.skip)
    per_position = {a.a: [], a.b: []}
    answers = {}
    for round_ in range(a.rounds):
        for binary in ((a.b, a.a) if round_ % 2 else (a.a, a.b)):
            got, seconds = label(binary, games, a.nodes, a.multipv)
            answers[binary] = got
            per_position[binary].append(1000 * seconds / len(got))
            print("round %d %s: %d positions, %.2f CPU ms a position"
                  % (round_ + 1, binary, len(got), per_position[binary][-1]), flush=True)
    ms_a, ms_b = (statistics.median(per_position[x]) for x in (a.a, a.b))
    pairs = list(zip(answers[a.a], answers[a.b]))
    print("median CPU ms a position: %.2f (a) against %.2f (b): b / a = %.2fx; the same move "
          "%d / %d, the same first line (score and move) %d / %d"
          % (ms_a, ms_b, ms_b / ms_a, sum(x[0] == y[0] for x, y in pairs), len(pairs),
             sum(x[1] == y[1] for x, y in pairs), len(pairs)))
    if a.reference_nodes:
        reference, _ = label(a.b, games, a.reference_nodes, 1)
        hits = {}
        for binary in (a.a, a.b):
            hits[binary] = [x[0] == r[0] for x, r in zip(answers[binary], reference)]
            print("%s: the move of the %d-node search in %d / %d positions (%.1f %%)"
                  % (binary, a.reference_nodes, sum(hits[binary]), len(reference),
                     100.0 * sum(hits[binary]) / len(reference)))
        # Where only one build found the deeper move: even odds between equally good labels.
        only_a = sum(x and not y for x, y in zip(hits[a.a], hits[a.b]))
        only_b = sum(y and not x for x, y in zip(hits[a.a], hits[a.b]))
        print("only a found it in %d positions, only b in %d (two-sided sign test p = %.2f)"
              % (only_a, only_b, sign_test(only_a, only_b)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
