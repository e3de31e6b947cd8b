"""Tactical suites: mate in 1..3, and only-move defence; built from teacher positions,
verified with Fairy-Stockfish, solved by `zhbot uci` at a fixed time per position.

  python3 -m tools.measure.suites make --teacher TEACHER.jsonl.gz --out tools/measure/suites
      (TEACHER: labelled teacher positions, one JSON object a line with fen, cp, mate, ply)
  python3 -m tools.measure.suites make --shards DIR --skip-mate --out tools/measure/suites
      (DIR: `zhbot datagen` shards from a seed no training run uses: games no network learnt)
  python3 -m tools.measure.suites verify --suite tools/measure/suites/defence.epd --out KEPT.epd
      (keeps the defences whose label is still the only move that holds at --verify-depths:
      after a change of the test, or with another Fairy-Stockfish)
  python3 -m tools.measure.suites solve --suite tools/measure/suites/mate.epd \
      --zhbot build/default/bot/zhbot --movetime 1000 [-o backend=torch -o model=models/X.pt]
  python3 -m tools.measure.suites solve --suite tools/measure/suites/defence.epd --nodes 2000 \
      [--results FILE]
      (a fixed node count instead of a time: the same search on a busy machine as on a quiet
      one, so two builds or settings compare at equal nodes; FILE: one line a position)
The deeper suites, mate-long.epd and defence-deep.epd, are made by tools/measure/deep_suites.py
and solved here too; tools/measure/tactics_matrix.sh runs every suite at several node counts and
settings.

mate.epd: positions where the teacher reported mate in n <= 3 for the side to move, kept when
Fairy-Stockfish at depth 16 confirms a mate in exactly n; solved when zhbot's move keeps a
forced mate in at most n (checked with Fairy-Stockfish after the move); a line marked
`accept mate-kept` (mate-long.epd) is solved by a move after which any forced mate remains.
defence.epd: positions where exactly one move holds: Fairy-Stockfish (MultiPV 2) scores the
best move >= -300 cp and the second best as mated, or under -300 cp and --gap (400) cp worse,
with the same best move at every depth of --verify-depths (12,16,18; depth 8 with 3/4 of the
gap picks the candidates first); solved when zhbot plays that move.
"""
import argparse
import gzip
import json
import os
import random

from tools.zhtools.epd import load_epd
from tools.zhtools.fairy import FairyStockfish
from tools.zhtools.uci import UciEngine, bestmove_of, option_pairs, position_command

# A move holds when the side to move keeps at least this score after it.
HOLDS_CP = -300
# The searches in which a longer mate must still be proven after the move played (`accept
# mate-kept`), the shallow one first: a short mate is proven in a moment, and the deep one is
# as deep as the suite's own confirmation, so a kept mate of up to about 10 moves is seen; its
# node cap bounds a move that lost the mate, which a full depth-20 search of a live position
# takes minutes to judge.
KEPT_MATE_SEARCHES = ("depth 10", "depth 20 nodes 4000000")


def search(fsf, fen, limit, multipv=1, moves=()):
    """(best move, [(kind, value, first move)]) of Fairy-Stockfish on `fen` after `moves`."""
    return fsf.search(position_command(fen, moves), limit, multipv)


def teacher_rows(args):
    """Labelled positions as dicts with fen, cp, mate (None when absent), ply, game (a key
    unique to the position's game) and second (the teacher's second line as (cp, mate), None
    when the source has none): from a JSON Lines teacher file, or from `zhbot datagen`
    shards."""
    if args.teacher:
        with gzip.open(args.teacher, "rt") as f:
            rows = [json.loads(line) for line in f]
        for r in rows:
            r["game"], r["second"] = r["g"], None
        return rows
    from training import records  # here: numpy is only needed for this source
    rows = []
    for path in records.list_shards([args.shards]):
        r = records.Shard(path).records
        cp, mate = records.decode_score(r["score"])
        cp2, mate2 = records.decode_score(r["pv_score"][:, 1])
        # Game numbers restart with each datagen run: its folder tells two runs apart.
        run = os.path.dirname(path)
        for i, (fen, c, m, ply) in enumerate(zip(r["fen"], cp, mate, r["ply"])):
            second = (int(cp2[i]), int(mate2[i])) if r["pv_count"][i] >= 2 else None
            rows.append({"fen": fen.decode("ascii"), "cp": None if m else int(c),
                         "mate": int(m) if m else None, "ply": int(ply),
                         "game": (run, int(r["game_id"][i])), "second": second})
    return rows


