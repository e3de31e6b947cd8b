"""The deeper tactical suites (issue 49): longer mates and deeper defences, made from teacher
positions with Fairy-Stockfish as the judge; `python3 -m tools.measure.suites solve` solves them.

  python3 -m tools.measure.deep_suites mates --shards DIR --out tools/measure/suites/mate-long.epd
  python3 -m tools.measure.deep_suites defences --shards DIR \
      --out tools/measure/suites/defence-deep.epd
      (DIR: `zhbot datagen` shards from seeds no training run uses; --teacher FILE.jsonl.gz
      reads the starter set instead)

mate-long.epd: the side to move mates in 4..8 (drops included): Fairy-Stockfish reports the
same mate distance at every depth of --depths (16,20; each a fresh search). Solved when the
move played keeps a forced mate, whatever its length: after it, Fairy-Stockfish proves the
opponent mated at depth 10, else at depth 20 within 4 M nodes (suites.KEPT_MATE_SEARCHES;
`accept mate-kept` on each line). So every first move that keeps the mate counts, the
shortest or not; one that lets the mate go, or keeps one too long to be proven so, does not.
defence-deep.epd: exactly one move escapes a mate in 3..6: Fairy-Stockfish, MultiPV 2, at every
depth of --depths (14,16; each a fresh search) gives the same best move,
scored in centipawns (neither mated nor mating), and the second best mated in at most 6 moves
(so is every other move: none scores better), in 3..6 at the deepest. Solved when zhbot plays
that move.
Both take at most one position a game, and at most --per positions a distance.
"""
import argparse
import os
import random
import time

from tools.measure.suites import search, teacher_rows
from tools.zhtools.fairy import FairyStockfish

MATES = range(4, 9)  # mate-long: moves to mate for the side to move
DEFENCES = range(3, 7)  # defence-deep: the mate that every other move allows


def confirmed_mate(fsf, fen, depths):
    """(moves to mate, first move) when every depth (a fresh search each) reports the same mate
    for the side to move, else None."""
    found = None
    for depth in depths:
        fsf.send("ucinewgame")
        best, lines = search(fsf, fen, "depth %d" % depth)
        if not lines or lines[0].kind != "mate" or lines[0].value <= 0:
            return None
        if found is not None and found[0] != lines[0].value:
            return None
        found = (lines[0].value, best)
    return found


def only_escape(fsf, fen, depths, longest=DEFENCES[-1]):
    """(the move, moves to the mate every other move allows at the deepest depth) when at every
    depth (a fresh search each, MultiPV 2) the same best move escapes (`escapes`) and the
    second best is mated in at most `longest` moves; else None."""
    found = None
    for depth in depths:
        fsf.send("ucinewgame")
        lines = search(fsf, fen, "depth %d" % depth, multipv=2)[1]
        if not escapes(lines, longest) or found not in (None, lines[0].move):
            return None
        found = lines[0].move
    return found, -lines[1].value


def escapes(lines, longest):
    """Whether MultiPV lines show one move that escapes: the best is not mated (nor mates: that
    is a mate to find, not a defence), the second (and so every other move) is mated in at
    most `longest` moves."""
    return (len(lines) == 2 and lines[0].move != lines[1].move
            and lines[0].kind == "cp"
            and lines[1].kind == "mate" and -longest <= lines[1].value < 0)


def mate_candidates(rows):
    """(guessed distance, row) of the positions likely to hold a mate in 4..8 for the side to
    move: where the teacher saw one (its distance at a shallow budget is often a move or two
    off), and, in each game that ended in mate, the winner's positions 4..8 of its moves before
    the end (a shallow teacher sees few long mates, and the game's moves are not always the
    fastest)."""
    out = [(min(max(r["mate"], MATES[0]), MATES[-1]), r) for r in rows
           if r["mate"] is not None and MATES[0] - 1 <= r["mate"] <= MATES[-1] + 4]
    by_game = {}
    for r in rows:
        by_game.setdefault(r["game"], {})[r["ply"]] = r
    for plies in by_game.values():
        last = plies[max(plies)]
        if last["mate"] != 1:  # the game did not end in mate
            continue
        for n in MATES:
            r = plies.get(last["ply"] - 2 * (n - 1))
            if r is not None and (r["mate"] is None or r["mate"] > 0):
                out.append((n, r))
    return out


