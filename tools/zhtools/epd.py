"""Position files of the tools (openings, tactical suites): one position a line,
`FEN ; name value ; name value ...`, `#` starts a comment line."""


def load_epd(path):
    """[{"fen": FEN, name: value, ...}] in file order."""
    entries = []
    with open(path) as f:
        for number, line in enumerate(f, 1):
            if not line.strip() or line.startswith("#"):
                continue
            parts = [p.strip() for p in line.split(";")]
            entry = {"fen": parts[0]}
            for part in parts[1:]:
                name, _, value = part.partition(" ")
                if name:
                    entry[name] = value.strip()
            entries.append(entry)
    return entries


def load_fens(path):
    """The FENs of a position file, in order (an opening set's extra fields are ignored)."""
    fens = []
    with open(path) as f:
        for line in f:
            if line.strip() and not line.startswith("#"):
                fens.append(line.split(";")[0].strip())
    return fens
