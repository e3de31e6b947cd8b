"""A UCI engine as a child process, spoken to line by line."""
import subprocess


class EngineError(RuntimeError):
    """The engine process ended, or answered something the caller cannot use."""


class UciEngine:
    """One UCI process. `name` only labels errors and logs; `argv` starts the engine, with
    `env` as its environment when given (else this process's)."""

    def __init__(self, name, argv, env=None):
        self.name = name
        try:
            self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=subprocess.DEVNULL, text=True, bufsize=1,
                                         env=env)
        except OSError as e:
            raise EngineError("%s: cannot start %s (%s)" % (name, argv[0], e)) from e

    def send(self, line):
        try:
            self.proc.stdin.write(line + "\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, ValueError) as e:
            raise EngineError("%s exited" % self.name) from e

    def read_until(self, prefix):
        """Reads lines up to and including the first one starting with `prefix`; returns
        (that line, every line read)."""
        lines = []
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise EngineError("%s exited" % self.name)
            line = line.rstrip("\n")
            lines.append(line)
            if line.startswith(prefix):
                return line, lines

    def sync(self):
        """Waits until the engine has handled everything sent so far; returns what it said
        meanwhile."""
        self.send("isready")
        return self.read_until("readyok")[1]

    def handshake(self, options=(), variant="crazyhouse"):
        """`uci`, the variant, then each (name, value) option; waits until the engine is
        ready and returns what it said after `uciok` (warnings about its options, say)."""
        self.send("uci")
        self.read_until("uciok")
        if variant:
            self.send("setoption name UCI_Variant value %s" % variant)
        for name, value in options:
            self.send("setoption name %s value %s" % (name, value))
        return self.sync()

    def new_game(self):
        self.send("ucinewgame")
        self.sync()

    def quit(self):
        try:
            self.send("quit")
            self.proc.wait(timeout=5)
        except Exception:  # a hung or already dead engine: make sure it is gone
            self.proc.kill()
            self.proc.wait()
        for stream in (self.proc.stdin, self.proc.stdout):
            try:
                stream.close()
            except OSError:  # the pipe broke with the process
                pass


def position_command(fen=None, moves=()):
    """`position startpos|fen F [moves ...]`."""
    base = "position fen %s" % fen if fen else "position startpos"
    return base + (" moves " + " ".join(moves) if moves else "")


def bestmove_of(line):
    """(move, ponder move or None) of a `bestmove` line."""
    parts = line.split()
    if len(parts) < 2 or parts[0] != "bestmove":
        raise EngineError("not a bestmove line: %r" % line)
    return parts[1], (parts[3] if len(parts) >= 4 and parts[2] == "ponder" else None)


def option_pairs(texts):
    """NAME=VALUE strings (command-line options) as (name, value) pairs."""
    pairs = []
    for text in texts:
        name, sep, value = text.partition("=")
        if not sep or not name:
            raise ValueError("option %r: want NAME=VALUE" % text)
        pairs.append((name, value))
    return pairs
