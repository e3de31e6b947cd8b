"""The GPU session's first check, there, in seconds: PyTorch with CUDA and the shipped network
(whose architecture the warm start must match), the carried headers, teacher and zhbot, a short
teacher game, the seeds, the carried chunks, the disk and the cores. One line an item, `ok` or
`FAILED` with why."""
import glob
import json
import os
import shutil
import subprocess

from tools.gpu.settings import MIB


class Items:
    """The check's lines, printed as they come; `failures` counts the FAILED ones."""

    def __init__(self, say=print):
        self.say, self.failures, self.lines = say, 0, []

    def add(self, what, ok, detail=""):
        detail = " ".join(detail.strip().splitlines()[-1:] if ok else
                          detail.strip().splitlines()[-3:])
        line = ("ok      %s%s" % (what, ": " + detail if detail else "") if ok
                else "FAILED  %s: %s" % (what, detail))
        self.failures += not ok
        self.lines.append(line)
        self.say(line)

    def command(self, what, argv, pick=None, **kw):
        """An item that passes when `argv` succeeds; its detail is the output's last line, or
        the last line starting with `pick`."""
        try:
            done = subprocess.run(argv, capture_output=True, text=True, timeout=120, **kw)
        except (OSError, subprocess.TimeoutExpired) as e:
            self.add(what, False, str(e))
            return ""
        said = done.stdout + done.stderr
        if pick and done.returncode == 0:
            said = "\n".join(x for x in said.splitlines() if x.startswith(pick))
        self.add(what, done.returncode == 0, said)
        return done.stdout


def torch_facts(shipped_net, device):
    """'torch V on WHERE; shipped network ARCH': CUDA computes a product right, and the
    shipped network's architecture."""
    import numpy  # noqa: F401  (the training needs it)
    import torch
    if device.startswith("cuda"):
        assert torch.cuda.is_available(), "torch %s: no CUDA device" % torch.__version__
        x = torch.ones(256, 256, device="cuda")
        assert float((x @ x).sum()) == 256 ** 3, "a wrong product on the GPU"
        where = torch.cuda.get_device_name(0)
    else:
        where = "the CPU (--device %s)" % device
    extra = {"zhbot.json": ""}
    torch.jit.load(shipped_net, map_location="cpu", _extra_files=extra)
    arch = json.loads(extra["zhbot.json"])["architecture"].split()[0]
    return "torch %s on %s; shipped network %s" % (torch.__version__, where, arch), arch


def check(args, say=print):
    """Runs every item; returns (failures, the shipped network's architecture or None, the
    core count)."""
    items, carry, arch = Items(say), args.carry, None
    try:
        line, arch = torch_facts(args.shipped_net, args.device)
        items.add("PyTorch, numpy, the shipped network", True, line)
    except Exception as e:  # whatever stops PyTorch, CUDA or the network: said, not raised
        items.add("PyTorch, numpy, the shipped network", False, "%s: %s" % (type(e).__name__, e))
    for header in ("nlohmann/json.hpp", "CLI/CLI.hpp"):
        path = os.path.join(carry, "prefix", "include", header)
        items.add("carried header " + header, os.path.isfile(path) and os.path.getsize(path) > 0,
                  "" if os.path.isfile(path) else "%s: missing" % path)
    teacher = os.path.join(carry, "bin", "fairy-stockfish")
    zhbot = os.path.join(carry, "bin", "zhbot")
    try:
        said = subprocess.run([teacher], input="uci\nquit\n", capture_output=True, text=True,
                              timeout=10).stdout
        plays = "crazyhouse" in said
        items.add("carried teacher", plays,
                  "crazyhouse" if plays else "%s does not play crazyhouse" % teacher)
    except (OSError, subprocess.TimeoutExpired) as e:
        items.add("carried teacher", False, str(e))
    items.command("carried zhbot", [zhbot, "--version"])
    game = os.path.join(args.dir, "check-datagen")
    shutil.rmtree(game, ignore_errors=True)
    items.command("teacher games (zhbot datagen with the teacher, one short game)",
                  [zhbot, "datagen", "--out", game, "--teacher", teacher, "--workers", "1",
                   "--games", "1", "--nodes", "20", "--max-plies", "6", "--seed", "1"],
                  pick="positions")
    seeds = read_seeds(os.path.join(carry, "seeds"))
    items.add("seeds to make", bool(seeds), " ".join(map(str, seeds)) or "none in the carry")
    chunks = sorted(glob.glob(os.path.join(carry, "chunks", "*.tar.xz")))
    if not chunks:
        items.add("chunks to train on", False, "none in %s" % os.path.join(carry, "chunks"))
    for path in chunks:
        items.command("chunk " + os.path.basename(path), ["xz", "-t", path])
    disk = os.statvfs(os.path.dirname(args.dir))
    free = disk.f_bavail * disk.f_frsize
    items.add("disk for the chunks (%g GiB)" % args.disk_gb, free > args.disk_gb * 1024 * MIB,
              "%d GiB free" % (free // (1024 * MIB)))
    cores = len(os.sched_getaffinity(0))
    items.add("cores", True, str(cores))
    return items.failures, arch, cores


def read_seeds(path):
    try:
        with open(path) as f:
            return [int(w) for w in f.read().split()]
    except (OSError, ValueError):
        return []
