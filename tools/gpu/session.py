"""The next network on a rented GPU server, in one run (docs/gpu-training.md): the recipe's
teacher chunks (from seeds the lab has not made) on all cores but two, while the next network
trains on the GPU beside them, warm from the shipped network, on the chunks carried there, for
the session's time. What is worth keeping lands in OUT within the size budget: the packed
chunks, the checkpoint (weights alone), its export and the report; `python3 -m
tools.lab.import_gpu OUT` takes them into the lab here.

  python3 -m tools.gpu.session prepare [options]   here: the carry (tools/gpu/prepare.py)
  (copy the checkout, with the carry inside it, to the server)
  python3 -m tools.gpu.session check [options]     there (seconds): the check, then stops
  python3 -m tools.gpu.session run OUT [options]   there: the check again, then the session
  (copy OUT back; tools/gpu/gpu_session.sh is the same command)
"""
import argparse
import datetime
import glob
import os
import re
import shutil
import subprocess
import sys
import time

from tools.gpu import check as checks
from tools.gpu import prepare as carry
from tools.gpu import settings
from tools.gpu.settings import MIB
from tools.zhtools import ROOT, input_format, recipe


class Session:
    """One run: its clock (seconds since it started), what each step took, what it made."""

    def __init__(self, args, out):
        self.a, self.out = args, out
        self.started = time.monotonic()
        self.timings, self.made = [], []
        self.deadline = args.session_seconds

    def now(self):
        return time.monotonic() - self.started

    def note(self, text):
        self.timings.append(text)

    def path(self, *parts):
        return os.path.join(self.a.dir, *parts)

    def check(self):
        """The check, into DIR/check.log; stops the run (its log copied to OUT) when it fails."""
        t = self.now()
        with open(self.path("check.log"), "w") as log:
            failures, arch, cores = checks.check(self.a, say=lambda line: log.write(line + "\n"))
        if failures:
            with open(self.path("check.log")) as f:
                sys.stdout.write(f.read())
            shutil.copy(self.path("check.log"), self.out)
            raise SystemExit("gpu_session: %d check(s) failed: fix the carry before the run"
                             % failures)
        self.note("check: %d s" % (self.now() - t))
        self.cores = cores
        self.a.train_arch = self.a.train_arch or arch
        self.a.workers = self.a.workers or (cores - 2 if cores > 4 else 2)

    def measure(self):
        t = self.now()
        argv = [sys.executable, "-m", "tools.gpu.measure", "build", "facts", "nnbench", "search",
                "games", "--out-dir", self.out, "--carry", self.a.carry, "--device",
                self.a.device, "--scale", self.a.scale, "--shipped-net", self.a.shipped_net]
        if subprocess.run(argv, cwd=ROOT).returncode:
            print("gpu_session: a measuring stage failed (its section of the report says which)")
        self.note("measuring stages (python3 -m tools.gpu.measure): %d s" % (self.now() - t))

    def unpack_carried(self):
        """The carried chunks unpacked; their positions (a record is 440 bytes after a 128-byte
        header)."""
        t = self.now()
        archives = sorted(glob.glob(os.path.join(self.a.carry, "chunks", "*.tar.xz")))
        unpackers = [subprocess.Popen(["tar", "-xJf", a, "-C", self.path("carried")])
                     for a in archives]
        for p in unpackers:
            p.wait()
        positions = sum((os.path.getsize(f) - 128) // 440 for f in
                        glob.glob(self.path("carried", "**", "*.zhrec"), recursive=True))
        self.note("carried chunks unpacked (%d, %d positions): %d s"
                  % (len(archives), positions, self.now() - t))
        return positions

    def training_data(self):
        """The carried chunks in the recipe's input format: as made (1.0), else each chunk
        re-encoded into DIR/carried-FORMAT (seconds a chunk); None when a re-encoding fails."""
        fmt = self.a.input_format
        if fmt == "1.0":
            return self.path("carried")
        t, out = self.now(), self.path("carried-" + fmt)
        shutil.rmtree(out, ignore_errors=True)
        chunks = sorted(d for d in glob.glob(self.path("carried", "*")) if os.path.isdir(d))
        with open(self.path("reencode.log"), "w") as log:
            for chunk in chunks:
                if not input_format.reencode(os.path.join(self.a.carry, "bin", "zhbot"), chunk,
                                             os.path.join(out, os.path.basename(chunk)), fmt,
                                             log):
                    self.note("re-encoding %s into format %s failed (reencode.log)"
                              % (os.path.basename(chunk), fmt))
                    return None
        self.note("carried chunks re-encoded into format %s: %d s" % (fmt, self.now() - t))
        return out

    def start_training(self, positions):
        a = self.a
        seconds = int(self.deadline - self.now() - a.export_seconds - a.train_start_seconds)
        if positions <= 0 or seconds < a.train_min_seconds:
            self.note("no training: %d carried positions, %d s left" % (positions, seconds))
            return None
        data = self.training_data()
        if data is None:
            return None
        self.data = data
        seconds = int(self.deadline - self.now() - a.export_seconds - a.train_start_seconds)
        argv = [sys.executable, "-m", "training.train", "--data", data, "--out",
                self.path("train"), "--arch", a.train_arch, "--init-from", a.shipped_net,
                "--device", "cuda" if a.device.startswith("cuda") else "cpu", "--threads", "2",
                "--checkpoint-minutes", "1", "--time-budget-minutes", "%.3f" % (seconds / 60)]
        with open(self.path("train.log"), "w") as log:
            trainer = subprocess.Popen(argv + recipe.split_opts(a.train_opts), cwd=ROOT,
                                       stdout=log, stderr=subprocess.STDOUT)
        self.note("training started: %d s of the session left to it" % seconds)
        return trainer

    def room(self, seeds):
        """How many chunks OUT has room for beside the checkpoint, the export (each about the
        shipped network's size) and the reports: files, and MiB at --chunk-mb a chunk."""
        a, room = self.a, len(seeds)
        reports = 3 + (1 if a.measure else 0)
        if a.return_files:
            room = min(room, a.return_files - reports)
        if a.return_mb:
            mb_left = a.return_mb - 1 - 2 * os.path.getsize(a.shipped_net) // MIB
            room = min(room, mb_left // a.chunk_mb)
        return max(room, 0)

    def make_chunk(self, seed, seconds):
        """The recipe's chunk of `seed`, cut off after `seconds`; whether it finished."""
        a = self.a
        out = self.path("datagen", "chunk-%d" % seed)
        shutil.rmtree(out, ignore_errors=True)
        argv = [os.path.join(a.carry, "bin", "zhbot"), "datagen", "--out", out, "--teacher",
                os.path.join(a.carry, "bin", "fairy-stockfish"), "--workers", str(a.workers),
                "--nodes", str(a.nodes), "--games", str(a.chunk_games), "--seed", str(seed),
                "--progress", "30", *recipe.split_opts(a.datagen_opts)]
        with open(out + ".log", "w") as log:
            log.write("== %s zhbot datagen --nodes %d --games %d --seed %d %s\n"
                      % (datetime.datetime.now(datetime.timezone.utc).strftime(
                          "%Y-%m-%dT%H:%M:%SZ"), a.nodes, a.chunk_games, seed, a.datagen_opts))
            log.flush()
            maker = subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT)
            try:
                return maker.wait(timeout=max(seconds, 1)) == 0
            except subprocess.TimeoutExpired:
                maker.terminate()
                maker.wait()
                return False

    def make_chunks(self, seeds):
        """One seed at a time on every worker: a chunk starts only when the last one's time (or
        --first-chunk-seconds) still fits, and is packed for the way back while the next runs."""
        a, packers = self.a, []
        last = a.first_chunk_seconds
        room = self.room(seeds)
        self.note("room in OUT: %d chunk(s)" % room)
        for seed in seeds:
            if len(self.made) >= room:
                break
            if self.now() + last + a.pack_seconds + a.export_seconds > self.deadline:
                break
            t = self.now()
            left = self.deadline - a.export_seconds - a.pack_seconds - t
            if not self.make_chunk(seed, left):
                self.note("chunk-%d: cut off or failed after %d s (not handed back)"
                          % (seed, self.now() - t))
                break
            last = self.now() - t
            self.made.append(seed)
            self.note("chunk-%d: %d s (%s positions)" % (seed, last, written(
                self.path("datagen", "chunk-%d.log" % seed))))
            packers.append(subprocess.Popen(
                ["tar", "-cJf", os.path.join(self.out, "chunk-%d.tar.xz" % seed), "-C",
                 self.path("datagen"), "chunk-%d" % seed, "chunk-%d.log" % seed],
                env=dict(os.environ, XZ_OPT="-T2 -6")))
        for p in packers:
            p.wait()

    def finish_training(self, trainer):
        """The training ends by its own budget; past the deadline it is stopped (it saves the
        step it reached). Then its weights and their export go to OUT."""
        while trainer.poll() is None and self.now() < self.deadline - self.a.export_seconds + 10:
            time.sleep(1)
        if trainer.poll() is None:
            trainer.terminate()
            self.note("training stopped at the deadline")
        if trainer.wait():
            print("gpu_session: training ended with status %d" % trainer.returncode)
        t = self.now()
        name = "gpu-%s-%s" % (self.a.train_arch, datetime.datetime.now(
            datetime.timezone.utc).strftime("%Y%m%d-%H%M"))
        ckpt = os.path.join(self.out, name + ".ckpt")
        with open(self.path("train.log"), "a") as log:
            if slim_checkpoint(self.path("train"), ckpt, log):
                export = [sys.executable, "-m", "training.export", ckpt,
                          os.path.join(self.out, name + ".pt"), "--data", self.data,
                          "--no-check", "--name", name]
                if subprocess.run(export, cwd=ROOT, stdout=log,
                                  stderr=subprocess.STDOUT).returncode:
                    print("gpu_session: export failed")
            else:
                print("gpu_session: no checkpoint to hand back")
        self.note("checkpoint and export: %d s" % (self.now() - t))

    def run(self, seeds):
        for folder in ("carried", "datagen", "train"):
            shutil.rmtree(self.path(folder), ignore_errors=True)
        os.makedirs(self.path("carried"))
        os.makedirs(self.path("datagen"))
        self.check()
        if self.a.measure:
            self.measure()
        trainer = self.start_training(self.unpack_carried())
        self.make_chunks(seeds or checks.read_seeds(os.path.join(self.a.carry, "seeds")))
        if trainer:
            self.finish_training(trainer)
        text = report(self)
        with open(os.path.join(self.out, "gpu-session.md"), "w") as f:
            f.write(text)
        sys.stdout.write(text)


