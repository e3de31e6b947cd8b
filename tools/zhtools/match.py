"""One game between two UCI engines, refereed from outside both: the players (zhbot or
Fairy-Stockfish, from an engine spec), the clocks in lichess notation, pondering, and the
game's end under lichess crazyhouse rules. The strength ladder and the play check both play
their games here."""
import time

from tools.zhtools.fairy import FAIRY
from tools.zhtools.referee import Repetitions, game_end, loss_for
from tools.zhtools.uci import EngineError, UciEngine, bestmove_of, position_command


def parse_spec(spec):
    """An engine spec, "zhbot[:NAME=VALUE,...]" or "fsf[:...]", as (kind, options)."""
    kind, _, rest = spec.partition(":")
    opts = dict(kv.split("=", 1) for kv in rest.split(",") if kv) if rest else {}
    if kind not in ("zhbot", "fsf"):
        raise SystemExit("engine spec %r: expected zhbot[:...] or fsf[:...]" % spec)
    return kind, opts


# Spec options that bound a move (`go nodes N`) rather than set an engine option.
GO_LIMITS = ("nodes", "depth")


def bounded(opts):
    """Whether spec options `opts` bound each move by nodes or depth: that side's clock then
    neither runs out nor says anything about its time manager."""
    return any(k in opts for k in GO_LIMITS)


# What zhbot says when its network cannot be loaded and it plays on material alone: a game so
# played measures nothing about the settings under test, so a match refuses to start it.
FALLBACK_WARNING = "FALLING BACK TO THE MATERIAL EVALUATOR"

# Lines of a zhbot engine's output that the game record keeps.
WARNING_LINES = ("info string WARNING", "info string error", "info string search error")


def score_of(info):
    """'cp 35' or 'mate -3' from a UCI info line."""
    words = info.split()
    i = words.index("score")
    return " ".join(words[i + 1:i + 3])


class Player:
    """One side of a game: a UCI process and how to ask it for a move.

    A zhbot side searches on one core (Threads 1, nn_threads 1) unless `options` say otherwise;
    with `ponder` it thinks on the reply it expects while the other side moves (go ponder, then
    ponderhit or stop), as a GUI drives it. `options` ((name, value) pairs) come last, so they
    win over the spec's."""

    def __init__(self, spec, zhbot, options=(), ponder=False):
        self.spec = spec
        self.last_lines, self.failed = [], False  # the last move's output; an illegal move
        self.warnings = []  # what the engine flagged during the game (a repaired defect, ...)
        self.scores = []  # [ply, "cp 35" or "mate -3"]: its last reported score of each move
        self.last_score = None
        self.ponders, self.pondering, self.ponder_move = ponder, None, None
        self.kind, self.opts = parse_spec(spec)
        if self.kind == "zhbot":
            # bin=PATH plays another zhbot binary (a build before a change, say) than `zhbot`.
            self.engine = UciEngine(spec, [self.opts.get("bin", zhbot), "uci"])
            handshake = [("Threads", "1"), ("nn_threads", "1"),
                         ("Ponder", "true" if ponder else "false")]
            handshake += [(k, v) for k, v in self.opts.items() if k not in GO_LIMITS + ("bin",)]
        else:
            # bin=PATH plays another build of Fairy-Stockfish (the lab's teacher build, say).
            self.engine = UciEngine(spec, [self.opts.get("bin", FAIRY)])
            handshake = [("Threads", "1"), ("Hash", "16")]
            if "skill" in self.opts:
                handshake.append(("Skill Level", self.opts["skill"]))
        said = self.engine.handshake(handshake + list(options))
        if self.kind == "zhbot":
            fallback = [line for line in said if FALLBACK_WARNING in line]
            if fallback:
                self.engine.quit()
                raise EngineError(
                    "%s cannot load its network and would play on material alone (%s); "
                    "give it the model (model=PATH in the spec, or ZHBOT_MODEL_DIR): %s"
                    % (spec, fallback[0], " | ".join(said[:-1])))

    def go_command(self, clock, inc, ponder=False):
        go = "go ponder" if ponder else "go"
        limit = next((k for k in GO_LIMITS if k in self.opts), None)
        if limit:
            return "%s %s %s" % (go, limit, self.opts[limit])
        return "%s wtime %d btime %d winc %d binc %d" % (go, clock["w"], clock["b"], inc, inc)

    def go(self, position, clock, inc):
        """The move the engine plays in `position` (a `position` command)."""
        e = self.engine
        if self.pondering == position:
            e.send("ponderhit")  # the expected reply came: the ponder search goes on as a real one
        else:
            self.stop_pondering()
            e.send(position)
            e.send(self.go_command(clock, inc))
        self.pondering = None
        line, lines = e.read_until("bestmove")
        self.last_lines = lines[-30:]  # kept for the record of an illegal move
        self.warnings += [w for w in lines if w.startswith(WARNING_LINES)]
        self.last_score = next((score_of(w) for w in reversed(lines) if " score " in w), None)
        move, self.ponder_move = bestmove_of(line)
        return move

    def ponder(self, position, clock, inc):
        """Thinks on `position` (the game after the expected reply) until the next go."""
        self.engine.send(position)
        self.engine.send(self.go_command(clock, inc, ponder=True))
        self.pondering = position

    def stop_pondering(self):
        if self.pondering is None:
            return
        self.pondering = None
        self.engine.send("stop")
        self.engine.read_until("bestmove")  # the ponder search's answer, not a move

    def new_game(self):
        """A new game for this engine: `ucinewgame`, and what a record keeps of a game starts
        empty (an engine is kept for the next game of a match)."""
        self.engine.new_game()
        self.last_lines, self.failed, self.warnings, self.scores = [], False, [], []
        self.last_score, self.pondering, self.ponder_move = None, None, None

    def quit(self):
        self.engine.quit()


