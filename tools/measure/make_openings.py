"""Builds the strength ladder's opening set: balanced, varied crazyhouse positions.

Each candidate is the start position after 2 to 6 uniformly random legal plies (so the set
covers odd openings as well as normal ones), kept when Fairy-Stockfish at depth 12 scores it
within +-MARGIN centipawns for the side to move and it is not already in the set (board, pockets,
side and castling compared). Deterministic for a given seed.

    python3 -m tools.measure.make_openings --count 60 --seed 1 \
        --out tools/measure/openings/zh-balanced.epd
"""
import argparse
import random

from tools.zhtools.fairy import FairyStockfish
from tools.zhtools.uci import position_command


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--count", type=int, default=60)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--margin", type=int, default=120, help="|score| limit in centipawns")
    ap.add_argument("--depth", type=int, default=12)
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    fsf = FairyStockfish([("Threads", "1"), ("Hash", "32")])
    found, seen, tried = [], set(), 0
    while len(found) < args.count:
        tried += 1
        moves = []
        for _ in range(rng.randint(2, 6)):
            legal = sorted(fsf.legal_moves(position_command(None, moves)))
            if not legal:
                break
            moves.append(rng.choice(legal))
        position = position_command(None, moves)
        fen, _ = fsf.describe(position)
        key = " ".join(fen.split()[:3])
        if key in seen:
            continue
        _, lines = fsf.search(position, "depth %d" % args.depth)
        if not lines or lines[0].kind != "cp" or abs(lines[0].value) > args.margin:
            continue
        seen.add(key)
        found.append((fen, lines[0].value, moves))
    fsf.quit()
    with open(args.out, "w") as f:
        f.write("# zhbot strength-ladder openings: %d positions, 2-6 random plies from the start,\n"
                "# |Fairy-Stockfish depth %d score| <= %d cp, seed %d, %d candidates tried.\n"
                "# FEN ; score cp (side to move) ; plies\n"
                % (len(found), args.depth, args.margin, args.seed, tried))
        for fen, cp, moves in found:
            f.write("%s ; %d ; %s\n" % (fen, cp, " ".join(moves)))
    print("wrote %d openings to %s (%d candidates)" % (len(found), args.out, tried))


if __name__ == "__main__":
    main()
