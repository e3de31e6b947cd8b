"""The simulated-accelerator figures of docs/gpu-engine.md: for each workload, `zhbot selfplay`
with the `uniform` evaluator (what the CPU selects and expands on the same threads) and then
with the `sim` backend, back to back, for each binary given (anchor first). Prints one Markdown
row per workload and binary: sim nodes/s and evaluations/s, batch fill, capacity, the two limits
and the ratio of nodes/s to the lesser limit, with the load average before each of the two runs.
The sim's limit is in evaluations/s; a playout that ends in a mate or a known result needs no
evaluation, so it counts as a limit in nodes/s at the run's own nodes per evaluation.

  python3 -m tools.measure.sim_scaling --zhbot OLD_BUILD/zhbot --zhbot build/default/bot/zhbot
"""
import argparse
import json
import subprocess

# (name, common arguments, sim-only options, uniform-only options). The uniform runs are given
# the GPU-sized threads and batch by hand: the CPU's defaults would apply to them. Every
# workload runs for a second or more: the eight-game ones once ran 3 plies (0.3 s), and then the
# games' staggered first and last moves, not the steady state, set the figure (0.76-0.80 of
# the reference at 1 000 nodes a move, against 0.99 over 12 plies in the same conditions).
WORKLOADS = [
    ("1 game, 4 threads x 16, max_batch 64", "--games 1 --threads 4 --nodes 5000 --plies 8",
     "-o batch_size=16 -o max_batch=64", "-o batch_size=16 -o max_batch=64"),
    ("1 game, 4 threads x 16, max_batch 32", "--games 1 --threads 4 --nodes 5000 --plies 8",
     "-o batch_size=16 -o max_batch=32", "-o batch_size=16 -o max_batch=32"),
    ("1 game, GPU defaults", "--games 1 --nodes 10000 --plies 8",
     "", "-o threads=4 -o batch_size=32"),
    ("8 games, 2 threads x 16, max_batch 256", "--games 8 --threads 2 --nodes 1000 --plies 24",
     "-o batch_size=16 -o max_batch=256", "-o batch_size=16 -o max_batch=256"),
    ("8 games, 2 threads x 16, max_batch 128", "--games 8 --threads 2 --nodes 1000 --plies 24",
     "-o batch_size=16 -o max_batch=128", "-o batch_size=16 -o max_batch=128"),
    ("8 games, GPU defaults, 1000 nodes", "--games 8 --nodes 1000 --plies 24",
     "", "-o threads=4 -o batch_size=32"),
    ("8 games, GPU defaults, 4000 nodes", "--games 8 --nodes 4000 --plies 12",
     "", "-o threads=4 -o batch_size=32"),
]


def load_average():
    with open("/proc/loadavg") as f:
        return f.read().split()[0]


def selfplay(zhbot, args):
    """The JSON summary line of one `zhbot selfplay` run, and the load average before it."""
    load = load_average()
    out = subprocess.run([zhbot, "selfplay"] + args.split(), check=True, capture_output=True,
                         text=True).stdout
    summary = [line for line in out.splitlines() if line.startswith("{")]
    if not summary:
        raise SystemExit("zhbot selfplay %s printed no summary line" % args)
    return json.loads(summary[-1]), load


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--zhbot", action="append", required=True,
                        help="a zhbot binary; give it again for the next (anchor first)")
    parser.add_argument("--only", default="",
                        help="run only the workloads whose name contains this text")
    args = parser.parse_args()
    print("| workload | binary | sim nodes/s | evaluations/s | batch fill | capacity | "
          "sim limit (evaluations/s) | uniform (CPU) limit | ratio | load |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for name, common, sim_opts, uniform_opts in WORKLOADS:
        if args.only not in name:
            continue
        for zhbot in args.zhbot:
            uniform, load_u = selfplay(zhbot, "%s --backend uniform %s" % (common, uniform_opts))
            sim, load_s = selfplay(zhbot, "%s --backend sim %s" % (common, sim_opts))
            nodes_per_evaluation = sim["nodes_per_s"] / sim["evaluations_per_s"]
            reference = min(sim["device_limit_per_s"] * nodes_per_evaluation,
                            uniform["nodes_per_s"])
            print("| %s | %s | %.0f | %.0f | %.1f / %d | %.0f %% | %.0f | %.0f | %.2f | %s, %s |"
                  % (name, zhbot, sim["nodes_per_s"], sim["evaluations_per_s"],
                     sim["mean_batch"], sim["max_batch"], 100 * sim["capacity"],
                     sim["device_limit_per_s"], uniform["nodes_per_s"],
                     sim["nodes_per_s"] / reference, load_u, load_s), flush=True)


if __name__ == "__main__":
    main()
