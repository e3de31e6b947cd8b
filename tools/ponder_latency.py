#!/usr/bin/env python3
"""How long starting and stopping a ponder search takes, through `zhbot uci`: the engine plays
itself; after each think (`go movetime`) it ponders on the position after its move (`position
... moves ...` + `go infinite`, the bot's way of pondering) and is stopped PONDER_MS later.

    tools/ponder_latency.py ZHBOT [--moves 10] [--movetime 3000] [--ponder-ms 20]

Prints, per build, the time from sending `position`+`go infinite` until `isready` is answered
(what starting the ponder search costs its caller: the tree reuse happens there) and from
`stop` to `bestmove`. Run two builds at once to compare them under the same load.
"""
import argparse
import statistics
import subprocess
import time


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("zhbot")
    ap.add_argument("--moves", type=int, default=10)
    ap.add_argument("--movetime", type=int, default=3000)
    ap.add_argument("--ponder-ms", type=int, default=20)
    ap.add_argument("--threads", default="2")
    args = ap.parse_args()
    p = subprocess.Popen([args.zhbot, "uci"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         text=True, bufsize=1, env={"OPENBLAS_NUM_THREADS": "1"})

    def send(line):
        p.stdin.write(line + "\n")
        p.stdin.flush()

    def until(prefix):
        while True:
            line = p.stdout.readline()
            if not line:
                raise SystemExit("ponder_latency: the engine exited")
            if line.startswith(prefix):
                return line.split()

    send("uci")
    until("uciok")
    for name, value in (("threads", args.threads), ("backend", "material"),
                        ("max_tree_nodes", "0")):
        send(f"setoption name {name} value {value}")
    send("isready")
    until("readyok")
    moves, start_ms, stop_ms = [], [], []
    for _ in range(args.moves):
        send("position startpos moves " + " ".join(moves))
        send(f"go movetime {args.movetime}")
        best = until("bestmove")
        if best[1] == "0000":
            break
        moves.append(best[1])
        t = time.perf_counter()
        send("position startpos moves " + " ".join(moves))
        send("go infinite")
        send("isready")
        until("readyok")
        start_ms.append((time.perf_counter() - t) * 1000)
        time.sleep(args.ponder_ms / 1000)
        t = time.perf_counter()
        send("stop")
        reply = until("bestmove")
        stop_ms.append((time.perf_counter() - t) * 1000)
        if reply[1] == "0000":
            break
        moves.append(reply[1])
    send("quit")
    p.wait()
    for name, v in (("ponder start", start_ms), ("stop -> bestmove", stop_ms)):
        print(f"{name}: {len(v)} times, median {statistics.median(v):.1f} ms, "
              f"min {min(v):.1f} ms, max {max(v):.1f} ms")


if __name__ == "__main__":
    main()
