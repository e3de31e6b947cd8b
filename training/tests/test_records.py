"""The shard reader against what the C++ side wrote: golden positions decode to exactly the
encoder's planes, and corrupt files give errors that name the file and the offset."""
import os
import shutil
import subprocess
import tempfile
import unittest

import numpy as np

from training import records as rec


class GoldenRecords(unittest.TestCase):
    """Input format 1.0 in record format version 1."""
    FORMAT, PLANES, RECORD_SIZE = "1.0", 34, 440

    @classmethod
    def setUpClass(cls):
        writer = os.environ.get("ZH_WRITE_GOLDEN")
        if not writer:
            raise unittest.SkipTest("ZH_WRITE_GOLDEN (the write_golden_records program) is not set")
        cls.tmp = tempfile.mkdtemp()
        cls.shard_path = os.path.join(cls.tmp, "golden.zhrec")
        cls.planes_path = os.path.join(cls.tmp, "golden.f32")
        subprocess.run([writer, cls.shard_path, cls.planes_path, cls.FORMAT], check=True)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp)

    def test_planes_equal_the_encoders_output_exactly(self):
        shard = rec.Shard(self.shard_path)
        expected = np.fromfile(self.planes_path, dtype=np.float32).reshape(-1, self.PLANES, 8, 8)
        self.assertEqual(len(shard), len(expected))
        self.assertEqual((shard.input_version, shard.input_planes), (self.FORMAT, self.PLANES))
        planes = rec.expand_planes(shard.records, shard.mask_planes, shard.constant_planes)
        self.assertEqual(planes.dtype, np.float32)
        np.testing.assert_array_equal(planes, expected)
        # Not trivially equal: pieces, pockets and a repetition plane are set somewhere.
        self.assertTrue((expected[:, 12] == 1).any())
        self.assertTrue(((expected > 0) & (expected < 1)).any())

    def test_fields(self):
        shard = rec.Shard(self.shard_path)
        r = shard.records
        self.assertTrue((r["game_id"] == 99).all())
        self.assertTrue((r["pv_count"] == 1).all())
        self.assertTrue((r["score"] == 17).all())
        self.assertEqual(r["fen"][0].decode(),
                         "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/ w KQkq - 0 1")
        target = rec.policy_target(r)
        self.assertTrue(np.allclose(target.sum(axis=1), 1.0))
        self.assertTrue((target[np.arange(len(r)), r["policy_index"][:, 0]] == 1.0).all())

    def corrupt(self, mutate):
        with open(self.shard_path, "rb") as f:
            data = bytearray(f.read())
        data = mutate(data)
        path = os.path.join(self.tmp, "bad.zhrec")
        with open(path, "wb") as f:
            f.write(data)
        with self.assertRaises(rec.ShardError) as ctx:
            rec.Shard(path)
        self.assertIn(path, str(ctx.exception))
        return str(ctx.exception)

    def test_corrupt_files_are_refused_with_file_and_offset(self):
        def bad_magic(d):
            d[0:8] = b"NOTASHRD"
            return d

        def bad_version(d):
            d[8] = 7
            return d

        def bad_input(d):
            d[24] = ord("9")
            return d

        self.assertIn("magic", self.corrupt(bad_magic))
        self.assertIn("version 7", self.corrupt(bad_version))
        self.assertIn("input format", self.corrupt(bad_input))
        msg = self.corrupt(lambda d: d[:-100])
        self.assertIn("truncated", msg)
        whole = len(rec.Shard(self.shard_path)) - 1  # the last record is cut
        self.assertIn("offset %d" % (128 + whole * self.RECORD_SIZE), msg)
        self.assertIn("truncated header", self.corrupt(lambda d: d[:60]))
        self.assertIn("extra bytes", self.corrupt(lambda d: d + b"\0" * self.RECORD_SIZE))


class GoldenRecordsV2(GoldenRecords):
    """Input format 2.0 in record format version 2: the same checks, and its own planes."""
    FORMAT, PLANES, RECORD_SIZE = "2.0", 46, 512

    def test_the_planes_of_format_2_are_set(self):
        expected = np.fromfile(self.planes_path, dtype=np.float32).reshape(-1, 46, 8, 8)
        self.assertTrue((expected[:, 35] == 1).any())  # the last move's to-square
        self.assertTrue((expected[:, 36] == 1).all(axis=(1, 2)).any())  # a drop
        self.assertTrue((expected[:, 40] == 1).any())  # a piece giving check
        self.assertTrue((expected[:, 41:46] != 0).any())  # a material difference
        # Its first 34 planes are format 1.0's: the same shard's records at version 1 agree.
        shard = rec.Shard(self.shard_path)
        self.assertTrue((shard.records["last_moves"][:, 0] != 0).any())

    def test_a_version_1_header_with_format_2_is_refused(self):
        def as_version_1(d):
            d[8] = 1
            return d
        self.assertIn("record size 512", self.corrupt(as_version_1))


class Targets(unittest.TestCase):
    def test_policy_temperature_reweights_the_multipv_scores(self):
        r = np.zeros(1, dtype=rec.RECORD_DTYPE)
        r["pv_count"] = 3
        r["policy_index"][0, :3] = [5, 9, 700]
        r["pv_score"][0, :3] = [100, 40, rec.MATE_SCORE - 2]  # a later line may score higher
        r["policy_prob"][0, :3] = [0.5, 0.3, 0.2]
        np.testing.assert_allclose(rec.policy_target(r)[0, [5, 9, 700]], [0.5, 0.3, 0.2])
        one_hot = rec.policy_target(r, 0)
        self.assertEqual(one_hot[0, 5], 1.0)
        self.assertEqual(one_hot.sum(), 1.0)
        soft = rec.policy_target(r, 60)[0]
        self.assertAlmostEqual(float(soft.sum()), 1.0, places=5)
        self.assertAlmostEqual(float(soft[9] / soft[5]), float(np.exp(-1.0)), places=5)

    def test_scores_decode(self):
        cp, mate = rec.decode_score([35, -20, rec.MATE_SCORE - 1, -rec.MATE_SCORE + 4])
        self.assertEqual(list(cp), [35, -20, 0, 0])
        self.assertEqual(list(mate), [0, 0, 1, -4])


if __name__ == "__main__":
    unittest.main()
