"""Where the next network's run stands, in one screen for a session's note: the Fairy-Stockfish that
labels (tools.zhtools.lab.teacher_path), each of the recipe's chunk seeds done, under way or
missing, every chunk marked done checked again with training.check_chunk (its positions, its games,
that they are its seed's), the totals and the seeds done as ranges, a chunk under way's games and
time left, and the hours the chunks still to make (not those the shared folder holds, which are
imported) cost at the pace of the last one made here; then the held-out test set, the own-game
positions (recorded games relabelled, own games), the training's step, the hours it has left and its
last validation, the held-out top-1 of the new and the shipped network, the gate and the match. It
only reads the lab, so it is safe beside the running jobs (a chunk under way is counted by its
closed shards and its log's last line).

Exits 1 when a chunk marked done fails its check (the line says why): training on it would
waste hours; remove its folder and marker, and the chunk job makes it again from its seed.

  python3 -m tools.lab.status [DIR] [--name ... --seed ... (the recipe's by default)]
"""
import glob
import json
import os
import re
import sys

from tools.zhtools import chunk_import, lab, recipe
from tools.zhtools.fairy import FAIRY

VERDICT = re.compile(r": (\d+) positions from (\d+) of ")
# datagen's progress line: "datagen: 57955 positions (...), 921 games, ... ETA 0h06m46s"
PROGRESS = re.compile(r"^datagen: .*, (\d+) games, .*ETA (.*)$")
THROUGHPUT = re.compile(r"^throughput *([0-9.]+) labelled positions/s")
# A datagen run's first line, and the games an earlier run left that it takes up.
RUN_START = re.compile(r"^datagen: seed ")
TAKEN_UP = re.compile(r"^datagen: taking up .*: (\d+) games of this work")
# training's progress line: "[###...] step 387/25000  403 samples/s  loss 1.9845  ETA 08:41:41"
TRAIN_PROGRESS = re.compile(r"step (\d+)/(\d+) +(\d+) samples/s.*ETA (.*)$")


def ranges(seeds):
    """Ascending seeds as "a-b, c" ranges; "none" when there are none."""
    parts, first, last = [], None, None
    for s in list(seeds) + [None]:
        if first is not None and s == last + 1:
            last = s
            continue
        if first is not None:
            parts.append(str(first) if first == last else "%d-%d" % (first, last))
        first = last = s
    return ", ".join(parts) or "none"


def read_lines(path):
    try:
        with open(path, errors="replace") as f:
            return f.read().splitlines()
    except OSError:
        return []


def last_match(pattern, lines):
    """The last match of `pattern` (search) among `lines`, or None."""
    for line in reversed(lines):
        found = pattern.search(line)
        if found:
            return found
    return None


def progress_so_far(lines):
    """(games, time left) of a chunk under way by its log, or None before its first progress
    line: the last run's progress plus what that run took up from the runs before it (each run
    counts only its own games)."""
    start = max((i for i, line in enumerate(lines) if RUN_START.match(line)), default=0)
    progress = last_match(PROGRESS, lines[start:])
    if not progress:
        return None
    taken = last_match(TAKEN_UP, lines[start:])
    return (int(taken.group(1)) if taken else 0) + int(progress.group(1)), progress.group(2)


