"""tools/lab/sprt_queue.py: the tests played in the queue's order, each with the zhbot it began
with (pinned into the lab under its content's hash), a test finished passed over, a later build
pinned only by a test begun after it, a test whose binary cannot be named refused, the standing
listed without playing, a bad queue file refused by name, a test's standing carried from a
lab that is gone into a new one (only for the same search), and a side known by the network
files its binary loads. Games are played for real: a
scripted zhbot that answers every position with an illegal move, Fairy-Stockfish the referee."""
import contextlib
import io
import os
import shutil
import sys
import tempfile
import unittest

from tests.tools.test_strength import FAKE_ENGINE, fake_zhbot
from tests.tools.tool_process import scripted_engine
from tools.lab import sprt_carry, sprt_queue
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


class Lab:
    """A lab in a temporary folder, the queue file and its two opening sets."""

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


class Queue(Lab, unittest.TestCase):
    def test_each_test_in_order_with_the_zhbot_it_began_with(self):
        log = self.run_queue()
        # Node-bounded sides play each opening once: 2 pairs, then 1, then the queue ends.
        self.assertEqual(len(self.games("first")), 4)
        self.assertEqual(len(self.games("second")), 2)
        self.assertLess(log.index("queue: first"), log.index("queue: second"))
        self.assertIn("every test decided, out of openings or paused at its max_pairs", log)
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

    def test_a_test_pauses_at_max_pairs_and_resumes_when_it_is_raised(self):
        with open(self.queue, "w") as f:
            f.write(TWO_TESTS.replace('name = "first"', 'name = "first"\nmax_pairs = 1')
                    % (self.two, self.one))
        log = self.run_queue()
        # One pair of the first test's two openings, then the queue goes on to the second.
        self.assertEqual((len(self.games("first")), len(self.games("second"))), (2, 2))
        self.assertIn("no verdict within 1 pairs", log)
        rows = {line.split(" | ")[0].strip("| "): line
                for line in self.run_queue("--list").splitlines()[2:]}
        self.assertTrue(rows["first"].endswith("| paused at max_pairs 1 |"), rows["first"])
        # A run with the same cap plays nothing more.
        self.run_queue("--only", "first")
        self.assertEqual(len(self.games("first")), 2)
        # Raised, the test resumes from its second opening with the binary it began with.
        pin = self.pinned("first")
        with open(self.queue, "w") as f:
            f.write(TWO_TESTS.replace('name = "first"', 'name = "first"\nmax_pairs = 2')
                    % (self.two, self.one))
        self.run_queue("--only", "first")
        self.assertEqual(sorted(g["game"] for g in self.games("first")), [0, 1, 2, 3])
        self.assertEqual(self.pinned("first"), pin)

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
                  "want elo0 < elo1"),
                 (TWO_TESTS.replace("elo1 = 20", "elo1 = 20\nmax_pairs = 0")
                  % (self.two, self.one), "max_pairs 0: want a whole number of pairs"),
                 (TWO_TESTS.replace('name = "second"', 'name = "second"\nmax_pairs = "9"')
                  % (self.two, self.one), "max_pairs '9': want a whole number of pairs"))
        for text, why in cases:
            with open(self.queue, "w") as f:
                f.write(text)
            with self.assertRaises(SystemExit, msg=why) as e:
                self.run_queue("--list")
            self.assertIn(why, str(e.exception))


# The scripted zhbot, also answering `zhbot bench`: its signature stands for the search, here the
# script's own text and the options it was given, so another build is another search.
BENCH_ENGINE = FAKE_ENGINE.replace("import sys\n", """import hashlib, sys
if sys.argv[1:2] == ["bench"]:
    text = open(sys.argv[0]).read() + " ".join(sys.argv[2:])
    print("Nodes searched: 1")
    print("Signature: " + hashlib.sha256(text.encode()).hexdigest()[:16])
    sys.exit(0)
""", 1)


