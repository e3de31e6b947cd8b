"""tools/lab/sprt_queue.py: the tests played in the queue's order, each with the zhbot it began
with (pinned into the lab under its content's hash), a test finished passed over, a later build
pinned only by a test begun after it, a test whose binary cannot be named refused, the standing
listed without playing, and a bad queue file refused by name. Games are played for real: a
scripted zhbot that answers every position with an illegal move, Fairy-Stockfish the referee."""
import contextlib
import io
import os
import shutil
import tempfile
import unittest

from tests.tools.test_strength import fake_zhbot
from tools.lab import sprt_queue
from tools.measure.strength import runner

TWO_TESTS = """
elo0 = 0
elo1 = 20
openings = "%s"
more_openings = []

[[test]]
name = "first"
a = "zhbot:nodes=1"
b = "zhbot:nodes=2"

[[test]]
name = "second"
a = "zhbot:nodes=3"
b = "zhbot:nodes=4"
openings = "%s"
"""


class Queue(unittest.TestCase):
    def setUp(self):
        self.engine, _ = fake_zhbot(self)
        self.work = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.work)
        old = os.environ.get("ZHBOT_LAB")
        os.environ["ZHBOT_LAB"] = os.path.join(self.work, "lab")
        self.addCleanup(lambda: os.environ.__setitem__("ZHBOT_LAB", old) if old is not None
                        else os.environ.pop("ZHBOT_LAB", None))
        fens = runner.load_openings(runner.DEFAULT_OPENINGS)
        self.two = self.write("two.epd", "\n".join(fens[:2]) + "\n")
        self.one = self.write("one.epd", fens[2] + "\n")
        self.queue = self.write("queue.toml", TWO_TESTS % (self.two, self.one))

    def write(self, name, text):
        path = os.path.join(self.work, name)
        with open(path, "w") as f:
            f.write(text)
        return path

    def sprt_dir(self):
        return os.path.join(os.environ["ZHBOT_LAB"], "strength", "sprt")

    def games(self, name):
        path = os.path.join(self.sprt_dir(), name + ".jsonl")
        return runner.load_results(path) if os.path.exists(path) else []

    def pinned(self, name):
        with open(os.path.join(self.sprt_dir(), name + ".zhbot")) as f:
            return f.read().strip()

    def run_queue(self, *args, engine=None):
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            sprt_queue.main(["--queue", self.queue, "--zhbot", engine or self.engine, *args])
        return out.getvalue()

    def test_each_test_in_order_with_the_zhbot_it_began_with(self):
        log = self.run_queue()
        # Node-bounded sides play each opening once: 2 pairs, then 1, then the queue ends.
        self.assertEqual(len(self.games("first")), 4)
        self.assertEqual(len(self.games("second")), 2)
        self.assertLess(log.index("queue: first"), log.index("queue: second"))
        self.assertIn("every test decided or out of openings", log)
        # Both pinned the same copy, named by the build's content, the shipped networks beside.
        pin = self.pinned("first")
        self.assertEqual(pin, self.pinned("second"))
        self.assertRegex(pin, r"^bin/zhbot-[0-9a-f]{12}$")
        lab = os.environ["ZHBOT_LAB"]
        with open(self.engine, "rb") as a, open(os.path.join(lab, pin), "rb") as b:
            self.assertEqual(a.read(), b.read())
        self.assertTrue(os.listdir(os.path.join(lab, "share", "zhbot", "models")))
        # The games came from the copy: it logged what it was told.
        self.assertTrue(os.path.exists(os.path.join(lab, pin) + ".log"))

        # Run again after the build changed: the finished tests play nothing and keep their pin.
        with open(self.engine, "a") as f:
            f.write("# another build\n")
        self.run_queue()
        self.assertEqual((len(self.games("first")), len(self.games("second"))), (4, 2))
        self.assertEqual(self.pinned("first"), pin)

        # A test added to the queue later pins the new build, a copy of its own.
        with open(self.queue, "a") as f:
            f.write('\n[[test]]\nname = "third"\na = "zhbot:nodes=5"\nb = "zhbot:nodes=6"\n')
        self.run_queue("--only", "third")
        self.assertEqual(len(self.games("third")), 4)
        self.assertNotEqual(self.pinned("third"), pin)
        with open(self.engine, "rb") as a, open(os.path.join(lab, self.pinned("third")),
                                                "rb") as b:
            self.assertEqual(a.read(), b.read())

    def test_the_standing_is_listed_without_playing(self):
        self.run_queue("--only", "second")
        table = self.run_queue("--list", engine="/nonexistent/zhbot")
        rows = {line.split(" | ")[0].strip("| "): line for line in table.splitlines()[2:]}
        self.assertEqual(set(rows), {"first", "second"})
        self.assertIn("| 0 [0, 0, 0, 0, 0] |", rows["first"])
        self.assertTrue(rows["first"].endswith("| not begun |"), rows["first"])
        # Both sides play illegal moves: White loses, so the one pair is 1 point for a.
        self.assertIn("| 1 [0, 0, 1, 0, 0] |", rows["second"])
        self.assertTrue(rows["second"].endswith("| out of openings |"), rows["second"])
        self.assertEqual(self.games("first"), [])

    def test_a_test_whose_zhbot_cannot_be_named_is_refused(self):
        # Games but no pin: they came from a binary nobody recorded.
        os.makedirs(self.sprt_dir())
        shutil.copy(self.write("x.jsonl", '{"game": 0}\n'),
                    os.path.join(self.sprt_dir(), "first.jsonl"))
        with self.assertRaises(SystemExit) as e:
            self.run_queue("--only", "first")
        self.assertIn("has games but no pinned zhbot", str(e.exception))
        # A pin whose binary is gone: the test cannot go on with another one.
        self.run_queue("--only", "second")
        os.remove(os.path.join(os.environ["ZHBOT_LAB"], self.pinned("second")))
        with self.assertRaises(SystemExit) as e:
            self.run_queue("--only", "second")
        self.assertIn("is gone", str(e.exception))

    def test_a_bad_queue_is_refused_by_name(self):
        cases = (("elo0 = 0\n", "no [[test]]"),
                 ("speed = 1\n[[test]]\nname = 'x'\n", "unknown setting(s) speed"),
                 ("[[test]]\nname = 'x'\na = 'zhbot:nodes=1'\nb = 'zhbot:nodes=1'\n",
                  "elo0 is missing"),
                 (TWO_TESTS.replace('"zhbot:nodes=2"', '"zhbot"') % (self.two, self.one),
                  "not a zhbot bounded by nodes"),
                 (TWO_TESTS.replace('"second"', '"first"') % (self.two, self.one),
                  "used twice"),
                 (TWO_TESTS.replace("elo1 = 20", "elo1 = -5") % (self.two, self.one),
                  "want elo0 < elo1"))
        for text, why in cases:
            with open(self.queue, "w") as f:
                f.write(text)
            with self.assertRaises(SystemExit, msg=why) as e:
                self.run_queue("--list")
            self.assertIn(why, str(e.exception))


if __name__ == "__main__":
    unittest.main()
