"""Every reference the repository makes resolves inside it: no file cites the reference
folder or data the project was built from outside the checkout (their facts are restated in
docs/: crazyhouse-rules.md, search-formulas.md, network-io.md), and no file names a path of the
machine it was written on."""
import os
import re
import subprocess
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))

# Written in pieces so that this file does not match itself.
SHARED = "shared" + "/"
OUTSIDE = [
    (re.compile(r"(?<![\w.-])(?:\.\./)*" + SHARED), "the shared folder outside the checkout"),
    (re.compile(r"(?<![\w-])" + "reference" + r"/[\w.-]+\.md"),
     "a reference page outside the repository (restate it under docs/)"),
    (re.compile(r"(?<![\w.])/(?:" + "work|home|root|Users" + r")/"),
     "an absolute path of a development machine"),
]

# Files that are not text (models, images, archives) are not read.
BINARY = (".pt", ".png", ".jpg", ".gz", ".zhrec", ".bin", ".pdf")


def tracked_files():
    """The files of the repository: git's list when this is a checkout, else every file
    outside build/ and hidden folders (a source tarball, an image's copy)."""
    try:
        out = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True,
                             check=True).stdout
        return [f for f in out.decode().split("\0") if f]
    except (OSError, subprocess.CalledProcessError):
        files = []
        for folder, dirs, names in os.walk(ROOT):
            dirs[:] = [d for d in dirs if not d.startswith(".") and d != "build"]
            files += [os.path.relpath(os.path.join(folder, n), ROOT) for n in names]
        return files


def outside_references(text):
    """(line number, matched text, what it is) for every reference outside the repository."""
    found = []
    for number, line in enumerate(text.splitlines(), 1):
        for pattern, what in OUTSIDE:
            for match in pattern.finditer(line):
                found.append((number, match.group(0), what))
    return found


# A Markdown link to a file of the repository: [text](relative/path.md) or (path#anchor).
MARKDOWN_LINK = re.compile(r"\]\(([^)\s#]+)(?:#[^)\s]*)?\)")


def broken_links(path, text):
    """The relative links of a Markdown file that name no file or folder of the checkout."""
    folder = os.path.dirname(os.path.join(ROOT, path))
    return [target for target in MARKDOWN_LINK.findall(text)
            if "://" not in target and not target.startswith("mailto:")
            and not os.path.exists(os.path.normpath(os.path.join(folder, target)))]


# A file a CMakeLists.txt names from the project's root: ${PROJECT_SOURCE_DIR}/engine/x.cpp.
CMAKE_SOURCE = re.compile(r"\$\{PROJECT_SOURCE_DIR\}/([\w./-]+)")


def missing_cmake_sources(text):
    """The paths under ${PROJECT_SOURCE_DIR} that a CMake file names and the checkout lacks.
    Configurations that only CI builds (the fuzz build) list sources by path; a file moved in
    the main build must not leave them naming its old place."""
    return [path for path in CMAKE_SOURCE.findall(text)
            if not os.path.exists(os.path.join(ROOT, path))]


class References(unittest.TestCase):
    def test_the_patterns_catch_what_they_are_for(self):
        for text in ("see ../shared/reference/crazyara.md", "# FEN NOTES (see " + SHARED + "x)",
                     "as reference/crazyhouse-rules.md says", "log in /home/someone/x.txt",
                     "python at /root/.pyenv"):
            self.assertTrue(outside_references(text), text)
        for text in ("docs/crazyhouse-rules.md", "<prefix>/share/zhbot/models",
                     "std::shared_ptr<Node>", "/var/tmp/zhbot-lab", "build/default/bot/zhbot",
                     "docs/search-formulas.md#selection"):
            self.assertFalse(outside_references(text), text)

    def test_no_file_refers_outside_the_repository(self):
        me = os.path.relpath(os.path.abspath(__file__), ROOT)
        problems = []
        for path in tracked_files():
            if path == me or path.endswith(BINARY):
                continue
            try:
                with open(os.path.join(ROOT, path), encoding="utf-8") as f:
                    text = f.read()
            except (UnicodeDecodeError, IsADirectoryError, FileNotFoundError):
                continue  # binary, a submodule, or deleted but not yet committed
            problems += ["%s:%d: %s (%s)" % (path, n, m, what)
                         for n, m, what in outside_references(text)]
        self.assertEqual(problems, [], "\n" + "\n".join(problems))

    def test_a_link_is_read_with_its_anchor_and_web_links_are_left_alone(self):
        self.assertEqual(broken_links("docs/x.md", "[a](strength.md#standing) [b](nowhere.md) "
                                      "[c](https://lichess.org/api) [d](../README.md)"),
                         ["nowhere.md"])

    def test_every_relative_link_of_the_documents_resolves(self):
        problems = []
        for path in tracked_files():
            if not path.endswith(".md") or not os.path.exists(os.path.join(ROOT, path)):
                continue
            with open(os.path.join(ROOT, path), encoding="utf-8") as f:
                problems += ["%s: %s" % (path, t) for t in broken_links(path, f.read())]
        self.assertEqual(problems, [], "\n" + "\n".join(problems))

    def test_a_cmake_path_is_read_from_the_project_root(self):
        self.assertEqual(missing_cmake_sources(
            "add_library(x ${PROJECT_SOURCE_DIR}/engine/log.cpp\n"
            "  ${PROJECT_SOURCE_DIR}/bot/nowhere/gone.cpp)"), ["bot/nowhere/gone.cpp"])

    def test_every_source_a_cmake_file_names_exists(self):
        problems = []
        for path in tracked_files():
            if os.path.basename(path) != "CMakeLists.txt" and not path.endswith(".cmake"):
                continue
            if not os.path.exists(os.path.join(ROOT, path)):
                continue
            with open(os.path.join(ROOT, path), encoding="utf-8") as f:
                problems += ["%s: %s" % (path, m) for m in missing_cmake_sources(f.read())]
        self.assertEqual(problems, [], "\n" + "\n".join(problems))


if __name__ == "__main__":
    unittest.main()
