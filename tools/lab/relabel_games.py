"""The positions of the lab's recorded games, labelled by the teacher: every game record under
LAB/strength/ in which zhbot played (the SPRT queue's tests and the matches, one game a line)
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


def game_records(strength_dir):
    """Every match record (*.jsonl) under `strength_dir` in which zhbot played, sorted; none when
    the folder does not exist."""
    return [path for path in sorted(glob.glob(os.path.join(strength_dir, "**", "*.jsonl"),
                                              recursive=True)) if zhbot_played(path)]


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--zhbot", default=os.path.join(ROOT, "build", "default", "bot", "zhbot"))
    p.add_argument("--nodes", type=int, default=3000,
                   help="teacher nodes a position (the teacher chunks' budget)")
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--teacher", default=lab.teacher_path(),
                   help="the Fairy-Stockfish that labels (default: tools.zhtools.lab.teacher_path)")
    a = p.parse_args(argv)
    records = game_records(os.path.join(lab.lab_dir(), "strength"))
    if not records:
        print("relabel_games: no game records under the lab's strength folder yet")
        return 0
    out = lab.lab_path("data", "recorded-%d" % a.nodes)
    print("relabel_games: %d record file(s) into %s" % (len(records), out), flush=True)
    return subprocess.run([a.zhbot, "datagen", "--relabel", *records, "--out", out, "--nodes",
                           str(a.nodes), "--workers", str(a.workers), "--teacher", a.teacher,
                           "--progress", "300"]
                          ).returncode


if __name__ == "__main__":
    sys.exit(main())