class Carried(Lab, unittest.TestCase):
    def setUp(self):
        super().setUp()
        self.engine = scripted_engine(self, BENCH_ENGINE)
        self.carried = os.path.join(self.work, "carried.toml")

    def in_lab(self, name):
        os.environ["ZHBOT_LAB"] = os.path.join(self.work, name)

    def run_queue(self, *args, engine=None):
        return super().run_queue("--carried", self.carried, *args, engine=engine)

    def rows(self):
        table = self.run_queue("--list")
        return {line.split(" | ")[0].strip("| "): line for line in table.splitlines()[2:]}

    def test_a_new_lab_plays_on_from_the_pairs_carried(self):
        self.in_lab("gone")
        self.run_queue("--only", "first")
        self.assertIn("first [0, 0, 2, 0, 0]", self.run_queue("--record"))
        with open(self.carried) as f:
            text = f.read()
        self.assertIn('played = ["2 pairs [0, 0, 2, 0, 0] on a ', text)

        # A new lab, the test given a third opening behind its two: the carried pairs are
        # listed, then only the third pair is played here (games 4 and 5).
        self.in_lab("new")
        text = TWO_TESTS % (self.two, self.one)
        text = text.replace('b = "zhbot:nodes=2"\n', 'b = "zhbot:nodes=2"\nmore_openings = ["%s"]\n'
                            % self.one)
        with open(self.queue, "w") as f:
            f.write(text)
        self.assertIn("| 2 [0, 0, 2, 0, 0] |", self.rows()["first"])
        self.assertTrue(self.rows()["first"].endswith("| carried |"))
        log = self.run_queue("--only", "first")
        self.assertIn("from 2 pairs carried [0, 0, 2, 0, 0]", log)
        self.assertEqual(sorted(r["game"] for r in self.games("first")), [4, 5])
        self.assertIn("| 3 [0, 0, 3, 0, 0] |", self.rows()["first"])
        self.assertTrue(self.rows()["first"].endswith("| out of openings |"))

        # The record adds this lab's own pair once, however often it runs.
        for _ in range(2):
            self.run_queue("--record")
            entry = sprt_carry.load(self.carried)["first"]
            self.assertEqual(entry["pairs"], [0, 0, 3, 0, 0])
            self.assertEqual(len(entry["played"]), 2)
            self.assertTrue(entry["played"][1].startswith("1 pairs [0, 0, 1, 0, 0] on a "))
        self.assertNotIn("second", sprt_carry.load(self.carried))

    def test_pairs_of_another_search_or_other_sides_are_not_pooled(self):
        self.in_lab("gone")
        self.run_queue("--only", "first")
        self.run_queue("--record")
        with open(self.queue) as f:
            original = f.read()
        for change, why in (("engine", "side a's search differs"),
                            ("sides", "was played by")):
            self.in_lab("new-" + change)
            if change == "engine":  # another build: another bench signature
                with open(self.engine, "a") as f:
                    f.write("# another search\n")
            else:
                with open(self.queue, "w") as f:
                    f.write(original.replace("zhbot:nodes=2", "zhbot:nodes=2,cpuct_init=2"))
            with self.assertRaises(SystemExit) as e:
                self.run_queue("--only", "first")
            self.assertIn(why, str(e.exception))
            self.assertEqual(self.games("first"), [])
            with open(self.queue, "w") as f:
                f.write(original)

    def test_a_damaged_carried_file_is_refused_by_name(self):
        with open(self.carried, "w") as f:
            f.write('[first]\nsides = []\nsearch = []\nopenings = "x"\npairs = [1, 2]\n'
                    'played = []\n')
        with self.assertRaises(SystemExit) as e:
            self.run_queue("--list")
        self.assertIn("[first]: pairs wants five counts", str(e.exception))


# A scripted zhbot that names its default network, as zhbot's UCI option Model does.
NAMING_ENGINE = FAKE_ENGINE.replace(
    'if cmd == "uci": print("uciok", flush=True)',
    'if cmd == "uci": print("option name Model type string default net-a.pt\\nuciok", flush=True)')


class NetworkIdentity(unittest.TestCase):
    """A pinned build shares LAB/share/zhbot/models with the builds pinned after it: its games
    are told apart by the network it loads, not by what else lies in that folder."""

    def setUp(self):
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        self.models = os.path.join(tmp.name, "share", "zhbot", "models")
        os.makedirs(self.models)
        os.makedirs(os.path.join(tmp.name, "bin"))
        self.engine = os.path.join(tmp.name, "bin", "zhbot-pinned")
        with open(self.engine, "w") as f:
            f.write(NAMING_ENGINE % sys.executable)
        os.chmod(self.engine, 0o755)

    def put(self, name, data):
        with open(os.path.join(self.models, name), "wb") as f:
            f.write(data)

    def test_a_side_is_known_by_the_network_its_binary_loads(self):
        self.put("net-a.pt", b"a")
        first = sprt_carry.networks({}, self.engine)
        self.put("net-b.pt", b"b")  # a later build's network beside it: not this side's
        self.assertEqual(sprt_carry.networks({}, self.engine), first)
        self.put("net-a-int8.pt", b"a8")  # its int8 twin, which precision: auto may load
        with_twin = sprt_carry.networks({}, self.engine)
        self.assertNotEqual(with_twin, first)
        self.put("net-a.pt", b"another a")
        self.assertNotEqual(sprt_carry.networks({}, self.engine), with_twin)
        # model= names the file itself.
        other = sprt_carry.networks({"model": os.path.join(self.models, "net-b.pt")}, self.engine)
        self.assertEqual(other, sprt_carry.digest([b"b"]))

    def test_a_network_in_none_of_its_folders_is_an_error(self):
        with self.assertRaises(sprt_carry.CarryError) as e:
            sprt_carry.networks({}, self.engine)
        self.assertIn("net-a.pt", str(e.exception))


if __name__ == "__main__":
    unittest.main()
