"""Training data: the shards of one or more directories, split by game into training and
validation, served as batches of (planes, policy target, value target, extras)."""
import numpy as np

from training import records as rec

# Teacher scores become value targets through tanh(cp / VALUE_SCALE_CP); mates are +-1. The
# scale is fitted on the starter set (training/README.md: the scale that best predicts the game
# result from the teacher's score).
VALUE_SCALE_CP = 1200.0


def score_to_value(score, scale_cp=VALUE_SCALE_CP):
    cp, mate = rec.decode_score(score)
    return np.where(mate > 0, 1.0, np.where(mate < 0, -1.0, np.tanh(cp / scale_cp))).astype(
        np.float32)


def models_version(planes):
    """The input version of a plane count ("?" for one zhbot does not encode)."""
    return {p: v for v, p in rec.INPUT_PLANES_OF.items()}.get(planes, "?")


def is_validation(game_id, permille):
    """Whether a game belongs to the validation set: a fixed function of its id, so the split
    is by game (never by position) and the same on every machine and every run."""
    mixed = (np.asarray(game_id, dtype=np.uint64) * np.uint64(0x9E3779B97F4A7C15)) >> np.uint64(40)
    return (mixed % np.uint64(1000)) < np.uint64(permille)


class Dataset:
    """All records of the given shards (memory-mapped) with the indices of each split."""

    def __init__(self, paths, validation_permille=50):
        self.shards = [rec.Shard(p) for p in rec.list_shards(paths)]
        if not self.shards:
            raise ValueError("no .zhrec shards under %s" % ", ".join(map(str, paths)))
        formats = sorted({s.input_version for s in self.shards})
        if len(formats) > 1:
            raise ValueError("the shards mix input formats %s; re-encode them into one "
                             "(zhbot datagen --reencode)" % " and ".join(formats))
        self.input_version = formats[0]
        self.input_planes = self.shards[0].input_planes
        self.sizes = np.array([len(s) for s in self.shards], dtype=np.int64)
        self.offsets = np.concatenate([[0], np.cumsum(self.sizes)])
        ids = np.concatenate([np.asarray(s.records["game_id"]) for s in self.shards])
        val = is_validation(ids, validation_permille)
        self.validation = np.flatnonzero(val)
        self.training = np.flatnonzero(~val)
        self.games = len(np.unique(ids))
        self.validation_games = len(np.unique(ids[val]))

    def __len__(self):
        return int(self.offsets[-1])

    def check_planes(self, planes, network):
        """Exits with a clear message when `network` takes another plane count than the data."""
        if planes != self.input_planes:
            raise SystemExit("%s takes %d input planes (format %s), but the data is format %s "
                             "(%d planes)" % (network, planes, models_version(planes),
                                              self.input_version, self.input_planes))

    def gather(self, indices):
        """The records at global `indices` (any order), as one structured array."""
        indices = np.asarray(indices, dtype=np.int64)
        shard = np.searchsorted(self.offsets, indices, side="right") - 1
        out = np.empty(len(indices), dtype=self.shards[0].dtype)
        for s in np.unique(shard):
            rows = np.flatnonzero(shard == s)
            local = np.sort(indices[rows] - self.offsets[s])  # sorted reads from the memmap
            order = np.argsort(indices[rows] - self.offsets[s], kind="stable")
            out[rows[order]] = self.shards[s].records[local]
        return out

    def batch(self, indices, result_weight, policy_temperature_cp=None, scale_cp=VALUE_SCALE_CP):
        """Arrays for one batch: planes [N,P,8,8], policy [N,5184], value [N], and the raw
        records (for metrics)."""
        r = self.gather(indices)
        first = self.shards[0]
        planes = rec.expand_planes(r, first.mask_planes, first.constant_planes)
        policy = rec.policy_target(r, policy_temperature_cp)
        value = (result_weight * r["result"].astype(np.float32)
                 + (1.0 - result_weight) * score_to_value(r["score"], scale_cp))
        return planes, policy, value.astype(np.float32), r
