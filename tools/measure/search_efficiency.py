"""Search efficiency: MCTS nodes/s with the torch backend divided by the raw network
positions/s at the same batch size, both measured in the same run, alternating, for several
rounds (median ratio). Uses a random-weight 6x64 residual net made by
training.make_random_net, so it needs no downloaded model.
"""
import argparse
import os
import re
import statistics
import subprocess
import tempfile

FEN = "r2q1rk1/ppp2pp1/1bnp3p/3B4/3PP1b1/4PN2/PP4PP/R2Q1RK1[BNPnp] b - - 0 13"


def run(cmd):
    return subprocess.run(cmd, check=True, capture_output=True, text=True).stdout


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--zhbot", default="build/default/bot/zhbot")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--batch", type=int, default=16)
    parser.add_argument("--threads", type=int, default=2, help="search threads")
    parser.add_argument("--movetime", type=int, default=6000)
    args = parser.parse_args()
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

    with tempfile.TemporaryDirectory() as tmp:
        net = os.path.join(tmp, "resnet6x64.pt")
        run(["/usr/bin/python3", "-m", "training.make_random_net", net])
        ratios = []
        for r in range(1, args.rounds + 1):
            # fp32 on both sides: the README's figures (the default, auto, is bf16 on some CPUs)
            bench = run([args.zhbot, "nnbench", "-m", net, "-b", str(args.batch), "-t", "1",
                         "--precision", "fp32", "--runs", "1", "--seconds", "3"])
            row = next(line for line in bench.splitlines()
                       if re.match(r"\s+%d\s" % args.batch, line))
            raw = float(row.split()[1])
            out = run([args.zhbot, "analyse", "--fen", FEN, "--movetime", str(args.movetime),
                       "-o", "backend=torch", "-o", "model=" + net,
                       "-o", "threads=%d" % args.threads, "-o", "batch_size=%d" % args.batch,
                       "-o", "max_batch=%d" % args.batch, "-o", "nn_threads=1",
                       "-o", "precision=fp32",
                       "-o", "move_overhead_ms=0"])
            nps = float(re.search(r"\((\d+) nodes/s\)", out).group(1))
            ratios.append(nps / raw)
            print("round %d: raw forward %.0f positions/s, search %.0f nodes/s, ratio %.2f"
                  % (r, raw, nps, ratios[-1]), flush=True)
        print("median search efficiency (batch %d, %d search threads): %.2f"
              % (args.batch, args.threads, statistics.median(ratios)))


if __name__ == "__main__":
    main()
