"""Time controls in lichess notation, the one notation of every tool's --tc: "1+1" is one
minute on each clock plus one second a move, "0.5+0" thirty seconds and no increment."""
import argparse
from collections import namedtuple

TimeControl = namedtuple("TimeControl", "base_ms inc_ms")


def parse_tc(text):
    """TimeControl of lichess notation MINUTES+SECONDS; ValueError saying what is wanted."""
    base, sep, inc = text.partition("+")
    try:
        base_ms, inc_ms = round(float(base) * 60000), round(float(inc) * 1000)
    except ValueError:
        base_ms = inc_ms = -1
    if not sep or base_ms < 0 or inc_ms < 0 or base_ms + inc_ms == 0:
        raise ValueError("time control %r: want MINUTES+SECONDS as on lichess, e.g. 1+1 or "
                         "0.5+0" % text)
    return TimeControl(base_ms, inc_ms)


def tc_argument(text):
    """parse_tc for argparse's `type=`: a bad control is a usage error naming the flag."""
    try:
        return parse_tc(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from e


TC_HELP = "lichess notation: minutes on each clock + seconds a move (1+1, 3+2, 0.25+0.1)"
