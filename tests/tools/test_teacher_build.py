"""tools/lab/teacher_build.py: the build chosen for a CPU, and the check that keeps a build whose
move generation differs from Debian's binary out of the lab (real Fairy-Stockfish)."""
import os
import stat
import tempfile
import unittest
from unittest import mock

from tools.lab import teacher_build
from tools.zhtools.fairy import FAIRY

WITH_POPCNT = "vendor_id\t: GenuineIntel\nflags\t\t: fpu sse2 popcnt avx2 bmi2 avx512f\n"
WITHOUT = "vendor_id\t: GenuineIntel\nflags\t\t: fpu sse2 popcntx\n"


class ChooseArch(unittest.TestCase):
    def test_popcnt_where_the_cpu_has_it(self):
        self.assertEqual(teacher_build.choose_arch(WITH_POPCNT), "x86-64-modern")
        self.assertEqual(teacher_build.choose_arch(WITHOUT), "x86-64")
        self.assertEqual(teacher_build.choose_arch(""), "x86-64")


class CheckAgainstDebian(unittest.TestCase):
    def wrapper(self, folder, body):
        path = os.path.join(folder, "fairy-stockfish")
        with open(path, "w") as f:
            f.write("#!/bin/bash\n" + body + "\n")
        os.chmod(path, os.stat(path).st_mode | stat.S_IXUSR)
        return path

    def test_the_same_move_generation_passes(self):
        with tempfile.TemporaryDirectory() as tmp:
            teacher_build.check_against_debian(self.wrapper(tmp, 'exec "%s"' % FAIRY))

    def test_a_build_that_counts_otherwise_is_refused(self):
        # The same engine told to play chess whatever it is asked: it counts the position
        # with pockets without its drops.
        with tempfile.TemporaryDirectory() as tmp:
            chess = self.wrapper(tmp, 'sed -u "s/value crazyhouse/value chess/" | "%s"' % FAIRY)
            with self.assertRaises(SystemExit) as e:
                teacher_build.check_against_debian(chess)
            self.assertIn("not installed", str(e.exception))


class IfMissing(unittest.TestCase):
    def test_a_lab_that_has_its_build_is_left_as_it_is(self):
        # The chunk job asks at every start; a build already there is neither fetched nor made.
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "fairy-stockfish")
            with open(out, "w") as f:
                f.write("#!/bin/sh\n")
            os.chmod(out, 0o755)
            with mock.patch.object(teacher_build, "fetch_source") as fetch:
                self.assertEqual(teacher_build.main(["--out", out, "--if-missing"]), 0)
            fetch.assert_not_called()
            with open(out) as f:
                self.assertEqual(f.read(), "#!/bin/sh\n")


if __name__ == "__main__":
    unittest.main()
