"""Perft speed of zhbot against Fairy-Stockfish, single thread, in the same run.

Both engines count the same positions at the same depths (the suite printed by
`zhbot perft --bench --list`), alternating position by position, for several rounds.
Each engine's time is measured from the request to the final count (process start-up
excluded on both sides). Prints nodes/s per round and the median ratio zhbot / Fairy-Stockfish.
"""
import argparse
import statistics
import subprocess
import sys
import time

from tools.zhtools.fairy import FAIRY, FairyStockfish
from tools.zhtools.uci import position_command


def read_suite(zhbot):
    out = subprocess.run([zhbot, "perft", "--bench", "--list"], check=True,
                         capture_output=True, text=True).stdout
    suite = []
    for line in out.splitlines():
        fen, depth, count = (part.strip() for part in line.split(";"))
        suite.append((fen, int(depth), int(count)))
    return suite


def zhbot_perft(zhbot, fen, depth):
    out = subprocess.run([zhbot, "perft", "--fen", fen, "--depth", str(depth)], check=True,
                         capture_output=True, text=True).stdout
    fields = dict(line.split(": ", 1) for line in out.splitlines() if ": " in line)
    return int(fields["Nodes searched"]), float(fields["Seconds"])


def fairy_perft(fairy, fen, depth):
    """Fairy-Stockfish's count and seconds, from the request to the count (the position is
    set up before the clock starts)."""
    fairy.send(position_command(fen))
    fairy.sync()
    start = time.perf_counter()
    fairy.send("go perft %d" % depth)
    line, _ = fairy.read_until("Nodes searched")
    return int(line.split(":")[1]), time.perf_counter() - start


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--zhbot", default="build/default/bot/zhbot")
    parser.add_argument("--fairy", default=FAIRY)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()

    suite = read_suite(args.zhbot)
    fairy = FairyStockfish([("Threads", "1")], path=args.fairy)
    ratios = []
    for r in range(1, args.rounds + 1):
        totals = {"zhbot": [0, 0.0], "fairy": [0, 0.0]}
        for i, (fen, depth, expected) in enumerate(suite):
            # Alternate who goes first so neither engine always meets a warm or cold cache.
            order = ["zhbot", "fairy"] if (i + r) % 2 == 0 else ["fairy", "zhbot"]
            for engine in order:
                if engine == "zhbot":
                    nodes, secs = zhbot_perft(args.zhbot, fen, depth)
                else:
                    nodes, secs = fairy_perft(fairy, fen, depth)
                if nodes != expected:
                    sys.exit("%s counted %d, expected %d: %s depth %d"
                             % (engine, nodes, expected, fen, depth))
                totals[engine][0] += nodes
                totals[engine][1] += secs
        zh_nps = totals["zhbot"][0] / totals["zhbot"][1]
        fsf_nps = totals["fairy"][0] / totals["fairy"][1]
        ratios.append(zh_nps / fsf_nps)
        print("round %d: zhbot %.1f M nodes/s, fairy-stockfish %.1f M nodes/s, ratio %.2f"
              % (r, zh_nps / 1e6, fsf_nps / 1e6, ratios[-1]), flush=True)
    fairy.quit()
    print("median ratio zhbot / fairy-stockfish: %.2f (%d rounds, %d positions, %d nodes each)"
          % (statistics.median(ratios), len(ratios), len(suite), sum(c for _, _, c in suite)))


if __name__ == "__main__":
    main()
