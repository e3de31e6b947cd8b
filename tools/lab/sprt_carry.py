"""The queue's standing carried from one lab to the next (tools/lab/sprt-carried.toml).

A lab goes when its machine is replaced, and a test of the queue needs more pairs than a
session plays (800 on average at the bounds, docs/strength.md). So `sprt_queue --record` writes
each test's pentanomial into a tracked file, with what identifies the search that played it, and
a lab that holds no games of that test starts from those counts: it plays on from the next
opening and counts them toward the verdict, as fishtest pools the pairs of its many machines.
Pooling is refused unless it is the same test: the same two sides, the same openings (the
carried pairs' openings are the first of the test's order; a set added behind them is fine), and
each side's search and networks the same (its `zhbot bench` signature with the side's options,
and the hash of the network files it loads). What may differ is the machine, and with it the
CPU's arithmetic (`precision: auto`): each entry's `played` lines name the machines its pairs
came from.

The lab keeps the counts it started from in LAB/strength/sprt/NAME.carried, so a later
`--record` adds its own pairs to them once, however often it runs."""
import functools
import glob
import hashlib
import json
import os
import re
import subprocess

from tools.measure.strength.sprt_match import PAIR_NAMES
from tools.zhtools import ROOT, shipped
from tools.zhtools.lab import lab_path
from tools.zhtools.match import GO_LIMITS, parse_spec
from tools.zhtools.settings_file import check_table, read_toml

CARRIED = os.path.join(ROOT, "tools", "lab", "sprt-carried.toml")
ENTRY = {"sides": list, "search": list, "openings": str, "pairs": list, "played": list}
# Spec options that are not the search's: the move's bound, the binary, the network file.
NOT_SEARCH = (*GO_LIMITS, "bin", "model")

HEADER = """\
# The SPRT queue's standing carried from labs that are gone (tools/lab/sprt_carry.py): a lab
# without a test's games plays on from these pairs. Written by
# `python3 -m tools.lab.sprt_queue --record`; pairs are [%s] points for side a.
""" % PAIR_NAMES


class CarryError(ValueError):
    pass


def base_path(test):
    return os.path.join(lab_path("strength", "sprt"), test["name"] + ".carried")


def digest(parts):
    h = hashlib.sha256()
    for part in parts:
        h.update(part if isinstance(part, bytes) else part.encode())
        h.update(b"\0")
    return h.hexdigest()[:12]


def shipped_networks():
    """The networks a build ships (and a pinned copy gets beside it)."""
    return sorted(glob.glob(os.path.join(ROOT, "models", "*.pt")))


@functools.lru_cache(maxsize=None)  # both sides of a test, and every test, share a binary
def default_network(zhbot):
    """The file name `zhbot` loads when given no model= (its UCI option Model's default), or
    None when it names none."""
    try:
        out = subprocess.run([zhbot, "uci"], input="uci\nquit\n", capture_output=True,
                             text=True, timeout=120, check=True).stdout
    except (OSError, subprocess.SubprocessError) as e:
        raise CarryError("%s uci: %s" % (zhbot, e)) from e
    for line in out.splitlines():
        found = re.match(r"option name Model type string default (\S+)$", line.strip())
        if found:
            return found.group(1)
    return None


def default_network_files(zhbot):
    """The files `zhbot` loads by default: its network and the network's int8 twin (which
    `precision: auto` may choose), looked up as engine/nn/model_path.h does for a copied tree
    (beside the binary in ../share/zhbot/models, then the source tree's models/). A pinned build
    shares LAB/share/zhbot/models with later ones, so the folder's other files are not its.
    Every shipped network when the binary names none."""
    name = default_network(zhbot)
    if name is None:
        return shipped_networks()
    here = os.path.dirname(os.path.abspath(zhbot))
    for folder in (os.path.join(here, "..", "share", "zhbot", "models"),
                   os.path.join(ROOT, "models")):
        path = os.path.join(folder, name)
        if os.path.isfile(path):
            twin = shipped.int8_twin(path)
            return [path] + ([twin] if os.path.isfile(twin) else [])
    raise CarryError("%s loads %s, which is in none of its model folders" % (zhbot, name))


def networks(opts, zhbot):
    """The hash of the networks a side loads: its model= file, else the binary's default."""
    paths = [opts["model"]] if "model" in opts else default_network_files(zhbot)
    blobs = []
    for path in paths:
        with open(path, "rb") as f:
            blobs.append(f.read())
    return digest(blobs)


def bench_signature(zhbot, opts):
    """`zhbot bench`'s signature with the side's search options: the search's behaviour."""
    args = [zhbot, "bench", "--quiet"]
    for key, value in sorted(opts.items()):
        if key not in NOT_SEARCH:
            args += ["-o", "%s=%s" % (key, value)]
    try:
        out = subprocess.run(args, capture_output=True, text=True, timeout=600, check=True,
                             stdin=subprocess.DEVNULL).stdout
    except (OSError, subprocess.SubprocessError) as e:
        raise CarryError("%s bench: %s" % (zhbot, e)) from e
    for line in out.splitlines():
        if line.startswith("Signature:"):
            return line.split()[1]
    raise CarryError("%s bench printed no signature" % zhbot)