def play_game(white, black, opening, clock_ms, max_plies, referee):
    """Plays one game from `opening` (a FEN, or None for the start position) with `clock_ms`
    (base, increment) on each clock. Returns ((result, reason), moves, clocks left, each ply's
    thinking time in ms as the clock charged it). The referee decides legality and the end;
    an engine that crashes, moves illegally or runs out of time loses."""
    base, inc = clock_ms
    clock = {"w": base, "b": base}
    moves, move_ms, repetitions = [], [], Repetitions()

    def ended(end):  # the game as far as it went
        for p in (white, black):
            try:
                p.stop_pondering()
            except EngineError:
                pass  # the engine that crashed is already named in the reason
        return end, moves, clock, move_ms

    for p in (white, black):
        p.new_game()
    while True:
        position = position_command(opening, moves)
        state = referee.state(position)
        end = game_end(state, repetitions.add(state.fen), len(moves), max_plies)
        if end:
            return ended(end)
        side, loser = state.side, loss_for(state.side)
        mover = white if side == "w" else black
        start = time.monotonic()
        try:
            move = mover.go(position, clock, inc)
        except EngineError as e:
            return ended((loser, "crash: %s (%s)" % (mover.spec, e)))
        spent = int((time.monotonic() - start) * 1000)
        move_ms.append(spent)
        clock[side] -= spent
        if clock[side] < 0 and not bounded(mover.opts):
            return ended((loser, "time forfeit: %s" % mover.spec))
        clock[side] += inc
        if move not in state.legal:
            mover.failed = True
            return ended((loser, "illegal move: %s played %s" % (mover.spec, move)))
        if mover.last_score:
            mover.scores.append([len(moves), mover.last_score])
        moves.append(move)
        if mover.ponders and mover.ponder_move:
            try:
                mover.ponder(position_command(opening, moves + [mover.ponder_move]), clock, inc)
            except EngineError as e:
                return ended((loser, "crash: %s (%s)" % (mover.spec, e)))


FAILURES = ("illegal move", "time forfeit", "crash")


def failure(reason):
    """(kind, engine spec) of a failure: "illegal move: SPEC played M", "time forfeit: SPEC",
    "crash: SPEC (why)"; (None, None) for a regular game end. The spec is returned whole, so
    "zhbot" is not blamed for "zhbot:model=..."."""
    kind, sep, spec = reason.partition(": ")
    if not sep or kind not in FAILURES:
        return None, None
    for end in (" played ", " ("):
        spec = spec.split(end, 1)[0]
    return kind, spec
