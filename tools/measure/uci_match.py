"""Play check: `zhbot uci` against Fairy-Stockfish in complete crazyhouse games.

Drives both engines with the commands cutechess-cli sends (uci, setoption UCI_Variant,
ucinewgame, isready, position startpos moves ..., go wtime btime winc binc, and with --ponder
the go ponder / ponderhit / stop cycle), keeps the clocks itself, and referees every move with a
separate Fairy-Stockfish process: the game is the strength ladder's (tools.zhtools.match), from
the start position. A game ends on mate, stalemate, fivefold repetition, an illegal move, a loss
on time, a crash or the ply cap (adjudicated a draw). zhbot searches on one thread unless an
--zhbot-option says otherwise.

Exit status 0 when zhbot made no illegal move, never lost on time and never crashed.

Example (--tc in lichess notation, as in every tool: 0.25+0.1 is 15 s + 0.1 s a move):
  python3 -m tools.measure.uci_match --zhbot build/default/bot/zhbot --games 4 --tc 0.25+0.1 \\
      --zhbot-option backend=material --zhbot-option threads=1
"""

import argparse
import sys

from tools.zhtools.match import Player, failure, play_game
from tools.zhtools.referee import Referee
from tools.zhtools.timecontrol import TC_HELP, tc_argument
from tools.zhtools.uci import option_pairs


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--zhbot", required=True)
    ap.add_argument("--games", type=int, default=2)
    ap.add_argument("--tc", type=tc_argument, default="0.25+0.1", help=TC_HELP)
    ap.add_argument("--max-plies", type=int, default=300)
    ap.add_argument("--ponder", action="store_true", help="zhbot ponders (go ponder/ponderhit)")
    ap.add_argument("--zhbot-option", action="append", default=[], help="NAME=VALUE")
    ap.add_argument("--fsf-option", action="append", default=[], help="NAME=VALUE")
    ap.add_argument("--quiet", action="store_true")
    args = ap.parse_args()
    try:
        zh_opts = option_pairs(args.zhbot_option)
        fsf_opts = option_pairs(args.fsf_option)
    except ValueError as e:
        ap.error(str(e))
    referee = Referee()
    score = {"zhbot": 0.0, "fsf": 0.0}
    failures = 0
    for g in range(args.games):
        zh = Player("zhbot", args.zhbot, zh_opts, ponder=args.ponder)
        fsf = Player("fsf", None, fsf_opts)
        zhbot_white = g % 2 == 0
        white, black = (zh, fsf) if zhbot_white else (fsf, zh)
        try:
            (result, reason), moves, clock, move_ms = play_game(white, black, None, args.tc,
                                                                args.max_plies, referee)
        finally:
            zh.quit()
            fsf.quit()
        if not args.quiet:
            print("  moves: " + " ".join(moves), flush=True)
        if result == "1-0":
            score[white.spec] += 1
        elif result == "0-1":
            score[black.spec] += 1
        else:
            score["zhbot"] += 0.5
            score["fsf"] += 0.5
        if failure(reason)[1] == "zhbot":
            failures += 1
        zh_ms = move_ms[0 if zhbot_white else 1::2]  # zhbot's plies, as its clock was charged
        avg = sum(zh_ms) / max(1, len(zh_ms))
        print(f"game {g + 1}: {white.spec} - {black.spec} {result} ({reason}), {len(moves)} "
              f"plies, clocks left w {clock['w']} ms b {clock['b']} ms, zhbot avg {avg:.0f} ms "
              f"max {max(zh_ms, default=0):.0f} ms per move", flush=True)
    referee.quit()
    print(f"score: zhbot {score['zhbot']} - {score['fsf']} fairy-stockfish; "
          f"zhbot illegal moves, time losses or crashes: {failures}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
