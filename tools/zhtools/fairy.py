"""Fairy-Stockfish (Debian's package: 11.1 at /usr/games/fairy-stockfish) as a UCI process
playing crazyhouse: perft, the position as it sees it, and searches with their scores."""
import os
from collections import namedtuple

from .uci import UciEngine

# ZHBOT_FAIRY points the tools at another build of Fairy-Stockfish.
FAIRY = os.environ.get("ZHBOT_FAIRY", "/usr/games/fairy-stockfish")

# One line of a search: score kind ("cp" or "mate"), its value for the side to move, first move.
Line = namedtuple("Line", "kind value move")


class FairyStockfish(UciEngine):
    def __init__(self, options=(), name="fairy-stockfish", path=None):
        super().__init__(name, [path or FAIRY])
        self.handshake(options)

    def perft(self, position, depth):
        """{move: count} at `depth` and the total for a `position ...` command."""
        self.send(position)
        self.send("go perft %d" % depth)
        last, lines = self.read_until("Nodes searched")
        counts = {}
        for line in lines[:-1]:
            move, sep, count = line.partition(":")
            if sep and count.strip().isdigit():
                counts[move.strip()] = int(count)
        return counts, int(last.split(":")[1])

    def legal_moves(self, position):
        """The set of legal moves (UCI text, drops as `P@e4`) of a `position ...` command."""
        return set(self.perft(position, 1)[0])

    def describe(self, position):
        """(FEN, whether the side to move is in check) of a `position ...` command."""
        self.send(position)
        self.send("d")
        _, lines = self.read_until("Checkers:")
        fen = next(line for line in lines if line.startswith("Fen:"))[4:].strip()
        checkers = lines[-1][len("Checkers:"):].strip()
        return fen, bool(checkers)

    def search(self, position, limit, multipv=1):
        """Searches a `position ...` command with `go LIMIT`; returns (best move, [Line] best
        first, as the last complete info line of each rank reported)."""
        self.send("setoption name MultiPV value %d" % multipv)
        self.send(position)
        self.send("go " + limit)
        best, lines = self.read_until("bestmove")
        by_rank = {}
        for line in lines:
            w = line.split()
            if "score" not in w or "pv" not in w or "bound" in line:
                continue
            rank = int(w[w.index("multipv") + 1]) if "multipv" in w else 1
            at = w.index("score")
            by_rank[rank] = Line(w[at + 1], int(w[at + 2]), w[w.index("pv") + 1])
        return best.split()[1], [by_rank[k] for k in sorted(by_rank)]