def written(log):
    """The positions a datagen log says it wrote, or "?"."""
    try:
        with open(log, errors="replace") as f:
            found = re.search(r"^positions *(\d+) written", f.read(), re.M)
    except OSError:
        found = None
    return found.group(1) if found else "?"


def slim_checkpoint(run, out, log):
    """The run's best (else last) checkpoint as its weights alone (no optimizer state, no
    history): what the lab exports and measures. False when there is none."""
    import torch
    best = os.path.join(run, "best.ckpt")
    source = best if os.path.exists(best) else os.path.join(run, "last.ckpt")
    if not os.path.exists(source):
        log.write("no checkpoint in %s\n" % run)
        return False
    state = torch.load(source, map_location="cpu")
    torch.save({k: state[k] for k in ("model", "arch", "config", "step", "metrics",
                                      "torch_version") if k in state}, out)
    return True


def report(s):
    """What was made, how long each step took, what comes back (markdown)."""
    a = s.a
    lines = ["# GPU session %s" % datetime.datetime.now(datetime.timezone.utc).strftime(
        "%Y-%m-%dT%H:%M:%SZ"), "",
        "%d cores, %d teacher workers; training %s warm from" % (s.cores, a.workers, a.train_arch),
        "%s on %s (`%s`); chunks of %d games at %d nodes%s." % (
            os.path.basename(a.shipped_net), a.device, a.train_opts, a.chunk_games, a.nodes,
            " (%s)" % a.datagen_opts if a.datagen_opts else ""),
        "", "## Steps", ""]
    lines += ["- " + t for t in s.timings]
    lines += ["", "Seeds made (chunk-SEED.tar.xz, each with its datagen log): %s"
              % (" ".join(map(str, s.made)) or "none"), "", "## Training", "", "```"]
    try:
        with open(s.path("train.log"), errors="replace") as f:
            kept = [x.rstrip("\n") for x in f if re.match(
                r"(warm start|precision|time budget|epoch |resumed|SIG|train:)", x)]
        lines += kept[-12:]
    except OSError:
        pass
    lines += ["```", "", "## Handed back", ""]
    count = size = 0
    for name in sorted(os.listdir(s.out)):
        path = os.path.join(s.out, name)
        if not os.path.isfile(path) or name == "gpu-session.md":
            continue
        count, size = count + 1, size + os.path.getsize(path)
        lines.append("- %s: %d bytes" % (name, os.path.getsize(path)))
        if a.file_mb and os.path.getsize(path) > a.file_mb * MIB:
            lines.append("  OVER the budget's %d MiB a file" % a.file_mb)
    lines.append("- and this report: %d file(s), %d MiB; the budget: --return-files %d, "
                 "--return-mb %d (0: no limit)" % (count + 1, size // MIB, a.return_files,
                                                   a.return_mb))
    return "\n".join(lines) + "\n"


def main(argv=None):
    p = argparse.ArgumentParser(prog="python3 -m tools.gpu.session", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("stage", choices=("prepare", "check", "run"))
    p.add_argument("out", nargs="?", help="run: the folder what comes back lands in")
    settings.add_options(p)
    args = p.parse_args(argv)
    try:
        settings.resolve(args)
    except recipe.RecipeError as e:
        p.error(str(e))
    os.environ["OPENBLAS_NUM_THREADS"] = "1"
    if args.stage == "prepare":
        carry.prepare(args)
        return 0
    os.makedirs(args.dir, exist_ok=True)
    if args.stage == "check":
        failures = checks.check(args)[0]
        if failures:
            raise SystemExit("gpu_session: %d check(s) failed: fix the carry before the run"
                             % failures)
        print("gpu_session: ready")
        return 0
    if not args.out:
        p.error("run needs OUT, the folder what comes back lands in")
    os.makedirs(args.out, exist_ok=True)
    Session(args, os.path.abspath(args.out)).run(args.seeds)
    return 0


if __name__ == "__main__":
    sys.exit(main())
