"""The positions of the lab's recorded games, labelled by the teacher: every game record in which
zhbot played (one game a line), under LAB/strength/ (the SPRT queue's tests and the matches) and
in a network's folder LAB/zhbot-net-N/ (its gate and its match against the network before it),
through `zhbot datagen --relabel` into LAB/data/recorded-NODES. The run takes up the folder, so
only the games added since the last run are labelled; tools/lab/lab_chunks.sh runs it before the
chunks, so the queue's new games are labelled in every session. Why: training/README.md,
"Recorded games".

  python3 -m tools.lab.relabel_games [--zhbot Z] [--nodes N] [--workers W] [--teacher PATH]
"""
import argparse
import glob
import json
import os
import subprocess
import sys

from tools.zhtools import ROOT, lab


def zhbot_played(path):
    """Whether zhbot played a side in the match record `path` (its first game says: a match keeps
    its two engines). Fairy-Stockfish against itself (a check of the teacher's build, say) is
    teacher data, not zhbot's own games."""
    with open(path) as f:
        first = f.readline()
    try:
        game = json.loads(first)
    except ValueError:
        return False
    return any(str(game.get(side, "")).startswith("zhbot") for side in ("white", "black"))


def game_records(lab_root):
    """Every match record (*.jsonl) in which zhbot played, sorted: those anywhere under the lab's
    strength folder and those at the top of a network's folder (its gate and match); none when
    the lab has neither."""
    patterns = (os.path.join(lab_root, "strength", "**", "*.jsonl"),
                os.path.join(lab_root, "zhbot-net-*", "*.jsonl"))
    paths = sorted(path for pattern in patterns for path in glob.glob(pattern, recursive=True))
    return [path for path in paths if zhbot_played(path)]


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--zhbot", default=os.path.join(ROOT, "build", "default", "bot", "zhbot"))
    p.add_argument("--nodes", type=int, default=3000,
                   help="teacher nodes a position (the teacher chunks' budget)")
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--teacher", default=lab.teacher_path(),
                   help="the Fairy-Stockfish that labels (default: tools.zhtools.lab.teacher_path)")
    a = p.parse_args(argv)
    records = game_records(lab.lab_dir())
    if not records:
        print("relabel_games: no game records in the lab's strength or network folders yet")
        return 0
    out = lab.lab_path("data", "recorded-%d" % a.nodes)
    print("relabel_games: %d record file(s) into %s" % (len(records), out), flush=True)
    return subprocess.run([a.zhbot, "datagen", "--relabel", *records, "--out", out, "--nodes",
                           str(a.nodes), "--workers", str(a.workers), "--teacher", a.teacher,
                           "--progress", "300"]
                          ).returncode


if __name__ == "__main__":
    sys.exit(main())