def defence_candidates(rows):
    """(guessed distance, row) of the positions whose teacher scored its best move in
    centipawns and its second best mated; rows without a second line (the starter set) are
    left to a quick look (guess None)."""
    out = []
    for r in rows:
        if r["mate"] is not None:
            continue
        if r["second"] is None:
            out.append((None, r))
        elif r["second"][1] < 0 and -r["second"][1] <= DEFENCES[-1] + 2:
            out.append((min(max(-r["second"][1], DEFENCES[0]), DEFENCES[-1]), r))
    return out


def make(args, kind):
    rng = random.Random(args.seed)
    rows = teacher_rows(args)
    source = os.path.basename(os.path.normpath(args.teacher or args.shards))
    distances = MATES if kind == "mates" else DEFENCES
    candidates = (mate_candidates if kind == "mates" else defence_candidates)(rows)
    rng.shuffle(candidates)
    games = len({r["game"] for r in rows})
    print("%d positions of %d games, %d candidates" % (len(rows), games, len(candidates)))
    fsf = FairyStockfish([("Threads", "1"), ("Hash", "64")])
    counts = {n: 0 for n in distances}
    used_games = set()
    start = time.time()
    with open(args.out, "w") as out:
        out.write(header(kind, args, "%s, %d games" % (source, games)))
        for guess, r in candidates:
            if r["game"] in used_games or (guess is not None and counts[guess] >= args.per):
                continue
            if kind == "mates":
                found = confirmed_mate(fsf, r["fen"], args.depths)
                n = found and found[0]
                line = found and "%s ; mate %d ; best %s ; accept mate-kept\n" % (
                    r["fen"], n, found[1])
            else:
                # Without the teacher's second line, a quick look first: the solid depths
                # take a minute a position.
                if guess is None and not escapes(
                        search(fsf, r["fen"], "depth 8", multipv=2)[1], DEFENCES[-1] + 2):
                    continue
                found = only_escape(fsf, r["fen"], args.depths)
                n = found and found[1]
                line = found and "%s ; best %s ; avoids mate %d\n" % (r["fen"], found[0], n)
            if not found or n not in counts or counts[n] >= args.per:
                continue
            out.write(line)
            out.flush()
            counts[n] += 1
            used_games.add(r["game"])
            print("%6.0f s: %s" % (time.time() - start, counts), flush=True)
            if all(c >= args.per for c in counts.values()):
                break
    fsf.quit()
    print("%s: %d positions %s in %.0f s"
          % (args.out, sum(counts.values()), counts, time.time() - start))


def header(kind, args, origin):
    depths = ",".join(map(str, args.depths))
    if kind == "mates":
        return ("# longer mates: the side to move mates in %d..%d (drops included), the same "
                "distance at Fairy-Stockfish depths %s; solved when the move played keeps a "
                "forced mate of any length (accept mate-kept: after it Fairy-Stockfish proves the "
                "opponent mated at depth 10, else at depth 20 within 4 M nodes), so every first "
                "move that keeps the mate counts; one position a game, from %s; seed %d\n"
                "# FEN ; mate N ; best MOVE (one that mates in N) ; accept mate-kept\n"
                % (MATES[0], MATES[-1], depths, origin, args.seed))
    return ("# deeper defences: exactly one move escapes a mate in %d..%d: Fairy-Stockfish "
            "MultiPV 2 at depths %s gives the same best move, scored in cp (neither mated nor "
            "mating), and the second best "
            "(so every other move) mated in <= %d, in %d..%d at the deepest; solved when zhbot "
            "plays that move; one position a game, from %s; seed %d\n"
            "# FEN ; best MOVE ; avoids mate K (what every other move allows)\n"
            % (DEFENCES[0], DEFENCES[-1], depths, DEFENCES[-1], DEFENCES[0], DEFENCES[-1],
               origin, args.seed))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("kind", choices=["mates", "defences"])
    ap.add_argument("--teacher", help="teacher positions, JSON Lines (.jsonl.gz)")
    ap.add_argument("--shards", help="`zhbot datagen` shards instead of --teacher")
    ap.add_argument("--out", required=True, help="the suite file to write")
    ap.add_argument("--seed", type=int, default=1, help="the order candidates are tried in")
    ap.add_argument("--per", type=int, default=16, help="positions per distance at most")
    ap.add_argument("--depths", help="the depths of the confirming searches "
                    "(default: 16,20 for mates, 14,16 for defences)")
    args = ap.parse_args()
    if bool(args.teacher) == bool(args.shards):
        ap.error("give exactly one of --teacher and --shards")
    try:
        args.depths = [int(d) for d in (args.depths or (
            "16,20" if args.kind == "mates" else "14,16")).split(",")]
    except ValueError:
        ap.error("--depths: depths separated by commas, e.g. 16,20")
    make(args, args.kind)


if __name__ == "__main__":
    main()
