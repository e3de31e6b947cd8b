"""Reader of zhbot training shards (record format versions 1 and 2; spec in training/README.md).

A shard is a 128-byte header and fixed-size records, little-endian, so it is memory-mapped as
one numpy structured array. The planes are stored as the engine's encoder produced them: the
header says which planes are 64-bit masks and which are one constant float, and this module
only expands them; it knows no normalisation constant of the encoder. Version 1 holds input
format 1.0 (34 planes), version 2 input format 2.0 (46 planes: the 34, then the last moves, the
pieces giving check and the material balance).
"""
import os

import numpy as np

MAGIC = b"ZHBOTREC"
HEADER_SIZE = 128
INPUT_VERSION = "1.0"  # what a network without metadata takes
INPUT_PLANES = 34
POLICY_SLOTS = 8
POLICY_SIZE = 81 * 64
MATE_SCORE = 30000

HEADER_DTYPE = np.dtype([
    ("magic", "S8"),
    ("format_version", "<u4"),
    ("record_size", "<u4"),
    ("record_count", "<u8"),
    ("input_version", "S8"),
    ("plane_kind", "u1", (INPUT_PLANES,)),
    ("policy_slots", "u1"),
    ("reserved0", "u1"),
    ("policy_temperature_cp", "<f4"),
    ("input_planes", "<u4"),
    ("plane_kind_more", "u1", (30,)),  # version 2: the kinds of planes 34..63
    ("reserved", "u1", (22,)),
])
assert HEADER_DTYPE.itemsize == HEADER_SIZE

RECORD_DTYPE = np.dtype([
    ("masks", "<u8", (15,)),
    ("game_id", "<u8"),
    ("constants", "<f4", (19,)),
    ("policy_prob", "<f4", (POLICY_SLOTS,)),
    ("pv_score", "<i4", (POLICY_SLOTS,)),
    ("score", "<i4"),
    ("policy_index", "<u2", (POLICY_SLOTS,)),
    ("ply", "<u2"),
    ("flags", "<u2"),
    ("pv_count", "u1"),
    ("result", "i1"),
    ("reserved", "u1", (2,)),
    ("fen", "S144"),
])
assert RECORD_DTYPE.itemsize == 440

RECORD_DTYPE_V2 = np.dtype(RECORD_DTYPE.descr + [
    ("extra_masks", "<u8", (5,)),      # format 2.0's mask planes after the 34th
    ("extra_constants", "<f4", (7,)),  # its constant planes after the 34th
    ("last_moves", "<u2", (2,)),       # the move that led here and the one before (raw, 0: none)
])
assert RECORD_DTYPE_V2.itemsize == 512

# record format version -> (input version, planes, mask planes, record dtype)
FORMATS = {1: ("1.0", 34, 15, RECORD_DTYPE), 2: ("2.0", 46, 20, RECORD_DTYPE_V2)}
INPUT_PLANES_OF = {version: planes for version, planes, _, _ in FORMATS.values()}

FLAG_MOVE_NOT_TEACHER = 1
FLAG_ADJUDICATED = 2
FLAG_OWN_GAME = 4  # a position of a game zhbot played (zhbot datagen --own-games)


class ShardError(ValueError):
    """A file that is not a shard this reader understands (the message names file and offset)."""


