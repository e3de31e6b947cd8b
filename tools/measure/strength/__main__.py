"""The strength ladder: colour-balanced matches from balanced openings, refereed by
Fairy-Stockfish's own move list (never by zhbot), with Elo and a 95% interval.

  python3 -m tools.measure.strength match  --a zhbot:backend=torch,model=models/X.pt \\
      --b fsf:nodes=1000 --games 20 --tc 1+1 [--out FILE.jsonl]
  python3 -m tools.measure.strength sprt   --a zhbot:NAME=VALUE,nodes=1000 --b zhbot:nodes=1000 \\
      --elo0 0 --elo1 20 [--elo-model normalized|logistic] [--max-pairs N] [--out FILE.jsonl]
  python3 -m tools.measure.strength ladder --a zhbot:... --tc 1+1 --games 20 [--dir DIR]
  python3 -m tools.measure.strength report [--dir DIR]
  python3 -m tools.measure.strength losses --out FILE.jsonl --a SPEC [--judge-depth D]

Results live in the lab folder outside the checkout by default ($ZHBOT_LAB, else
/var/tmp/zhbot-lab): a match in <lab>/strength/matches/, an SPRT in <lab>/strength/sprt/, the
ladder in <lab>/strength/ladder/.

Engine specs:
  zhbot[:NAME=VALUE,...]  `zhbot uci` with those engine options (always Threads 1 for the search
                          and nn_threads 1: one core per side), ponder off; nodes=N or depth=D
                          bound every move instead of the clock (equal work for two networks)
  fsf[:nodes=N|depth=D|skill=S|bin=PATH]  Fairy-Stockfish 11.1, Threads 1, Hash 16; nodes/depth
                          bound every move, skill sets its Skill Level (clock-limited), bin plays
                          another build (the lab's teacher build, say)
Each opening is played twice, colours swapped. Clocks are kept here, in lichess notation
(1+1: one minute on each clock plus one second a move); a side whose clock runs out loses.
Results are appended to a JSONL file as games finish, so an interrupted match resumes where it
stopped (the games not yet in the file are played). --concurrency N plays N games at once, each
with its own referee: ponder is off, so a game keeps one core busy (its side to move); give
every game a core. Illegal moves, time forfeits and crashes are counted and must be 0. Lichess
crazyhouse rules: mate, stalemate, fivefold repetition; no 50-move rule; a game still running at
--max-plies is adjudicated a draw.

sprt plays game pairs until the sequential test decides (docs/strength.md, "Sequential tests")
and exits 0 when it accepts H1 (a is elo1 or more stronger), 3 when it accepts H0 (elo0 or
less), 4 when --max-pairs pairs ended without a verdict; 1 on an error, 2 on a bad option.
"""
import argparse
import os
import sys

from tools.zhtools import ROOT
from tools.zhtools.lab import lab_path
from tools.zhtools.timecontrol import TC_HELP

from . import ladder, losses, report, runner, sprt, sprt_match


def options():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("command", choices=["match", "sprt", "ladder", "report", "losses"])
    ap.add_argument("--a", default="zhbot", help="the engine measured (spec)")
    ap.add_argument("--b", help="its opponent (match, sprt)")
    ap.add_argument("--zhbot", default=os.path.join(ROOT, "build", "default", "bot", "zhbot"))
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--tc", default="1+1", help=TC_HELP)
    ap.add_argument("--max-plies", type=int, default=400)
    ap.add_argument("--openings", default=runner.DEFAULT_OPENINGS)
    ap.add_argument("--more-openings", action="append", default=[],
                    help="sprt: a further openings file, played after --openings' (repeatable): "
                    "a test whose node-bounded sides ran out of openings goes on, its pairs kept")
    ap.add_argument("--out", help="results file (match, sprt; default: <lab>/strength/matches/ "
                    "or <lab>/strength/sprt/A--B--TC.jsonl; losses: the file to read)")
    ap.add_argument("--dir", help="the ladder's results (ladder, report; default: "
                    "<lab>/strength/ladder)")
    ap.add_argument("--confirm-tc", default="3+2", help="the confirmation's --tc (%s)" % TC_HELP)
    ap.add_argument("--markdown", action="store_true", help="report as a Markdown table")
    ap.add_argument("--concurrency", type=int, default=1,
                    help="games played at once; give each a core (its side to move searches)")
    ap.add_argument("--elo0", type=float, help="sprt: the difference of H0 (Elo of --elo-model)")
    ap.add_argument("--elo1", type=float, help="sprt: the difference of H1")
    ap.add_argument("--elo-model", default="normalized", choices=sprt.MODELS,
                    help="sprt: the Elo of the bounds (default normalized, as fishtest)")
    ap.add_argument("--alpha", type=float, default=0.05,
                    help="sprt: the chance of accepting H1 when H0 holds")
    ap.add_argument("--beta", type=float, default=0.05,
                    help="sprt: the chance of accepting H0 when H1 holds")
    ap.add_argument("--max-pairs", type=int,
                    help="sprt: stop without a verdict after this many pairs (default: none)")
    ap.add_argument("--judge-depth", type=int,
                    help="losses: Fairy-Stockfish judges each of the side's positions at this "
                    "depth: where it first saw the game lost, and the side's lag behind it")
    return ap.parse_args()


def main():
    args = options()
    if args.concurrency < 1:
        raise SystemExit("--concurrency %d: want at least 1 game at a time" % args.concurrency)
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    openings = runner.load_openings(args.openings)

    if args.command in ("match", "sprt") and not args.b:
        raise SystemExit("%s needs --b" % args.command)
    if args.command == "match":
        out = args.out or runner.default_results_file("matches", args.a, args.b, args.tc)
        results = runner.run_match(args.a, args.b, args.games, args.tc, out, args.zhbot,
                                   openings, args.max_plies, concurrency=args.concurrency)
        print(report.describe_match(results, args.a, args.b))
        return
    if args.command == "sprt":
        if args.elo0 is None or args.elo1 is None:
            raise SystemExit("sprt needs --elo0 and --elo1")
        if args.max_pairs is not None and args.max_pairs < 1:
            raise SystemExit("--max-pairs %d: want at least 1 pair" % args.max_pairs)
        test = sprt.Sprt(args.elo0, args.elo1, args.alpha, args.beta, args.elo_model)
        out = args.out or runner.default_results_file("sprt", args.a, args.b, args.tc)
        more = [runner.load_openings(path) for path in args.more_openings]
        code, _ = sprt_match.run_sprt(args.a, args.b, test, args.tc, out, args.zhbot, openings,
                                      args.max_plies, args.max_pairs, args.concurrency,
                                      log=runner.log_line, more_openings=more)
        sys.exit(code)
    if args.command == "losses":
        if not args.out:
            raise SystemExit("losses needs --out (a match's results file)")
        losses.print_losses(runner.load_results(args.out), args.a, args.judge_depth)
        return
    folder = args.dir or lab_path("strength", "ladder")
    if args.command == "report":
        if args.markdown:
            print("| opponent | time control | games | score | Elo [95%] "
                  "| illegal / time / crash |")
            print("|---|---|---|---|---|---|")
        for b, results in ladder.report(folder, args.a):
            print(report.markdown_row(results, args.a, b) if args.markdown
                  else "%-8s %s" % (results[0]["tc"], report.describe(results, args.a, b)))
        return
    ladder.run_ladder(args.a, folder, args.games, args.tc, args.confirm_tc, args.zhbot,
                      openings, args.max_plies, args.concurrency)


if __name__ == "__main__":
    main()
