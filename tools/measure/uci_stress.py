"""Does `zhbot uci` answer every `go` with exactly one `bestmove`? Asks for moves as a GUI does,
one at a time, each answered at once (`go ... nodes 1`: the race that once wrote a bestmove
twice had its widest window there), then counts the bestmove lines that arrive beyond one a
`go`. A GUI reads such an extra line as the answer to its next `go`: an illegal
move, the previous one again.

    python3 -m tools.measure.uci_stress ZHBOT [ZHBOT ...] [--gos 3000] [--runs 5]

Prints the extra lines per build and run; exits 1 when a build wrote one. Give the build before
a change and the one with it to compare them under the same load.
"""
import argparse
import sys

from tools.zhtools.uci import UciEngine

POSITION = "position startpos moves e2e4"


def extra_bestmoves(zhbot, gos):
    """The bestmove lines beyond one per `go`, over `gos` moves asked one at a time."""
    engine = UciEngine(zhbot, [zhbot, "uci", "-o", "backend=material", "-o", "threads=1"])
    try:
        engine.handshake()
        for _ in range(gos):
            engine.send(POSITION)
            engine.send("go wtime 10000 btime 10000 nodes 1")
            engine.read_until("bestmove")
        engine.send("isready")
        _, rest = engine.read_until("readyok")
        return sum(line.startswith("bestmove") for line in rest)
    finally:
        engine.quit()


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("zhbot", nargs="+")
    ap.add_argument("--gos", type=int, default=3000)
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    failed = False
    for zhbot in args.zhbot:
        extras = [extra_bestmoves(zhbot, args.gos) for _ in range(args.runs)]
        print("%s: %d extra bestmove line(s) in %d gos (per run: %s)"
              % (zhbot, sum(extras), args.gos * args.runs, " ".join(map(str, extras))))
        failed |= sum(extras) > 0
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
