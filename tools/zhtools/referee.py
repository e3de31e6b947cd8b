"""The rules of a game as an independent referee sees them: Fairy-Stockfish lists the legal
moves and says whether the side to move is in check, never zhbot. Game end follows lichess's
crazyhouse rules (docs/crazyhouse-rules.md): checkmate and stalemate count drops, fivefold
repetition is a draw, and there is no 50-move rule and no insufficient material."""
from collections import Counter, namedtuple

from .fairy import FairyStockfish

# What the referee says about a position: legal moves, FEN, side to move ("w"/"b"), check.
State = namedtuple("State", "legal fen side in_check")


class Referee:
    def __init__(self, path=None):
        self.engine = FairyStockfish(name="referee", path=path)

    def state(self, position):
        """The State of a `position ...` command."""
        legal = self.engine.legal_moves(position)
        fen, in_check = self.engine.describe(position)
        return State(legal, fen, fen.split()[1], in_check)

    def quit(self):
        self.engine.quit()


class Repetitions:
    """How often each position occurred: board with pockets, side, castling, en passant."""

    def __init__(self):
        self.seen = Counter()

    def add(self, fen):
        key = " ".join(fen.split()[:4])
        self.seen[key] += 1
        return self.seen[key]


def loss_for(side):
    """The result when `side` ("w" or "b") loses."""
    return "0-1" if side == "w" else "1-0"


def game_end(state, occurrences, plies, max_plies):
    """(result, reason) when the game is over in `state`, else None. `occurrences` is how often
    this position has now occurred; a game still running at `max_plies` is adjudicated a
    draw."""
    if not state.legal:
        return (loss_for(state.side), "checkmate") if state.in_check else ("1/2-1/2", "stalemate")
    if occurrences >= 5:
        return "1/2-1/2", "fivefold repetition"
    if plies >= max_plies:
        return "1/2-1/2", "ply cap"
    return None
