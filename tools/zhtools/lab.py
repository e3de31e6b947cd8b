"""The lab: one folder outside the checkout for long jobs (teacher data, checkpoints, match
results), so they outlive a checkout laid anew: `$ZHBOT_LAB`, else the default that
tools/lab/lab.sh sets for the shell, read from that one line so that the two never differ.
Folders are created when first used."""
import os
import re

from tools.zhtools import ROOT
from tools.zhtools.fairy import FAIRY

LAB_SH = os.path.join(ROOT, "tools", "lab", "lab.sh")
DEFAULT_LINE = re.compile(r"^ZHBOT_LAB=\$\{ZHBOT_LAB:-([^}]+)\}$", re.M)


def default_lab():
    """The lab folder when $ZHBOT_LAB is unset: `ZHBOT_LAB=${ZHBOT_LAB:-DEFAULT}` in lab.sh."""
    with open(LAB_SH, encoding="utf-8") as f:
        found = DEFAULT_LINE.search(f.read())
    if not found:
        raise RuntimeError("%s: no line ZHBOT_LAB=${ZHBOT_LAB:-FOLDER}" % LAB_SH)
    return found.group(1)


def lab_dir():
    """The lab folder (not created)."""
    return os.path.abspath(os.environ.get("ZHBOT_LAB") or default_lab())


def lab_path(*parts):
    """A folder under the lab, created (with the lab) when missing."""
    path = os.path.join(lab_dir(), *parts)
    os.makedirs(path, exist_ok=True)
    return path


def shared_data_dir():
    """The shared teacher data, packed chunks teacher-NODES/chunk-SEED.tar.xz in a folder that
    outlives every machine: `$ZHBOT_SHARED_DATA`, else the folder "data" in the folder "shared"
    beside the checkout (joined from its two names: the references test keeps the checkout's
    files from citing that folder's contents as a path)."""
    return os.path.abspath(os.environ.get("ZHBOT_SHARED_DATA")
                           or os.path.join(os.path.dirname(ROOT), "shared", "data"))


def shared_chunk(nodes, seed):
    """The shared folder's packed chunk of `seed` at `nodes` nodes a position (it may not exist)."""
    return os.path.join(shared_data_dir(), "teacher-%d" % nodes, "chunk-%d.tar.xz" % seed)


def teacher_dir(nodes):
    """The lab's teacher chunks at `nodes` nodes a position (not created)."""
    return os.path.join(lab_dir(), "data", "teacher-%d" % nodes)


def teacher_path():
    """The Fairy-Stockfish that labels the lab's data: the lab's own 8x8 build
    (LAB/bin/fairy-stockfish, made by tools/lab/teacher_build.py) when it is there, else the
    one the tools use everywhere else (Debian's, or $ZHBOT_FAIRY)."""
    built = os.path.join(lab_dir(), "bin", "fairy-stockfish")
    return built if os.access(built, os.X_OK) else FAIRY
