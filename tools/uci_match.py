#!/usr/bin/env python3
"""Play check: `zhbot uci` against Fairy-Stockfish in complete crazyhouse games.

Drives both engines with the commands cutechess-cli sends (uci, setoption UCI_Variant,
ucinewgame, isready, position startpos moves ..., go wtime btime winc binc, and with --ponder
the go ponder / ponderhit / stop cycle), keeps the clocks itself, and referees every move with a
separate Fairy-Stockfish process (legal moves from `go perft 1`, check and FEN from `d`), so
the rules come from outside zhbot. A game ends on mate, stalemate, fivefold repetition, an
illegal move, a loss on time or the ply cap (adjudicated a draw).

Exit status 0 when zhbot made no illegal move and never lost on time.

Example:
  tools/uci_match.py --zhbot build/default/bot/zhbot --games 4 --tc 10+0.1 \
      --zhbot-option backend=material --zhbot-option threads=1
"""

import argparse
import collections
import subprocess
import sys
import time

FAIRY = "/usr/games/fairy-stockfish"


class Engine:
    def __init__(self, name, argv):
        self.name = name
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, text=True, bufsize=1)

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def read_until(self, prefix):
        lines = []
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError(f"{self.name} exited")
            line = line.rstrip("\n")
            lines.append(line)
            if line.startswith(prefix):
                return line, lines

    def handshake(self, options):
        self.send("uci")
        self.read_until("uciok")
        self.send("setoption name UCI_Variant value crazyhouse")
        for name, value in options:
            self.send(f"setoption name {name} value {value}")
        self.send("isready")
        self.read_until("readyok")

    def quit(self):
        try:
            self.send("quit")
            self.proc.wait(timeout=5)
        except Exception:
            self.proc.kill()


class Referee(Engine):
    """A Fairy-Stockfish process used only to list legal moves and describe positions."""

    def __init__(self):
        super().__init__("referee", [FAIRY])
        self.handshake([])

    def legal_moves(self, moves):
        self.send("position startpos moves " + " ".join(moves))
        self.send("go perft 1")
        _, lines = self.read_until("Nodes searched")
        return {l.split(":")[0] for l in lines if ":" in l and not l.startswith("Nodes")}

    def describe(self, moves):
        self.send("position startpos moves " + " ".join(moves))
        self.send("d")
        _, lines = self.read_until("Checkers:")
        fen = next(l for l in lines if l.startswith("Fen:"))[5:]
        checkers = next(l for l in lines if l.startswith("Checkers:"))[9:].strip()
        return fen, bool(checkers)


def parse_tc(tc):
    base, _, inc = tc.partition("+")
    return int(float(base) * 1000), int(float(inc or 0) * 1000)


def bestmove_of(line):
    parts = line.split()
    return parts[1], (parts[3] if len(parts) >= 4 and parts[2] == "ponder" else None)


def play_game(zhbot_white, args, referee, zh_opts, fsf_opts, log):
    zh = Engine("zhbot", [args.zhbot, "uci"])
    fsf = Engine("fairy-stockfish", [FAIRY])
    zh.handshake(zh_opts)
    fsf.handshake(fsf_opts)
    base, inc = parse_tc(args.tc)
    clock = {"w": base, "b": base}
    moves = []
    seen = collections.Counter()
    pondering = None  # the move zhbot is pondering on, while it ponders
    for e in (zh, fsf):
        e.send("ucinewgame")
        e.send("isready")
        e.read_until("readyok")
    result, reason = None, None
    zh_stats = {"moves": 0, "think_ms": 0.0, "max_ms": 0.0}
    while result is None:
        side = "w" if len(moves) % 2 == 0 else "b"
        legal = referee.legal_moves(moves)
        fen, in_check = referee.describe(moves)
        key = " ".join(fen.split()[:4])
        seen[key] += 1
        if not legal:
            if in_check:
                result, reason = ("0-1" if side == "w" else "1-0"), "checkmate"
            else:
                result, reason = "1/2-1/2", "stalemate"
            break
        if seen[key] >= 5:
            result, reason = "1/2-1/2", "fivefold repetition"
            break
        if len(moves) >= args.max_plies:
            result, reason = "1/2-1/2", "ply cap (adjudicated)"
            break
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
                zh.send("position startpos moves " + " ".join(moves))
                start = time.monotonic()
                zh.send(go)
            pondering = None
        else:
            mover.send("position startpos moves " + " ".join(moves))
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
            result, reason = ("0-1" if side == "w" else "1-0"), f"{mover.name} lost on time"
            break
        clock[side] += inc
        if move not in legal:
            result = "0-1" if side == "w" else "1-0"
            reason = f"{mover.name} played illegal move {move} after {' '.join(moves)}"
            break
        moves.append(move)
        if zh_to_move and args.ponder and ponder:
            pondering = ponder
            zh.send("position startpos moves " + " ".join(moves + [ponder]))
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
    ap.add_argument("--tc", default="10+0.1", help="seconds+increment per side")
    ap.add_argument("--max-plies", type=int, default=300)
    ap.add_argument("--ponder", action="store_true", help="zhbot ponders (go ponder/ponderhit)")
    ap.add_argument("--zhbot-option", action="append", default=[], help="NAME=VALUE")
    ap.add_argument("--fsf-option", action="append", default=[], help="NAME=VALUE")
    ap.add_argument("--quiet", action="store_true")
    args = ap.parse_args()
    zh_opts = [tuple(o.split("=", 1)) for o in args.zhbot_option]
    if args.ponder:
        zh_opts.append(("Ponder", "true"))
    fsf_opts = [tuple(o.split("=", 1)) for o in args.fsf_option]
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
