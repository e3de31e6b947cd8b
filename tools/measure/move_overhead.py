"""Move overhead of the daemon, from its own logs: for every move it played, the time from
receiving the opponent's move line to sending our move POST, minus the search itself (the
`overhead X ms` of each `played` line; zhbot also exports it as zhbot_move_overhead_ms).

    python3 -m tools.measure.move_overhead LOG [LOG ...]

Prints the count, median, p90, p99 and maximum in milliseconds. A move made at the start of a
game (nothing received yet) or after a reconnect counts like any other.
"""
import re
import statistics
import sys

PLAYED = re.compile(r"\] played \S+ \(.*overhead ([0-9.]+) ms")


def quantile(sorted_values, q):
    if not sorted_values:
        return float("nan")
    i = min(len(sorted_values) - 1, max(0, int(round(q * (len(sorted_values) - 1)))))
    return sorted_values[i]


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    values = []
    for path in sys.argv[1:]:
        with open(path, encoding="utf-8", errors="replace") as f:
            for line in f:
                m = PLAYED.search(line)
                if m:
                    values.append(float(m.group(1)))
    if not values:
        sys.exit("move_overhead: no 'played' lines in " + ", ".join(sys.argv[1:]))
    values.sort()
    print(f"moves {len(values)}: median {statistics.median(values):.2f} ms, "
          f"p90 {quantile(values, 0.90):.2f} ms, p99 {quantile(values, 0.99):.2f} ms, "
          f"max {values[-1]:.2f} ms")


if __name__ == "__main__":
    main()