def chunks_report(r, data):
    """Prints the chunks' lines and totals; returns the count of faulty chunks."""
    done, missing, faults, positions, games = [], [], 0, 0, 0
    for seed in recipe.seeds(r):
        chunk = os.path.join(data, "chunk-%d" % seed)
        if os.path.exists(chunk + ".done"):
            ok, verdict = chunk_import.run_check_chunk(chunk, seed, r["chunk_games"])
            if not ok:
                faults += 1
                print("chunk-%d  FAULT        %s" % (seed, verdict))
                continue
            found = VERDICT.search(verdict)
            p, g = (int(found.group(1)), int(found.group(2))) if found else (0, 0)
            positions, games = positions + p, games + g
            done.append(seed)
            where = "the shared folder" if os.path.exists(chunk + ".source") else "made here"
            print("chunk-%d  done         %7d positions from %4d of %d games (%s)"
                  % (seed, p, g, r["chunk_games"], where))
        else:
            if os.path.isdir(chunk):
                shards = len(glob.glob(os.path.join(chunk, "*.zhrec")))
                found = progress_so_far(read_lines(chunk + ".log"))
                progress = ("; %d games so far, %s left" % found) if found else ""
                print("chunk-%d  under way    %d shard(s) closed%s" % (seed, shards, progress))
            missing.append(seed)
    # A missing seed the shared folder holds is imported when the chunk job reaches it: no cost.
    shared = [s for s in missing if os.path.exists(lab.shared_chunk(r["nodes"], s))]
    missing = [s for s in missing if s not in shared]
    print("chunks done: %d of %d (%s), %d positions from %d games; still to make: %s%s"
          % (len(done), r["chunks"], ranges(done), positions, games, ranges(missing),
             "; to import from the shared folder: %s" % ranges(shared) if shared else ""))
    # What the rest costs: the chunks still to make at the labelling pace of the last chunk
    # made here (a pace, not a duration, so a chunk resumed across sessions counts right),
    # each the size of the chunks done.
    for seed in reversed(done):
        chunk = os.path.join(data, "chunk-%d" % seed)
        if os.path.exists(chunk + ".source"):
            continue
        found = last_match(THROUGHPUT, read_lines(chunk + ".log"))
        if not found:
            continue
        if missing:
            pace = float(found.group(1))
            s = int(len(missing) * (positions // len(done)) / pace)
            print("the rest: %dh%02dm for %d chunk(s) at chunk-%d's %s labelled positions/s"
                  % (s // 3600, s % 3600 // 60, len(missing), seed, found.group(1)))
        break
    return faults


def test_set_report(test_set, nodes):
    if not os.path.exists(os.path.join(test_set, "test-set.done")):
        print("test set: not made yet")
        return
    from training import data
    print("test set: %d positions at %d nodes"
          % (len(data.Dataset([os.path.join(test_set, "shards")])), nodes))


def training_report(run):
    log = read_lines(os.path.join(run, "train.log"))
    epochs = [line for line in log if line.startswith("epoch")]
    if os.path.exists(os.path.join(run, "train.done")):
        print("training: done; %s" % (epochs[-1] if epochs else "no validation line"))
        return
    if not log:
        print("training: not started")
        return
    found = last_match(TRAIN_PROGRESS, log)
    if found and found.group(3) == "0":
        where = "step %s of %s, its speed not measured yet" % found.groups()[:2]
    elif found:
        where = "step %s of %s, %s samples/s, %s left at that speed" % found.groups()
    else:
        where = "no step yet"
    print("training: %s (resumes from %s)" % (where, os.path.join(run, "run", "last.ckpt")))
    if epochs:
        print("held out so far: %s" % epochs[-1])


def results_report(run, name):
    for f, who in (("eval", name), ("eval-previous", "the shipped network")):
        path = os.path.join(run, f + ".test.json")
        if os.path.exists(path):
            with open(path) as fh:
                m = json.load(fh)
            print("%s: top-1 %.1f %% on the test set (%d positions)"
                  % (who, 100 * m["top1"], m["positions"]))
    from tools.measure.strength import runner, stats
    sprt_gate_report(run, name)
    for f in ("gate", "match"):
        path = os.path.join(run, f + ".jsonl")
        if not os.path.exists(path) or not os.path.getsize(path):
            continue
        results = runner.load_results(path)
        players = {g["white"] for g in results} | {g["black"] for g in results}
        new = sorted(x for x in players if "/%s.pt" % name in x)
        if not new:
            print("%s: no player in %s is %s.pt" % (f, path, name))
            continue
        state = "done" if os.path.exists(os.path.join(run, f + ".done")) else "under way"
        n, score, elo, low, high, _ = stats.summarize(results, new[0])
        print("%s: %s, %d games: %.1f %%, Elo %+.0f [%+.0f, %+.0f], illegal / time / crash "
              "%d / %d / %d" % ((f, state, n, 100 * score, elo, low, high)
                                + stats.failure_counts(results, new[0])))


def sprt_gate_report(run, name):
    """The SPRT gate's state (tools.lab.next_network --gate sprt), from its games."""
    from tools.measure.strength import runner, sprt, sprt_match
    path = os.path.join(run, "gate-sprt.jsonl")
    if not os.path.exists(path) or not os.path.getsize(path):
        return
    results = runner.load_results(path)
    first = results[0]
    new = first["white"] if "/%s.pt" % name in first["white"] else first["black"]
    tally = sprt_match.Tally(new, sprt.Sprt(**first["sprt"]))
    for record in results:
        tally.add(record)
    print("gate (%s): %s, %s" % (tally.test, {"H1": "H1 accepted", "H0": "H0 accepted"}.get(
        tally.verdict, "no verdict yet"), tally.line()))


def own_data_report(data):
    """The own-game positions (models/README.md, experiment (a)): the lab's recorded games
    relabelled (data/recorded-NODES) and its own games (data/own-test, data/own-NODES/chunk-SEED),
    each with the positions and games its complete shards hold."""
    folders = sorted(glob.glob(os.path.join(data, "recorded-*"))
                     + glob.glob(os.path.join(data, "own-test"))
                     + glob.glob(os.path.join(data, "own-*", "chunk-*")))
    if not folders:
        print("own-game data: none yet")
        return
    from training import records as rec
    for folder in folders:
        shards = [rec.Shard(p) for p in rec.list_shards([folder])]
        games = {int(g) for s in shards for g in s.records["game_id"]}
        print("own-game data: %s, %d positions from %d games"
              % (os.path.relpath(folder, data), sum(len(s.records) for s in shards), len(games)))


def main(argv=None):
    p, r = recipe.recipe_parser(argv, "python3 -m tools.lab.status", __doc__)
    recipe.add_recipe_options(p, r, only=("name", "nodes", "chunk_games", "seed", "chunks"))
    p.add_argument("--test-nodes", type=int, default=100000)
    args = p.parse_args(argv)
    r.update({k: getattr(args, k) for k in ("name", "nodes", "chunk_games", "seed", "chunks")})
    os.environ["OPENBLAS_NUM_THREADS"] = "1"
    run = os.path.abspath(args.dir or os.path.join(lab.lab_dir(), r["name"]))
    print("lab %s: %s's %d chunks of %d games at %d nodes, seeds %d-%d"
          % (lab.lab_dir(), r["name"], r["chunks"], r["chunk_games"], r["nodes"], r["seed"],
             r["seed"] + r["chunks"] - 1))
    teacher = lab.teacher_path()
    print("teacher: %s (%s)" % (teacher, "the lab's 8x8 build" if teacher != FAIRY else
                                "python3 -m tools.lab.teacher_build makes one 1.5 times as fast"))
    faults = chunks_report(r, lab.teacher_dir(r["nodes"]))
    test_set_report(os.path.join(lab.lab_dir(), "data", "test-%d" % args.test_nodes),
                    args.test_nodes)
    own_data_report(os.path.join(lab.lab_dir(), "data"))
    training_report(run)
    results_report(run, r["name"])
    sys.stdout.flush()
    if faults:
        print("%d chunk(s) marked done fail their check" % faults, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
