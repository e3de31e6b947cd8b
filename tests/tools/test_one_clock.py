"""One clock everywhere: in engine/ and bot/, only engine/util/clock.h and clock.cpp read a
std::chrono clock. Everything else asks a Clock (an injected one where tests drive the logic on
a fake clock, the process's steady_clock() where it only measures), so a new direct read that a
fake clock could not move is refused here with its file and line. Timed waits and sleeps go
through the Clock too, except in the few files that pace real work (REAL_TIME, each with its
reason): there a fake clock has nothing to stand in for."""
import os
import re
import tempfile
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
# A std::chrono clock named for anything but its time_point or duration type (an alias for it
# reads it too), or its now() called unqualified.
CHRONO_CLOCK = r"(steady|system|high_resolution)_clock"
READ = re.compile(r"\bchrono::%s\b(?!::(time_point|duration)\b)|(?<![\w:])%s::now\b"
                  % (CHRONO_CLOCK, CHRONO_CLOCK))
CLOCK_FILES = {os.path.join("engine", "util", name) for name in ("clock.h", "clock.cpp")}
# A sleep, or a condition variable's timed wait (a Clock's own wait_until is called on a
# clock: `clock_.wait_until(lock, cv, deadline, wake)`).
WAIT = re.compile(r"\bstd::this_thread::sleep_(for|until)\b"
                  r"|\b(?!clock_?(\.|->))\w+(\.|->)wait_(for|until)\(")
REAL_TIME = {
    "engine/util/child_process.cpp": "polls a child process for its exit",
    "engine/nn/backends/sim.cpp": "the simulated device takes real time, as a GPU would",
    "engine/search/root_prover.cpp": "paces the prover to its share of a core",
    "engine/search/search_workers.cpp": "search threads hand work to each other",
    "engine/cli/nnbench_command.cpp": "a benchmark runs for real seconds",
    "engine/datagen/datagen.cpp": "the progress report polls the workers",
    "bot/metrics/metrics.cpp": "waits for the HTTP server's thread to listen",
    "bot/game/game_session.cpp": "the worker polls the move sender's POST between its tasks",
}


def sources(root):
    """(path relative to root, lines) of every C++ file of engine/ and bot/."""
    for top in ("engine", "bot"):
        for folder, _, names in sorted(os.walk(os.path.join(root, top))):
            for name in sorted(names):
                if name.endswith((".h", ".cpp")):
                    path = os.path.join(folder, name)
                    with open(path, encoding="utf-8") as f:
                        yield os.path.relpath(path, root), f.read().splitlines()


def findings(pattern, skipped, root):
    """'file:line: text' for every line of code (comments aside) that `pattern` matches, in the
    files of engine/ and bot/ outside `skipped`."""
    found = []
    for relative, lines in sources(root):
        if relative not in skipped:
            found += ["%s:%d: %s" % (relative, number, line.strip())
                      for number, line in enumerate(lines, 1)
                      if pattern.search(line.split("//")[0])]
    return sorted(found)


def direct_waits(root=ROOT):
    """Every sleep or timed wait outside the Clock, the clock's files and REAL_TIME."""
    return findings(WAIT, CLOCK_FILES | set(REAL_TIME), root)


def direct_reads(root=ROOT):
    """Every read of a std::chrono clock outside the clock's files."""
    return findings(READ, CLOCK_FILES, root)


class OneClock(unittest.TestCase):
    def test_only_the_clock_reads_the_time(self):
        self.assertEqual([], direct_reads())

    def test_only_the_clock_waits_outside_the_real_time_pacers(self):
        self.assertEqual([], direct_waits())
        for path in REAL_TIME:  # an entry outlives neither its file nor its last wait
            self.assertTrue(os.path.exists(os.path.join(ROOT, path)), path)

    def test_a_direct_wait_is_named_and_a_clock_wait_is_not(self):
        with tempfile.TemporaryDirectory() as root:
            os.makedirs(os.path.join(root, "bot", "daemon"))
            with open(os.path.join(root, "bot", "daemon", "loop.cpp"), "w") as f:
                f.write("std::this_thread::sleep_for(kPause);\n"
                        "cv_.wait_for(lock, kTick, [] { return true; });\n"
                        "clock_.wait_until(lock, cv_, deadline, wake);\n"
                        "clock_.sleep_for(kPause, cancel_);\n"
                        "cv_.wait(lock);  // std::this_thread::sleep_for in a comment\n")
            self.assertEqual(["bot/daemon/loop.cpp:1: std::this_thread::sleep_for(kPause);",
                              "bot/daemon/loop.cpp:2: cv_.wait_for(lock, kTick, [] { return "
                              "true; });"], direct_waits(root))

    def test_a_direct_read_is_named_and_a_comment_is_not(self):
        with tempfile.TemporaryDirectory() as root:
            os.makedirs(os.path.join(root, "bot", "daemon"))
            os.makedirs(os.path.join(root, "engine", "util"))
            with open(os.path.join(root, "bot", "daemon", "loop.cpp"), "w") as f:
                f.write("// std::chrono::steady_clock::now() is not read here\n"
                        "auto t = std::chrono::system_clock::now();\n"
                        "using Clock = std::chrono::steady_clock;\n"
                        "std::chrono::steady_clock::time_point a_type_is_fine;\n"
                        "auto u = zh::steady_clock().now();\n")
            with open(os.path.join(root, "engine", "util", "clock.h"), "w") as f:
                f.write("return std::chrono::steady_clock::now();\n")
            self.assertEqual(
                ["bot/daemon/loop.cpp:2: auto t = std::chrono::system_clock::now();",
                 "bot/daemon/loop.cpp:3: using Clock = std::chrono::steady_clock;"],
                direct_reads(root))


if __name__ == "__main__":
    unittest.main()
