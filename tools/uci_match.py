#!/usr/bin/env python3
"""Play check: `zhbot uci` against Fairy-Stockfish in complete crazyhouse games.

Drives both engines with the commands cutechess-cli sends (uci, setoption UCI_Variant,
ucinewgame, isready, position startpos moves ..., go wtime btime winc binc, and with --ponder
the go ponder / ponderhit / stop cycle), keeps the clocks itself, and referees every move with a
separate Fairy-Stockfish process (zhtools.referee), so the rules come from outside zhbot. A game
ends on mate, stalemate, fivefold repetition, an illegal move, a loss on time or the ply cap
(adjudicated a draw).

Exit status 0 when zhbot made no illegal move and never lost on time.

Example (--tc in lichess notation, as in every tool: 0.25+0.1 is 15 s + 0.1 s a move):
  tools/uci_match.py --zhbot build/default/bot/zhbot --games 4 --tc 0.25+0.1 \\
      --zhbot-option backend=material --zhbot-option threads=1
"""

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from zhtools.fairy import FAIRY  # noqa: E402
from zhtools.referee import Referee, Repetitions, game_end, loss_for  # noqa: E402
from zhtools.timecontrol import TC_HELP, tc_argument  # noqa: E402
from zhtools.uci import UciEngine, bestmove_of, option_pairs, position_command  # noqa: E402


def play_game(zhbot_white, args, referee, zh_opts, fsf_opts, log):
    zh = UciEngine("zhbot", [args.zhbot, "uci"])
    fsf = UciEngine("fairy-stockfish", [FAIRY])
    zh.handshake(zh_opts)
    fsf.handshake(fsf_opts)
    base, inc = args.tc
    clock = {"w": base, "b": base}
    moves, repetitions = [], Repetitions()
    pondering = None  # the move zhbot is pondering on, while it ponders
    for e in (zh, fsf):
        e.new_game()
    zh_stats = {"moves": 0, "think_ms": 0.0, "max_ms": 0.0}
    while True:
        position = position_command(None, moves)
        state = referee.state(position)
        end = game_end(state, repetitions.add(state.fen), len(moves), args.max_plies)
        if end:
            result, reason = end
            break
        side = state.side
        zh_to_move = (side == "w") == zhbot_white
        mover = zh if zh_to_move else fsf
        go = f"go wtime {clock['w']} btime {clock['b']} winc {inc} binc {inc}"
        start = time.monotonic()
        if zh_to_move and pondering is not None:
            if moves[-1] == pondering:
                zh.send("ponderhit")
            else:
                zh.send("stop")
                zh.read_until("bestmove")
                zh.send(position)
                start = time.monotonic()
                zh.send(go)
            pondering = None
        else:
            mover.send(position)
            mover.send(go)
        line, _ = mover.read_until("bestmove")
        elapsed = (time.monotonic() - start) * 1000
        move, ponder = bestmove_of(line)
        clock[side] -= int(elapsed)
        if zh_to_move:
            zh_stats["moves"] += 1
            zh_stats["think_ms"] += elapsed
            zh_stats["max_ms"] = max(zh_stats["max_ms"], elapsed)
        if clock[side] < 0:
            result, reason = loss_for(side), f"{mover.name} lost on time"
            break
        clock[side] += inc
        if move not in state.legal:
            result = loss_for(side)
            reason = f"{mover.name} played illegal move {move} after {' '.join(moves)}"
            break
        moves.append(move)
        if zh_to_move and args.ponder and ponder:
            pondering = ponder
            zh.send(position_command(None, moves + [ponder]))
            zh.send(f"go ponder wtime {clock['w']} btime {clock['b']} winc {inc} binc {inc}")
    if pondering is not None:
        zh.send("stop")
        zh.read_until("bestmove")
    zh.quit()
    fsf.quit()
    log(f"  moves: {' '.join(moves)}")
    return result, reason, len(moves), clock, zh_stats


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
    if args.ponder:
        zh_opts.append(("Ponder", "true"))
    log = (lambda s: None) if args.quiet else (lambda s: print(s, flush=True))
    referee = Referee()
    score = {"zhbot": 0.0, "fairy-stockfish": 0.0}
    failures = 0
    for g in range(args.games):
        zhbot_white = g % 2 == 0
        result, reason, plies, clock, st = play_game(zhbot_white, args, referee, zh_opts,
                                                     fsf_opts, log)
        white, black = ("zhbot", "fairy-stockfish") if zhbot_white else ("fairy-stockfish", "zhbot")
        if result == "1-0":
            score[white] += 1
        elif result == "0-1":
            score[black] += 1
        else:
            score["zhbot"] += 0.5
            score["fairy-stockfish"] += 0.5
        if "zhbot" in reason and ("illegal" in reason or "time" in reason):
            failures += 1
        avg = st["think_ms"] / max(1, st["moves"])
        print(f"game {g + 1}: {white} - {black} {result} ({reason}), {plies} plies, "
              f"clocks left w {clock['w']} ms b {clock['b']} ms, zhbot avg {avg:.0f} ms "
              f"max {st['max_ms']:.0f} ms per move", flush=True)
    referee.quit()
    print(f"score: zhbot {score['zhbot']} - {score['fairy-stockfish']} fairy-stockfish; "
          f"zhbot illegal moves or time losses: {failures}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
