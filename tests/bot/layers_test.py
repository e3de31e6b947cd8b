"""The bot's folders keep their order: each folder of bot/ is a library (bot/CMakeLists.txt,
zh_bot_library) that names the folders it uses, and may include only from those and the folders
they use in turn. The link refuses a call that runs back up the layers; this test refuses the
include itself, header-only code included, and names the file and the line.

Usage: python3 -m unittest tests.bot.layers_test, with ZH_BOT_LAYERS naming the bot-layers.txt
that the configure step wrote (one line a folder: "folder:used used ...")."""
import os
import re
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
INCLUDE = re.compile(r'^\s*#\s*include\s+"bot/([a-z_]+)/')
# Folders that are programs, not libraries: they may use every library.
PROGRAMS = {"cli", "gpu_probe"}


def read_layers(path):
    """{folder: set of the folders it names in USES}."""
    layers = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.strip():
                folder, _, uses = line.strip().partition(":")
                layers[folder] = set(uses.split())
    return layers


def reachable(layers, folder):
    """The folders `folder` may include from: itself, what it uses, and so on down."""
    seen, todo = {folder}, [folder]
    while todo:
        for used in layers.get(todo.pop(), ()):
            if used not in seen:
                seen.add(used)
                todo.append(used)
    return seen


def cycle(layers):
    """A list of folders that use each other in a ring, or None."""
    state = {}

    def visit(folder, path):
        state[folder] = "open"
        for used in sorted(layers.get(folder, ())):
            if state.get(used) == "open":
                return path[path.index(used):] + [used]
            if used not in state:
                found = visit(used, path + [used])
                if found:
                    return found
        state[folder] = "done"
        return None

    for folder in sorted(layers):
        if folder not in state:
            found = visit(folder, [folder])
            if found:
                return found
    return None


def wrong_includes(layers, root=ROOT):
    """'file:line: folder includes bot/other/' for every include that runs up the layers."""
    wrong = []
    top = os.path.join(root, "bot")
    for folder in sorted(os.listdir(top)):
        if folder in PROGRAMS or not os.path.isdir(os.path.join(top, folder)):
            continue
        allowed = reachable(layers, folder)
        for name in sorted(os.listdir(os.path.join(top, folder))):
            if not name.endswith((".h", ".cpp")):
                continue
            path = os.path.join(top, folder, name)
            with open(path, encoding="utf-8") as f:
                for number, line in enumerate(f, 1):
                    match = INCLUDE.match(line)
                    if match and match.group(1) not in allowed:
                        wrong.append("bot/%s/%s:%d: %s includes bot/%s/" % (
                            folder, name, number, folder, match.group(1)))
    return wrong


class BotLayers(unittest.TestCase):
    def setUp(self):
        path = os.environ.get("ZH_BOT_LAYERS")
        if not path:
            self.skipTest("ZH_BOT_LAYERS is not set (ctest sets it)")
        self.layers = read_layers(path)

    def test_every_source_folder_is_a_library(self):
        top = os.path.join(ROOT, "bot")
        folders = {d for d in os.listdir(top) if os.path.isdir(os.path.join(top, d))
                   and any(n.endswith(".cpp") for n in os.listdir(os.path.join(top, d)))}
        self.assertEqual(folders - PROGRAMS, set(self.layers))

    def test_no_folder_uses_a_folder_that_uses_it(self):
        self.assertIsNone(cycle(self.layers))

    def test_no_include_runs_up_the_layers(self):
        self.assertEqual([], wrong_includes(self.layers))


class TheCheckItself(unittest.TestCase):
    """The check fails where it must: a ring, and an include from a folder not used."""

    def test_a_ring_is_found(self):
        self.assertEqual(["a", "b", "a"], cycle({"a": {"b"}, "b": {"a"}}))
        self.assertIsNone(cycle({"a": {"b"}, "b": set()}))

    def test_what_a_folder_may_include_is_what_it_uses_all_the_way_down(self):
        layers = {"desk": {"ledger"}, "ledger": {"game"}, "game": set(), "daemon": {"desk"}}
        self.assertEqual({"desk", "ledger", "game"}, reachable(layers, "desk"))
        self.assertNotIn("daemon", reachable(layers, "desk"))

    def test_an_include_from_above_is_named_with_its_file_and_line(self):
        import tempfile
        with tempfile.TemporaryDirectory() as root:
            os.makedirs(os.path.join(root, "bot", "desk"))
            os.makedirs(os.path.join(root, "bot", "daemon"))
            with open(os.path.join(root, "bot", "desk", "d.h"), "w") as f:
                f.write('#pragma once\n#include "bot/daemon/x.h"\n')
            layers = {"desk": set(), "daemon": {"desk"}}
            self.assertEqual(["bot/desk/d.h:2: desk includes bot/daemon/"],
                             wrong_includes(layers, root))
            self.assertEqual([], wrong_includes({"desk": {"daemon"}, "daemon": set()}, root))


if __name__ == "__main__":
    unittest.main()
