"""The search's sequential tests as one queue in the lab (tools/lab/sprt-queue.toml): each test
in turn to its verdict, across sessions, so the settings work goes on wherever it was left. A
test given `max_pairs` pauses there without a verdict and the queue goes on to the next; raising
the number later resumes it where it stopped (the same pairs in the same order, so the verdict is
the one an unpaused test would reach).

  python3 -m tools.lab.sprt_queue [--concurrency N] [--only NAME ...]   # play on
  python3 -m tools.lab.sprt_queue --list                                 # the standing, Markdown
  python3 -m tools.lab.sprt_queue --record       # the standing into sprt-carried.toml, to commit

A test's games are LAB/strength/sprt/NAME.jsonl; a test cut off resumes there, one decided (or
out of openings) is passed over. Each test plays the zhbot it began with: at its first game the
build (--zhbot) is copied into LAB/bin under its content's hash, the shipped networks beside it
(LAB/share/zhbot/models, where that copy looks first), and the copy's name kept in
LAB/strength/sprt/NAME.zhbot. Both sides of every test are bounded by nodes, so the queue may
run beside other work (one core per game: --concurrency N plays N games at once). A lab without
a test's games starts it from the pairs carried in tools/lab/sprt-carried.toml (sprt_carry.py),
so a test outlives the lab that began it."""
import argparse
import hashlib
import os
import shutil
import sys

from tools.lab import sprt_carry
from tools.measure.strength import runner, sprt, sprt_match
from tools.zhtools import ROOT
from tools.zhtools.lab import lab_dir, lab_path
from tools.zhtools.match import bounded, parse_spec
from tools.zhtools.settings_file import check_table, read_toml

QUEUE = os.path.join(ROOT, "tools", "lab", "sprt-queue.toml")
BUILD = os.path.join(ROOT, "build", "default", "bot", "zhbot")
# Each setting of the file and of a test, with its type; a test's own value wins.
SHARED = {"elo0": (int, float), "elo1": (int, float), "openings": str, "more_openings": list}
# Where a test pauses without a verdict (none: it plays to its verdict or the openings' end).
OPTIONAL = ("max_pairs",)
TEST = {"name": str, "a": str, "b": str, **SHARED}
# Every test is one of the file's; the time control only bounds a game that never ends (both
# sides search a fixed number of nodes and do not read the clock).
TC = "1+1"


class QueueError(ValueError):
    pass


def load_queue(path=QUEUE):
    """The tests in order, each a dict with every key of TEST; QueueError naming what is wrong."""
    data = read_toml(path, "queue %s" % path, QueueError)
    unknown = sorted(set(data) - set(SHARED) - set(OPTIONAL) - {"test"})
    if unknown:
        raise QueueError("queue %s: unknown setting(s) %s" % (path, ", ".join(unknown)))
    tests, names = [], set()
    for i, raw in enumerate(data.get("test", [])):
        test = {k: data[k] for k in (*SHARED, *OPTIONAL) if k in data}
        test.update(raw)
        where = "queue %s: test %d (%s)" % (path, i + 1, raw.get("name", "no name"))
        check_table(test, TEST, where, QueueError, also=OPTIONAL)
        for side in ("a", "b"):
            kind, opts = parse_spec(test[side])
            if kind != "zhbot" or not bounded(opts):
                raise QueueError("%s: %s %r is not a zhbot bounded by nodes or depth (the queue "
                                 "runs beside other work)" % (where, side, test[side]))
        if test["name"] in names or os.sep in test["name"]:
            raise QueueError("%s: the name is used twice or holds a %s" % (where, os.sep))
        names.add(test["name"])
        sprt.Sprt(test["elo0"], test["elo1"])  # refuses bad bounds by name
        cap = test.get("max_pairs", 1)
        if not isinstance(cap, int) or isinstance(cap, bool) or cap < 1:
            raise QueueError("%s: max_pairs %r: want a whole number of pairs, at least 1"
                             % (where, cap))
        tests.append(test)
    if not tests:
        raise QueueError("queue %s: no [[test]]" % path)
    return tests


def results_path(test):
    return os.path.join(lab_path("strength", "sprt"), test["name"] + ".jsonl")


def pin_path(test):
    return os.path.join(lab_path("strength", "sprt"), test["name"] + ".zhbot")