def search_identity(zhbot, spec):
    _, opts = parse_spec(spec)
    return "bench %s, networks %s" % (bench_signature(zhbot, opts), networks(opts, zhbot))


def load(path=CARRIED):
    """{test name: entry}, each entry checked; CarryError naming what is wrong."""
    if not os.path.exists(path):
        return {}
    data = read_toml(path, "carried standing %s" % path, CarryError)
    for name, entry in data.items():
        where = "carried standing %s: [%s]" % (path, name)
        if not isinstance(entry, dict):
            raise CarryError("%s: not a table" % where)
        check_table(entry, ENTRY, where, CarryError)
        pairs = entry["pairs"]
        if len(pairs) != 5 or not all(isinstance(n, int) and n >= 0 for n in pairs):
            raise CarryError("%s: pairs wants five counts, got %s" % (where, pairs))
    return data


def read_base(test):
    """(counts, played lines) this lab started `test` from, or None."""
    if not os.path.exists(base_path(test)):
        return None
    with open(base_path(test)) as f:
        base = json.load(f)
    return base["pairs"], base["played"]


def write_base(test, counts, played):
    with open(base_path(test) + ".part", "w") as f:
        json.dump({"pairs": counts, "played": played}, f)
    os.replace(base_path(test) + ".part", base_path(test))


def start(test, zhbot, order, has_games, path=CARRIED):
    """The counts `test` starts from in this lab: those it started from before; none when its
    games began here without any; else the tracked file's, once the same test is checked to be
    the one that played them (CarryError says what differs)."""
    base = read_base(test)
    if base:
        return base[0]
    entry = load(path).get(test["name"])
    if has_games or not entry:
        write_base(test, [0] * 5, [])
        return [0] * 5
    where = "%s: the standing carried in %s" % (test["name"], path)
    sides = [test["a"], test["b"]]
    if entry["sides"] != sides:
        raise CarryError("%s was played by %s, not %s" % (where, entry["sides"], sides))
    played_on = digest(order[:sum(entry["pairs"])])
    if entry["openings"] != played_on:
        raise CarryError("%s was played on other openings (%s, here %s)"
                         % (where, entry["openings"], played_on))
    for side, spec, carried in zip("ab", sides, entry["search"]):
        here = search_identity(zhbot, spec)
        if here != carried:
            raise CarryError("%s: side %s's search differs (%s there, %s here); remove the entry "
                             "to begin the test again" % (where, side, carried, here))
    write_base(test, entry["pairs"], entry["played"])
    return entry["pairs"]


def cpu_name():
    """The machine as the played lines name it: the CPU's model name, family and model."""
    info = {}
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                key, _, value = line.partition(":")
                info.setdefault(key.strip(), value.strip())
    except OSError:
        return "an unknown CPU"
    return "%d-core %s (family %s, model %s)" % (os.cpu_count() or 0, info.get("model name", "?"),
                                                 info.get("cpu family", "?"),
                                                 info.get("model", "?"))


def precision_line(zhbot):
    """The precision zhbot's `auto` takes on this machine now, as its load line says (it times
    the formats at each start, so the games may have differed where two ran close)."""
    try:
        err = subprocess.run([zhbot, "analyse", "--nodes", "1"], capture_output=True, text=True,
                             stdin=subprocess.DEVNULL, timeout=600).stderr
    except (OSError, subprocess.SubprocessError):
        err = ""
    found = re.search(r"nn: loaded \S+ on cpu \((\w+) \(auto\)", err)
    return "precision auto: %s at the record" % (found.group(1) if found else "not known")


def record(tests, tallies, pinned, order_of, path=CARRIED):
    """Writes every test's standing into `path`: a test this lab played, its counts here (the
    carried ones included) and one played line for this lab's own pairs; any other entry as it
    was. `tallies` and `pinned` map a test's name to its Tally and zhbot (tests played here
    only); `order_of(test)` is its opening order. Returns the names written from this lab."""
    entries = load(path)
    written = []
    for t in tests:
        tally = tallies.get(t["name"])
        if tally is None or tally.pairs == 0:
            continue
        counts, played = read_base(t) or ([0] * 5, [])
        own = [n - c for n, c in zip(tally.counts, counts)]
        lines = list(played)
        if sum(own):
            machine = "%s, %s" % (cpu_name(), precision_line(pinned[t["name"]]))
            lines.append("%d pairs %s on a %s" % (sum(own), own, machine))
        entries[t["name"]] = {
            "sides": [t["a"], t["b"]],
            "search": [search_identity(pinned[t["name"]], spec) for spec in (t["a"], t["b"])],
            "openings": digest(order_of(t)[:tally.pairs]), "pairs": list(tally.counts),
            "played": lines}
        written.append(t["name"])
    with open(path + ".part", "w") as f:
        f.write(HEADER)
        for name, e in entries.items():
            f.write("\n[%s]\n" % json.dumps(name))
            for key in ENTRY:
                f.write("%s = %s\n" % (key, json.dumps(e[key])))
    os.replace(path + ".part", path)
    return written
