"""Checks a teacher chunk before the lab takes it as made (tools/zhtools/chunk_import.py).

    python3 -m training.check_chunk DIR --seed S --games N

- every shard reads: the record format's own checks (training.records.Shard: magic, version,
  record size, input format, plane layout, a size that matches the count, policy slots in use);
- every record is sane: its policy slots hold a distribution over moves of the policy map, its
  result is -1, 0 or 1;
- every game is one of the seed's first N games (`zhbot datagen` derives a game's id from the
  seed and the game's number), so the chunk of another seed is refused; and at most 2 % of the
  N games may be missing: a game whose every position an earlier game labelled leaves no record
  (11 to 19 of 3 000 in the first chunks at 3 000 nodes), a teacher that failed loses the game
  in flight, but a cut run or a lost shard (300 games) loses more.

Prints one line, "chunk DIR: P positions from G of N games of seed S in K shards", and exits 0;
or names the first fault and exits 1. Needs numpy only.
"""
import argparse
import sys

import numpy as np

from training import records as rec

MASK64 = (1 << 64) - 1
MISSING_GAMES_ALLOWED = 0.02


def mix(x):
    """splitmix64's finaliser, as engine/datagen/datagen.cpp mixes seeds and game numbers."""
    x = (x + 0x9E3779B97F4A7C15) & MASK64
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & MASK64
    return x ^ (x >> 31)


def game_ids(seed, games):
    """The ids `zhbot datagen --seed SEED` gives its games 0 .. games-1."""
    return {mix((seed & MASK64) ^ mix(n)) for n in range(games)}


def check_records(path, records):
    """The first fault of one shard's records as a message, or None."""
    used = np.arange(rec.POLICY_SLOTS)[None, :] < records["pv_count"][:, None]
    prob = np.where(used, records["policy_prob"], 0.0)
    faults = [
        ("a policy probability below 0", (prob < 0).any(axis=1)),
        ("policy probabilities that do not sum to 1", np.abs(prob.sum(axis=1) - 1) > 1e-3),
        ("a move outside the policy map",
         (used & (records["policy_index"] >= rec.POLICY_SIZE)).any(axis=1)),
        ("a result other than -1, 0, 1", np.abs(records["result"].astype(np.int16)) > 1),
    ]
    for what, bad in faults:
        where = np.flatnonzero(bad)
        if len(where):
            return "%s: record %d (offset %d) has %s" % (
                path, where[0], rec.HEADER_SIZE + where[0] * records.dtype.itemsize, what)
    return None


def check_chunk(directory, seed, games):
    """(message, ok): the summary line, or the first fault."""
    paths = rec.list_shards([directory])
    if not paths:
        return "chunk %s: no .zhrec shards" % directory, False
    positions, found = 0, set()
    for path in paths:
        try:
            shard = rec.Shard(path)
        except (rec.ShardError, OSError) as e:
            return str(e), False
        fault = check_records(path, shard.records)
        if fault:
            return fault, False
        positions += len(shard)
        found.update(int(g) for g in np.unique(shard.records["game_id"]))
    strangers = found - game_ids(seed, games)
    if strangers:
        return ("chunk %s: %d of its %d games are not among seed %d's first %d games"
                % (directory, len(strangers), len(found), seed, games)), False
    if len(found) < games * (1 - MISSING_GAMES_ALLOWED):
        return ("chunk %s: %d of seed %d's %d games, more than %d%% missing"
                % (directory, len(found), seed, games, 100 * MISSING_GAMES_ALLOWED)), False
    return ("chunk %s: %d positions from %d of %d games of seed %d in %d shards"
            % (directory, positions, len(found), games, seed, len(paths))), True


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("directory", help="the chunk's folder of .zhrec shards")
    p.add_argument("--seed", type=int, required=True, help="the seed the chunk was made with")
    p.add_argument("--games", type=int, required=True, help="the games it was made with")
    args = p.parse_args(argv)
    message, ok = check_chunk(args.directory, args.seed, args.games)
    print(message)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
