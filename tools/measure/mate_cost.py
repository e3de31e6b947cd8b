"""The mate searches' cost: playouts/s and network evaluations/s with each leaf mate depth (and
the root prover) against the search without them, one search thread and one network thread,
the same positions in the same run, settings alternated position by position so that a change
of machine load falls on all of them alike. Prints both rates per setting and their ratios to
the first.

  python3 -m tools.measure.mate_cost --zhbot build/default/bot/zhbot --movetime 2000 \
      --setting off:leaf_mate_plies=0,root_mate_share=0 \
      --setting leaf3:leaf_mate_plies=3,root_mate_share=0 ...

Positions: the middlegames of tools/measure/suites/defence.epd (from games) and the ladder's
openings, --positions of each.
"""
import argparse
import os
import re
import statistics
import subprocess
import sys

from tools.zhtools import ROOT
from tools.zhtools.epd import load_fens

SOURCES = [os.path.join(ROOT, "tools", "measure", "suites", "defence.epd"),
           os.path.join(ROOT, "tools", "measure", "openings", "zh-balanced.epd")]
DEFAULT_SETTINGS = ["off:leaf_mate_plies=0,root_mate_share=0",
                    "leaf1:leaf_mate_plies=1,root_mate_share=0",
                    "leaf3:leaf_mate_plies=3,root_mate_share=0",
                    "leaf5:leaf_mate_plies=5,root_mate_share=0",
                    "leaf7:leaf_mate_plies=7,root_mate_share=0"]


def parse_setting(text):
    name, _, rest = text.partition(":")
    return name, [kv for kv in rest.split(",") if kv]


def rates(zhbot, fen, movetime, options):
    """(playouts/s, network evaluations/s) of one search."""
    cmd = [zhbot, "analyse", "--fen", fen, "--movetime", str(movetime),
           "-o", "threads=1", "-o", "nn_threads=1"]
    for kv in options:
        cmd += ["-o", kv]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True,
                         env=dict(os.environ, OPENBLAS_NUM_THREADS="1"))
    text = out.stdout + out.stderr
    # "nodes      1068 in 2000 ms (534 nodes/s), 1049 network evaluations"
    m = re.search(r"nodes\s+(\d+) in (\d+) ms \((\d+) nodes/s\), (\d+) network evaluations",
                  text)
    if not m:
        raise SystemExit("no node count in the output of %s:\n%s" % (" ".join(cmd), text[-2000:]))
    ms = max(1, int(m.group(2)))
    return int(m.group(3)), int(m.group(4)) * 1000.0 / ms


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--zhbot", default=os.path.join(ROOT, "build", "default", "bot", "zhbot"))
    ap.add_argument("--movetime", type=int, default=2000, help="ms per position and setting")
    ap.add_argument("--positions", type=int, default=10, help="from each source")
    ap.add_argument("--setting", action="append",
                    help="NAME:option=value,... (default: off, leaf 1, 3, 5, 7)")
    args = ap.parse_args()
    settings = [parse_setting(s) for s in (args.setting or DEFAULT_SETTINGS)]
    fens = []
    for path in SOURCES:
        fens += load_fens(path)[:args.positions]
    playouts = {name: [] for name, _ in settings}
    evals = {name: [] for name, _ in settings}
    for i, fen in enumerate(fens):
        # A different setting goes first at each position.
        order = settings[i % len(settings):] + settings[:i % len(settings)]
        for name, options in order:
            p, e = rates(args.zhbot, fen, args.movetime, options)
            playouts[name].append(p)
            evals[name].append(e)
        print("position %d/%d done" % (i + 1, len(fens)), file=sys.stderr, flush=True)
    first = settings[0][0]
    base_p, base_e = statistics.mean(playouts[first]), statistics.mean(evals[first])
    print("Means over %d positions; a playout that ends in a proven mate costs no network call, "
          "so playouts/s can rise while the network's share of the time falls." % len(fens))
    print()
    print("| setting | options | playouts/s | ratio to %s | network evaluations/s | ratio to %s |"
          % (first, first))
    print("|---|---|---|---|---|---|")
    for name, options in settings:
        p, e = statistics.mean(playouts[name]), statistics.mean(evals[name])
        print("| %s | %s | %.0f | %.3f | %.0f | %.3f |"
              % (name, " ".join(options) or "-", p, p / base_p, e, e / base_e))


if __name__ == "__main__":
    main()
