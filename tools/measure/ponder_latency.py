"""How long starting and stopping a ponder search takes, through `zhbot uci`: the engine plays
itself; after each think (`go movetime`) it ponders on the position after its move (`position
... moves ...` + `go infinite`, the bot's way of pondering) and is stopped PONDER_MS later.

    python3 -m tools.measure.ponder_latency ZHBOT [--moves 10] [--movetime 3000] [--ponder-ms 20]

Prints, per build, the time from sending `position`+`go infinite` until `isready` is answered
(what starting the ponder search costs its caller: the tree reuse happens there) and from
`stop` to `bestmove`. Run two builds at once to compare them under the same load.
"""
import argparse
import os
import statistics
import time

from tools.zhtools.uci import UciEngine, bestmove_of, position_command


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("zhbot")
    ap.add_argument("--moves", type=int, default=10)
    ap.add_argument("--movetime", type=int, default=3000)
    ap.add_argument("--ponder-ms", type=int, default=20)
    ap.add_argument("--threads", default="2")
    args = ap.parse_args()
    zh = UciEngine("zhbot", [args.zhbot, "uci"], env=dict(os.environ, OPENBLAS_NUM_THREADS="1"))
    zh.handshake([("threads", args.threads), ("backend", "material"), ("max_tree_nodes", "0")])
    moves, start_ms, stop_ms = [], [], []
    for _ in range(args.moves):
        zh.send(position_command(None, moves))
        zh.send(f"go movetime {args.movetime}")
        best, _ = bestmove_of(zh.read_until("bestmove")[0])
        if best == "0000":
            break
        moves.append(best)
        t = time.perf_counter()
        zh.send(position_command(None, moves))
        zh.send("go infinite")
        zh.sync()
        start_ms.append((time.perf_counter() - t) * 1000)
        time.sleep(args.ponder_ms / 1000)
        t = time.perf_counter()
        zh.send("stop")
        reply, _ = bestmove_of(zh.read_until("bestmove")[0])
        stop_ms.append((time.perf_counter() - t) * 1000)
        if reply == "0000":
            break
        moves.append(reply)
    zh.quit()
    for name, v in (("ponder start", start_ms), ("stop -> bestmove", stop_ms)):
        print(f"{name}: {len(v)} times, median {statistics.median(v):.1f} ms, "
              f"min {min(v):.1f} ms, max {max(v):.1f} ms")


if __name__ == "__main__":
    main()
