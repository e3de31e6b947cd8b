"""The lab's TOML settings files (the recipe, the SPRT queue): read, and checked key by key, so a
file that lacks a setting, holds another type or a key nobody reads is refused by name."""
import tomllib


def read_toml(path, where, error):
    """The file's table; `error` (an exception class) saying, after `where`, why it cannot be
    read."""
    try:
        with open(path, "rb") as f:
            return tomllib.load(f)
    except (OSError, tomllib.TOMLDecodeError) as e:
        raise error("%s: %s" % (where, e)) from e


def check_table(table, fields, where, error, also=()):
    """Refuses (with `error`, naming `where`) a `table` missing one of `fields` ({key: type or
    tuple of types}; a bool is never a number), or holding a key neither there nor in `also`."""
    for key, kind in fields.items():
        if not isinstance(table.get(key), kind) or isinstance(table.get(key), bool):
            raise error("%s: %s is missing or not a %s" % (where, key, getattr(
                kind, "__name__", "number")))
    unknown = sorted(set(table) - set(fields) - set(also))
    if unknown:
        raise error("%s: unknown setting(s) %s" % (where, ", ".join(unknown)))
