"""One clock everywhere: in engine/ and bot/, only engine/util/clock.h and clock.cpp read a
std::chrono clock. Everything else asks a Clock (an injected one where tests drive the logic on
a fake clock, the process's steady_clock() where it only measures), so a new direct read that a
fake clock could not move is refused here with its file and line."""
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


def direct_reads(root=ROOT):
    """'file:line: text' for every read of a std::chrono clock outside the clock's files."""
    found = []
    for top in ("engine", "bot"):
        for folder, _, names in os.walk(os.path.join(root, top)):
            for name in sorted(names):
                if not name.endswith((".h", ".cpp")):
                    continue
                path = os.path.join(folder, name)
                relative = os.path.relpath(path, root)
                if relative in CLOCK_FILES:
                    continue
                with open(path, encoding="utf-8") as f:
                    for number, line in enumerate(f, 1):
                        code = line.split("//")[0]
                        if READ.search(code):
                            found.append("%s:%d: %s" % (relative, number, line.strip()))
    return sorted(found)


class OneClock(unittest.TestCase):
    def test_only_the_clock_reads_the_time(self):
        self.assertEqual([], direct_reads())

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
