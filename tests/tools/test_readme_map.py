"""The README's architecture map names every folder of the two libraries and of tools/, and no
folder that is gone: a newcomer finds the file that decides a thing from the map alone, so the
map must keep up with the tree."""
import os
import re
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))

# A folder named in a box: a word ending in "/" that stands alone ("lichess/", "gpu_probe/").
FOLDER = re.compile(r"(?<![\w/.`])([a-z_]+)/(?=\s)")


def map_folders(readme, library):
    """The folders the map's box for `library` (bot, engine) names."""
    lines = readme.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(" +-- %s/" % library))
    names = set()
    for line in lines[start + 1:]:
        if not line.startswith(" |"):
            break
        names.update(FOLDER.findall(line))
    return names


def tree_folders(library):
    """The folders of `library` that hold sources."""
    top = os.path.join(ROOT, library)
    return {d for d in os.listdir(top) if os.path.isdir(os.path.join(top, d))
            and any(n.endswith((".h", ".cpp")) for n in os.listdir(os.path.join(top, d)))}


def map_tool_folders(readme):
    """The folders the map's tools/ entry names: its line and the indented lines under it."""
    lines = readme.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(" tools/ "))
    names = set(FOLDER.findall(lines[start][len(" tools/"):]))
    for line in lines[start + 1:]:
        if not line.startswith(" " * 12):
            break
        names.update(FOLDER.findall(line))
    return names


def tree_tool_folders():
    top = os.path.join(ROOT, "tools")
    return {d for d in os.listdir(top)
            if os.path.isdir(os.path.join(top, d)) and not d.startswith(("_", "."))}


class ReadmeMap(unittest.TestCase):
    def setUp(self):
        with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as f:
            self.readme = f.read()

    def test_each_library_box_names_exactly_its_folders(self):
        for library in ("bot", "engine"):
            with self.subTest(library=library):
                self.assertEqual(map_folders(self.readme, library), tree_folders(library))

    def test_the_tools_entry_names_exactly_the_tool_folders(self):
        self.assertEqual(map_tool_folders(self.readme), tree_tool_folders())

    def test_the_folder_pattern_reads_a_line_of_several(self):
        self.assertEqual(FOLDER.findall(" |  uci/ tools/ datagen/   UCI front end; /healthz  |"),
                         ["uci", "tools", "datagen"])


if __name__ == "__main__":
    unittest.main()
