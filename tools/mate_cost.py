#!/usr/bin/env python3
"""The mate searches' cost: search nodes/s with each leaf mate depth (and the root prover)
against the search without them, one search thread and one network thread, the same positions
in the same run, settings alternated position by position so that a change of machine load
falls on all of them alike. Prints nodes/s per setting and its ratio to the first setting.

  tools/mate_cost.py --zhbot build/default/bot/zhbot --movetime 2000 \
      --setting off:leaf_mate_plies=0,root_mate_share=0 \
      --setting leaf3:leaf_mate_plies=3,root_mate_share=0 ...

Positions: the middlegames of tools/suites/defence.epd (from games) and the ladder's openings,
--positions of each.
"""
import argparse
import os
import re
import statistics
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from zhtools.epd import load_fens  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SOURCES = [os.path.join(ROOT, "tools", "suites", "defence.epd"),
           os.path.join(ROOT, "tools", "openings", "zh-balanced.epd")]
DEFAULT_SETTINGS = ["off:leaf_mate_plies=0,root_mate_share=0",
                    "leaf1:leaf_mate_plies=1,root_mate_share=0",
                    "leaf3:leaf_mate_plies=3,root_mate_share=0",
                    "leaf5:leaf_mate_plies=5,root_mate_share=0",
                    "leaf7:leaf_mate_plies=7,root_mate_share=0"]


def parse_setting(text):
    name, _, rest = text.partition(":")
    return name, [kv for kv in rest.split(",") if kv]


def nodes_per_second(zhbot, fen, movetime, options):
    cmd = [zhbot, "analyse", "--fen", fen, "--movetime", str(movetime),
           "-o", "threads=1", "-o", "nn_threads=1"]
    for kv in options:
        cmd += ["-o", kv]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True,
                         env=dict(os.environ, OPENBLAS_NUM_THREADS="1"))
    text = out.stdout + out.stderr
    nps = re.findall(r"\bnps (\d+)", text)
    if not nps:
        raise SystemExit("no nps in the output of %s:\n%s" % (" ".join(cmd), text[-2000:]))
    return int(nps[-1])


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
    rates = {name: [] for name, _ in settings}
    for i, fen in enumerate(fens):
        # A different setting goes first at each position.
        order = settings[i % len(settings):] + settings[:i % len(settings)]
        for name, options in order:
            rates[name].append(nodes_per_second(args.zhbot, fen, args.movetime, options))
        print("position %d/%d done" % (i + 1, len(fens)), file=sys.stderr, flush=True)
    base = statistics.mean(rates[settings[0][0]])
    print("| setting | options | nodes/s (mean over %d positions) | ratio to %s |"
          % (len(fens), settings[0][0]))
    print("|---|---|---|---|")
    for name, options in settings:
        mean = statistics.mean(rates[name])
        print("| %s | %s | %.0f | %.3f |" % (name, " ".join(options) or "-", mean, mean / base))


if __name__ == "__main__":
    main()