class Shard:
    """One memory-mapped shard: `records` is a read-only numpy array of RECORD_DTYPE."""

    def __init__(self, path):
        self.path = str(path)
        size = os.path.getsize(self.path)
        if size < HEADER_SIZE:
            raise ShardError("%s: truncated header at offset %d (%d of %d bytes)"
                             % (self.path, size, size, HEADER_SIZE))
        header = np.fromfile(self.path, dtype=HEADER_DTYPE, count=1)[0]
        if header["magic"] != MAGIC:
            raise ShardError("%s: not a zhbot training shard (bad magic at offset 0)" % self.path)
        if int(header["format_version"]) not in FORMATS:
            raise ShardError("%s: record format version %d at offset 8, this reader knows "
                             "versions %s" % (self.path, header["format_version"],
                                              " and ".join(map(str, FORMATS))))
        input_version, planes, masks, dtype = FORMATS[int(header["format_version"])]
        if header["record_size"] != dtype.itemsize:
            raise ShardError("%s: record size %d at offset 12, expected %d"
                             % (self.path, header["record_size"], dtype.itemsize))
        version = header["input_version"].decode("ascii", "replace")
        if version != input_version or header["input_planes"] != planes:
            raise ShardError("%s: input format %s with %d planes (offset 24), expected %s with %d"
                             % (self.path, version, header["input_planes"], input_version,
                                planes))
        self.input_version, self.input_planes, self.dtype = input_version, planes, dtype
        if header["policy_slots"] != POLICY_SLOTS:
            raise ShardError("%s: %d policy slots at offset 66, expected %d"
                             % (self.path, header["policy_slots"], POLICY_SLOTS))
        count = int(header["record_count"])
        expected = HEADER_SIZE + count * dtype.itemsize
        if size != expected:
            whole = (size - HEADER_SIZE) // dtype.itemsize
            at = HEADER_SIZE + min(whole, count) * dtype.itemsize
            raise ShardError("%s: %s at offset %d: the header says %d records (%d bytes), the file "
                             "has %d bytes" % (self.path, "truncated" if size < expected else
                                               "extra bytes", at, count, expected, size))
        kinds = np.concatenate([header["plane_kind"], header["plane_kind_more"]])[:planes]
        if set(np.unique(kinds)) - {0, 1}:
            raise ShardError("%s: unknown plane kind at offset 32" % self.path)
        self.mask_planes = np.flatnonzero(kinds == 0)
        self.constant_planes = np.flatnonzero(kinds == 1)
        if len(self.mask_planes) != masks:
            raise ShardError("%s: plane kinds do not match record format %d (offset 32)"
                             % (self.path, header["format_version"]))
        self.policy_temperature_cp = float(header["policy_temperature_cp"])
        self.records = np.memmap(self.path, dtype=dtype, mode="r", offset=HEADER_SIZE,
                                 shape=(count,)) if count else np.zeros(0, dtype)
        counts = self.records["pv_count"]
        bad = np.flatnonzero((counts < 1) | (counts > POLICY_SLOTS))
        if len(bad):
            raise ShardError("%s: record %d (offset %d) has %d policy slots in use"
                             % (self.path, bad[0], HEADER_SIZE + bad[0] * dtype.itemsize,
                                self.records["pv_count"][bad[0]]))

    def __len__(self):
        return len(self.records)


def expand_planes(records, mask_planes, constant_planes):
    """Input planes [N, P, 8, 8] float32 of `records` (P = 34 or 46, as the shard's format),
    exactly as the encoder produced them."""
    n, count = len(records), len(mask_planes) + len(constant_planes)
    planes = np.empty((n, count, 64), dtype=np.float32)
    masks, constants = np.asarray(records["masks"]), np.asarray(records["constants"])
    if count > INPUT_PLANES:  # format 2.0: the planes after the 34th follow in the record
        masks = np.concatenate([masks, records["extra_masks"]], axis=1)
        constants = np.concatenate([constants, records["extra_constants"]], axis=1)
    bits = np.ascontiguousarray(masks).view(np.uint8).reshape(n, len(mask_planes), 8)
    planes[:, mask_planes, :] = np.unpackbits(bits, axis=2, bitorder="little")
    planes[:, constant_planes, :] = constants[:, :, None]
    return planes.reshape(n, count, 8, 8)


def policy_target(records, temperature_cp=None):
    """Dense policy targets [N, 5184]. With `temperature_cp`, the MultiPV scores are re-weighted
    with that softmax temperature (0: the teacher's move alone); otherwise the stored
    probabilities are used."""
    n = len(records)
    target = np.zeros((n, POLICY_SIZE), dtype=np.float32)
    index = records["policy_index"].astype(np.int64)
    used = np.arange(POLICY_SLOTS)[None, :] < records["pv_count"][:, None]
    if temperature_cp is None:
        prob = np.where(used, records["policy_prob"], 0.0)
    elif temperature_cp <= 0:
        prob = np.zeros((n, POLICY_SLOTS), dtype=np.float32)
        prob[:, 0] = 1.0
    else:
        scores = np.clip(records["pv_score"].astype(np.float64), -3000, 3000)
        logits = np.where(used, (scores - scores[:, :1]) / temperature_cp, -np.inf)
        w = np.exp(logits)
        prob = w / w.sum(axis=1, keepdims=True)
    rows = np.repeat(np.arange(n), POLICY_SLOTS)
    np.add.at(target, (rows, index.ravel()), prob.ravel().astype(np.float32))
    return target


def decode_score(score):
    """(cp, mate) arrays from stored scores: mate > 0 mates, < 0 is mated, 0 = a cp score."""
    score = np.asarray(score, dtype=np.int64)
    mate = np.where(score > MATE_SCORE - 1000, MATE_SCORE - score,
                    np.where(score < -(MATE_SCORE - 1000), -MATE_SCORE - score, 0))
    cp = np.where(mate == 0, score, 0)
    return cp, mate


def list_shards(paths):
    """Every *.zhrec under the given files/directories, sorted."""
    out = []
    for p in paths:
        p = str(p)
        if os.path.isdir(p):
            for root, _, files in os.walk(p):
                out += [os.path.join(root, f) for f in files if f.endswith(".zhrec")]
        else:
            out.append(p)
    return sorted(out)
