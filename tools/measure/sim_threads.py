"""One game on the simulated accelerator with 1, 2, 4 and 8 search threads, tree and graph
(docs/gpu-engine.md): for each thread count, structure and binary (anchor first), `zhbot
selfplay` with the `uniform` evaluator (the host's own ceiling: the sim at its fastest, with the
same threads and batches) and then with the `sim` backend, back to back, the binaries
interleaved so that each pair of rows shares the machine's conditions. Prints one Markdown row
per run: sim nodes/s, the device's busy share (capacity), the two limits, the ratio of nodes/s
to the lesser limit, and the load average before the runs. With --repeat N each figure is the
median of N runs.

  python3 -m tools.measure.sim_threads --zhbot OLD_BUILD/zhbot --zhbot build/default/bot/zhbot

--sim-options gives the sim other settings (its backend_options), e.g. a device four times as
slow, "fixed_us=760,per_position_us=35.6": on a host with few cores, where the host and not the
search's threads bind at the sim's defaults, that shows what the threads do for a device when the
host has the headroom a GPU server's cores give it.
"""
import argparse
import statistics

from tools.measure.sim_scaling import load_average, selfplay

COMMON = "--games 1 --nodes 10000 --plies 8"
# The sim gets the device defaults (32 leaves a thread, 2 mini-batches, max_batch 256); the
# uniform runs are given them by hand, the CPU's defaults would apply to them.
UNIFORM = "-o batch_size=32 -o batches_per_thread=2"


def measure(zhbot, graph, threads, repeat, sim_options=""):
    """Medians over `repeat` pairs of runs: uniform nodes/s, sim nodes/s, capacity, sim limit
    in nodes/s."""
    opts = "-o graph=%s -o threads=%d" % ("true" if graph else "false", threads)
    sim_opts = opts + (" -o backend_options=%s" % sim_options if sim_options else "")
    uniform, sim, capacity, limit = [], [], [], []
    for _ in range(repeat):
        u, _ = selfplay(zhbot, "%s --backend uniform %s %s" % (COMMON, opts, UNIFORM))
        s, _ = selfplay(zhbot, "%s --backend sim %s" % (COMMON, sim_opts))
        uniform.append(u["nodes_per_s"])
        sim.append(s["nodes_per_s"])
        capacity.append(s["capacity"])
        limit.append(s["device_limit_per_s"] * s["nodes_per_s"] / s["evaluations_per_s"])
    return tuple(statistics.median(x) for x in (uniform, sim, capacity, limit))


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--zhbot", action="append", required=True,
                        help="a zhbot binary; give it again for the next (anchor first)")
    parser.add_argument("--threads", default="1,2,4,8", help="thread counts, comma-separated")
    parser.add_argument("--structure", choices=["tree", "graph", "both"], default="both")
    parser.add_argument("--repeat", type=int, default=1, help="runs per figure (the median)")
    parser.add_argument("--sim-options", default="",
                        help="the sim's backend_options (key=value,...; no spaces), e.g. "
                             "fixed_us=760,per_position_us=35.6")
    args = parser.parse_args()
    if args.repeat < 1:
        parser.error("--repeat must be at least 1")
    if " " in args.sim_options:
        parser.error("--sim-options is key=value,... without spaces")
    threads = [int(t) for t in args.threads.split(",")]
    if any(t < 1 for t in threads):
        parser.error("--threads takes positive integers")
    structures = {"tree": [False], "graph": [True], "both": [False, True]}[args.structure]
    print("| structure | threads | binary | sim nodes/s | capacity | sim limit (nodes/s) | "
          "uniform (host) nodes/s | ratio | load |")
    print("|---|---|---|---|---|---|---|---|---|")
    for graph in structures:
        for t in threads:
            for zhbot in args.zhbot:
                load = load_average()
                uniform, sim, capacity, limit = measure(
                    zhbot, graph, t, args.repeat, args.sim_options)
                print("| %s | %d | %s | %.0f | %.0f %% | %.0f | %.0f | %.2f | %s |"
                      % ("graph" if graph else "tree", t, zhbot, sim, 100 * capacity, limit,
                         uniform, sim / min(limit, uniform), load), flush=True)


if __name__ == "__main__":
    main()
