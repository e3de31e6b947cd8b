"""What the tools' tests share: a tool run as its users run it (`python3 -m
tools.<folder>.<name> ARGS` from the checkout's root), and scripted engines that stand in for
zhbot."""
import os
import subprocess
import sys
import tempfile

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


def run_tool(module, *args):
    """Runs `module` (tools.measure.strength, ...) with `args`; the finished process, its
    output captured as text."""
    return subprocess.run([sys.executable, "-m", module, *args], cwd=ROOT, capture_output=True,
                          text=True)


def scripted_engine(test, script):
    """An executable Python engine in a folder removed when `test` ends: `script`, with one %s
    for the interpreter's path, written after `#!`. Its path; it logs what it is told to
    <path>.log when the script says so."""
    tmp = tempfile.TemporaryDirectory()
    test.addCleanup(tmp.cleanup)
    path = os.path.join(tmp.name, "engine")
    with open(path, "w") as f:
        f.write(script % sys.executable)
    os.chmod(path, 0o755)
    return path