def make(args):
    rng = random.Random(args.seed)
    rows = teacher_rows(args)
    source = os.path.basename(os.path.normpath(args.teacher or args.shards))
    mates = [r for r in rows if r["mate"] is not None and 1 <= r["mate"] <= 3]
    others = [r for r in rows if r["cp"] is not None and abs(r["cp"]) < 400 and r["ply"] >= 10]
    rng.shuffle(mates)
    rng.shuffle(others)
    fsf = FairyStockfish([("Threads", "1"), ("Hash", "64")])
    os.makedirs(args.out, exist_ok=True)
    counts = {1: 0, 2: 0, 3: 0}
    with open(os.devnull if args.skip_mate else os.path.join(args.out, "mate.epd"), "w") as out:
        out.write("# mate in 1..3 for the side to move: teacher positions (%s), mate distance "
                  "confirmed by Fairy-Stockfish depth 16; seed %d\n# FEN ; mate N ; best MOVE\n"
                  % (source, args.seed))
        for r in ([] if args.skip_mate else mates):
            n = r["mate"]
            if counts[n] >= args.per_mate:
                continue
            best, lines = search(fsf, r["fen"], "depth 16")
            if lines and lines[0][0] == "mate" and lines[0][1] == n:
                out.write("%s ; mate %d ; best %s\n" % (r["fen"], n, best))
                counts[n] += 1
            if all(c >= args.per_mate for c in counts.values()):
                break
    found = 0
    with open(os.path.join(args.out, "defence.epd"), "w") as out:
        out.write(defence_header("positions (%s), seed %d" % (source, args.seed), args))
        for r in others:
            # A quick depth-8 look keeps the few candidates (about 4% of level positions) worth
            # the deep verification.
            if not only_move(search(fsf, r["fen"], "depth 8", multipv=2)[1], args.gap * 3 // 4):
                continue
            best = only_move_at_every_depth(fsf, r["fen"], args.verify_depths, args.gap)
            if best:
                out.write("%s ; best %s\n" % (r["fen"], best))
                out.flush()
                found += 1
                if found >= args.defence:
                    break
    fsf.quit()
    print("mate suite: %s; defence suite: %d positions" % (counts, found))


def only_move_at_every_depth(fsf, fen, depths, gap):
    """The one move that holds at every depth (each a fresh search), or None. A label that one
    depth alone gives is noisy: scores swing by hundreds of centipawns from depth 12 to 16."""
    best = None
    for depth in depths:
        fsf.send("ucinewgame")
        lines = search(fsf, fen, "depth %d" % depth, multipv=2)[1]
        if not only_move(lines, gap) or best not in (None, lines[0][2]):
            return None
        best = lines[0][2]
    return best


def only_move(lines, gap):
    """Whether the best line is the only one that holds: it scores >= HOLDS_CP, and the second
    is mated, or scores under HOLDS_CP and at least `gap` cp under the best. (A second move at
    +500 under a best at +1 000 holds too: that position asks for no defence.)"""
    if (len(lines) < 2 or lines[0][0] != "cp" or lines[0][1] < HOLDS_CP
            or lines[0][2] == lines[1][2]):
        return False
    kind, value, _ = lines[1]
    return (kind == "mate" and value < 0) or (
        kind == "cp" and value < HOLDS_CP and value <= lines[0][1] - gap)


def defence_header(origin, args):
    """The comment lines a defence suite starts with: the test its labels passed, and where its
    positions come from."""
    depths = ",".join(map(str, args.verify_depths))
    return ("# only-move defence: Fairy-Stockfish MultiPV 2 at depths %s scores the same best "
            "move >= %d cp and the second mated, or under %d cp and >= %d cp worse; %s\n"
            "# FEN ; best MOVE\n" % (depths, HOLDS_CP, HOLDS_CP, args.gap, origin))


def verify(args):
    """Writes to --out the positions of a defence suite whose label passes today's test."""
    suite = [e for e in load_epd(args.suite) if "best" in e]
    fsf = FairyStockfish([("Threads", "1"), ("Hash", "64")])
    kept = 0
    with open(args.out, "w") as out:
        out.write(defence_header("the positions of %s that still pass"
                                 % os.path.basename(args.suite), args))
        for e in suite:
            if only_move_at_every_depth(fsf, e["fen"], args.verify_depths, args.gap) == e["best"]:
                out.write("%s ; best %s\n" % (e["fen"], e["best"]))
                out.flush()
                kept += 1
    fsf.quit()
    print("%s: %d of %d labels kept" % (os.path.basename(args.suite), kept, len(suite)))


def solve(args):
    try:
        options = option_pairs(args.option)
    except ValueError as e:
        raise SystemExit(str(e))
    solved, total, missed = solve_suite(args.suite, args.zhbot, options, go_command(args),
                                        args.results)
    print("%s: solved %d of %d (%.1f%%) at %s per position"
          % (os.path.basename(args.suite), solved, total, 100.0 * solved / total,
             "%d nodes" % args.nodes if args.nodes else "%d ms" % args.movetime))
    for m in missed[:20]:
        print("  missed: " + m)


def solve_suite(suite_path, zhbot, options, go, results_path=None):
    """Plays `go` in every position of a suite with `zhbot uci` (one search thread) and the
    (name, value) `options`; returns (solved, total, [what each miss played]). With
    `results_path`, writes one tab-separated line a position: FEN, move played, 1 or 0, the
    label."""
    suite = load_epd(suite_path)
    zh = UciEngine("zhbot", [zhbot, "uci"])
    zh.handshake([("Threads", "1"), ("nn_threads", "1")] + list(options))
    fsf = FairyStockfish([("Threads", "1"), ("Hash", "64")])
    results = open(results_path, "w") if results_path else None
    if results:
        results.write("# %s, %s, options %s\n# FEN\tplayed\tsolved\tlabel\n"
                      % (os.path.basename(suite_path), go,
                         ",".join("%s=%s" % o for o in options) or "none"))
    solved, missed = 0, []
    for e in suite:
        zh.send("ucinewgame")
        zh.send(position_command(e["fen"]))
        zh.send(go)
        move = bestmove_of(zh.read_until("bestmove")[0])[0]
        ok = solves(fsf, e, move)
        solved += ok
        label = "mate %s" % e["mate"] if "mate" in e else "best %s" % e["best"]
        if not ok:
            missed.append("%s (played %s, %s)" % (e["fen"], move, label))
        if results:
            results.write("%s\t%s\t%d\t%s\n" % (e["fen"], move, ok, label))
            results.flush()
    zh.quit()
    fsf.quit()
    if results:
        results.close()
    return solved, len(suite), missed


def solves(fsf, entry, move):
    """Whether `move` solves a suite position. A defence (`best M`): it is M. A mate (`mate N`):
    after the move the opponent is mated (Fairy-Stockfish), in at most N - 1 moves (0: the move
    mates), or, with `accept mate-kept` (the longer mates), in any number of moves that
    Fairy-Stockfish proves in one of KEPT_MATE_SEARCHES (depth 10, else depth 20 within 4 M
    nodes)."""
    if "mate" not in entry:
        return move == entry["best"]
    n, kept = int(entry["mate"]), entry.get("accept") == "mate-kept"
    # A kept mate is looked for shallow first: a mate score is a proof at any depth.
    for limit in KEPT_MATE_SEARCHES if kept else ("depth 14",):
        _, lines = search(fsf, entry["fen"], limit, moves=[move])
        if not lines:
            return n >= 1 and search_is_mate(fsf, entry["fen"], move)
        if lines[0].kind == "mate" and lines[0].value <= 0 and (kept or -lines[0].value <= n - 1):
            return True
    return False


def go_command(args):
    """The `go` of one position: a fixed node count where --nodes is given, else a fixed time."""
    return "go nodes %d" % args.nodes if args.nodes else "go movetime %d" % args.movetime


def search_is_mate(fsf, fen, move):
    """Whether `move` checkmates: no legal reply, and the side to move is in check."""
    position = position_command(fen, [move])
    return not fsf.legal_moves(position) and fsf.describe(position)[1]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("command", choices=["make", "verify", "solve"])
    ap.add_argument("--teacher", help="make: teacher positions, JSON Lines (.jsonl.gz)")
    ap.add_argument("--shards", help="make: `zhbot datagen` shards instead of --teacher")
    ap.add_argument("--out", default="tools/measure/suites")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--per-mate", type=int, default=40, help="positions per mate distance")
    ap.add_argument("--defence", type=int, default=60)
    ap.add_argument("--gap", type=int, default=400, help="defence: second move this much worse")
    ap.add_argument("--skip-mate", action="store_true", help="make the defence suite only")
    ap.add_argument("--verify-depths", default="12,16,18",
                    help="defence: the depths at which the move must be the only one that holds")
    ap.add_argument("--suite")
    ap.add_argument("--zhbot", default="build/default/bot/zhbot")
    ap.add_argument("--movetime", type=int, default=1000)
    ap.add_argument("--nodes", type=int, default=0,
                    help="search each position this many nodes instead of --movetime ms")
    ap.add_argument("-o", "--option", action="append", default=[], help="zhbot option NAME=VALUE")
    ap.add_argument("--results", help="solve: also write one line a position to this file")
    args = ap.parse_args()
    if args.nodes < 0 or args.movetime <= 0:
        ap.error("--nodes must be >= 0 (0: use --movetime) and --movetime > 0")
    try:
        args.verify_depths = [int(d) for d in args.verify_depths.split(",")]
    except ValueError:
        ap.error("--verify-depths: depths separated by commas, e.g. 12,16,18")
    if args.command == "verify" and (not args.suite or args.out == ap.get_default("out")):
        ap.error("verify: give --suite and --out FILE (the positions kept)")
    if args.command == "make" and bool(args.teacher) == bool(args.shards):
        ap.error("make: give exactly one of --teacher and --shards")
    {"make": make, "verify": verify, "solve": solve}[args.command](args)


if __name__ == "__main__":
    main()