def pin_build(build):
    """Copies `build` into LAB/bin under its content's hash (once) and the shipped networks
    beside it; returns the copy's path relative to the lab."""
    if not os.path.isfile(build):
        raise SystemExit("%s: no zhbot to pin; build it (make build) or give --zhbot" % build)
    digest = hashlib.sha256()
    with open(build, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    name = os.path.join("bin", "zhbot-" + digest.hexdigest()[:12])
    target = os.path.join(lab_dir(), name)
    if not os.path.exists(target):
        lab_path("bin")
        shutil.copy2(build, target + ".part")
        os.replace(target + ".part", target)
    models = lab_path("share", "zhbot", "models")
    for model in sprt_carry.shipped_networks():
        if not os.path.exists(os.path.join(models, os.path.basename(model))):
            shutil.copy2(model, os.path.join(models, os.path.basename(model)))
    return name


def pinned_zhbot(test, build):
    """The zhbot `test` plays: the one it began with, else `build` pinned now. A test with games
    but no pinned zhbot is refused: its games came from a binary nobody can name."""
    pin = pin_path(test)
    if not os.path.exists(pin):
        if has_games(test):
            raise SystemExit("%s has games but no pinned zhbot: write the path of the zhbot "
                             "they came from, relative to the lab, into %s"
                             % (test["name"], pin))
        with open(pin + ".part", "w") as f:
            f.write(pin_build(build) + "\n")
        os.replace(pin + ".part", pin)
    with open(pin) as f:
        zhbot = os.path.join(lab_dir(), f.read().strip())
    if not os.access(zhbot, os.X_OK):
        raise SystemExit("%s: the zhbot pinned in %s is gone; the test cannot go on with "
                         "another binary (move its games away to start it again)"
                         % (zhbot, pin))
    return zhbot


def test_openings(test):
    first = runner.load_openings(os.path.join(ROOT, test["openings"]))
    more = [runner.load_openings(os.path.join(ROOT, p)) for p in test["more_openings"]]
    return first, more, sprt_match.opening_order(first, more)


def has_games(test):
    return os.path.exists(results_path(test)) and os.path.getsize(results_path(test)) > 0


def standing(test, carried):
    """(Tally, state) of `test` from the counts it started from and its results file, playing
    nothing; state is "H1 accepted", "H0 accepted", "out of openings", "paused at max_pairs N",
    "playing", "carried" (pairs from another lab, none here yet) or "not begun". `carried`: the
    tracked file's entries, the start of a test this lab has not played."""
    base = sprt_carry.read_base(test)
    here = has_games(test)
    counts = base[0] if base else None if here else carried.get(test["name"], {}).get("pairs")
    tally = sprt_match.Tally(test["a"], sprt.Sprt(test["elo0"], test["elo1"]), counts)
    if here:
        for record in runner.load_results(results_path(test)):
            tally.add(record)
    if tally.verdict:
        return tally, tally.verdict + " accepted"
    if tally.pairs >= len(test_openings(test)[2]):
        return tally, "out of openings"
    if tally.pairs >= test.get("max_pairs", tally.pairs + 1):
        return tally, "paused at max_pairs %d" % test["max_pairs"]
    return tally, "playing" if here else "carried" if tally.pairs else "not begun"


def print_standing(tests, carried):
    print("| test | a | b | pairs [%s] | LLR | normalized Elo (95 %%) | state |"
          % sprt_match.PAIR_NAMES)
    print("|---|---|---|---|---|---|---|")
    for t in tests:
        tally, state = standing(t, carried)
        llr = "%.2f of [%.2f, %.2f]" % (tally.test.llr(tally.counts), tally.test.lower,
                                        tally.test.upper)
        print("| %s | `%s` | `%s` | %d %s | %s | %s | %s |"
              % (t["name"], t["a"], t["b"], tally.pairs, tally.counts, llr,
                 sprt_match.signed_interval(tally.counts), state))


def record(tests, path):
    """The standing of every test this lab played into the tracked file `path`."""
    tallies, pinned = {}, {}
    for t in tests:
        if has_games(t):
            tallies[t["name"]] = standing(t, {})[0]
            pinned[t["name"]] = pinned_zhbot(t, BUILD)
    written = sprt_carry.record(tests, tallies, pinned, lambda t: test_openings(t)[2], path)
    print("%s: %s" % (path, ", ".join("%s %s" % (n, tallies[n].counts) for n in written)
                      if written else "nothing played in this lab; unchanged"))


def play(tests, build, concurrency, max_plies, carried_path=sprt_carry.CARRIED):
    """Plays each test of `tests` in order to its verdict, the end of its openings or its
    max_pairs."""
    for t in tests:
        games_here = has_games(t)
        zhbot = pinned_zhbot(t, build)
        first, more, order = test_openings(t)
        carried = sprt_carry.start(t, zhbot, order, games_here, carried_path)
        pinned = os.path.relpath(zhbot, lab_dir())
        runner.log_line("queue: %s (%s against %s) with %s%s" % (
            t["name"], t["a"], t["b"], pinned,
            ", from %d pairs carried %s" % (sum(carried), carried) if sum(carried) else ""))
        sprt_match.run_sprt(t["a"], t["b"], sprt.Sprt(t["elo0"], t["elo1"]), TC,
                            results_path(t), zhbot, first, max_plies, t.get("max_pairs"),
                            concurrency,
                            log=runner.log_line, more_openings=more, carried=carried)
    runner.log_line("queue: every test decided, out of openings or paused at its max_pairs")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--queue", default=QUEUE, help="the tests (%(default)s)")
    ap.add_argument("--zhbot", default=BUILD, help="the build a test begun now pins")
    ap.add_argument("--only", nargs="+", metavar="NAME", help="these tests only, in queue order")
    ap.add_argument("--list", action="store_true", help="print the standing; play nothing")
    ap.add_argument("--record", action="store_true",
                    help="write the standing into %s (to commit); play nothing"
                    % os.path.relpath(sprt_carry.CARRIED, ROOT))
    ap.add_argument("--carried", default=sprt_carry.CARRIED, help=argparse.SUPPRESS)
    ap.add_argument("--concurrency", type=int, default=1, help="games at once, a core each")
    ap.add_argument("--max-plies", type=int, default=400)
    args = ap.parse_args(argv)
    try:
        tests = load_queue(args.queue)
    except QueueError as e:
        raise SystemExit(str(e))
    if args.only:
        missing = sorted(set(args.only) - {t["name"] for t in tests})
        if missing:
            raise SystemExit("--only: no test named %s in %s" % (", ".join(missing), args.queue))
        tests = [t for t in tests if t["name"] in args.only]
    if args.concurrency < 1:
        raise SystemExit("--concurrency %d: want at least 1 game at a time" % args.concurrency)
    try:
        carried = sprt_carry.load(args.carried)
        if args.list:
            print_standing(tests, carried)
            return 0
        if args.record:
            record(tests, args.carried)
            return 0
        os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
        play(tests, os.path.abspath(args.zhbot), args.concurrency, args.max_plies, args.carried)
    except sprt_carry.CarryError as e:
        raise SystemExit(str(e))
    return 0


if __name__ == "__main__":
    sys.exit(main())
