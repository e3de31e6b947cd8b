"""A change to the GPU path, measured against what it replaces on the same GPU in one run: the
engine is built from this checkout (B) and from an exported older tree (A), then nnbench and
zhbot selfplay (one game alone, eight at once) alternate A, B, A, B. Prints the figures into
build/gpu-ab.log (and --out-dir).

  git archive REF | (mkdir -p build/ab-old && tar -x -C build/ab-old)   # here: the old tree
  tools/gpu/gpu_check.sh prepare                                          # here: headers, teacher
  python3 -m tools.gpu.ab build/ab-old                                    # there
"""
import argparse
import os
import re
import shutil
import subprocess
import sys

from tools.zhtools import ROOT, shipped

KEPT = re.compile(r"^( +[0-9]+ |nodes|batch fill|queue wait|capacity)")


def build(tree, folder, carry):
    """Starts the engine's build of `tree` into FOLDER/build with that tree's own GPU check:
    its Python one (tools/gpu/measure.py), or the shell one of a tree from before it."""
    if os.path.exists(os.path.join(tree, "tools", "gpu", "measure.py")):
        argv = [sys.executable, "-m", "tools.gpu.measure", "build", "--dir", folder, "--carry",
                carry]
        env = os.environ
    else:
        argv = ["bash", "tools/gpu/gpu_check.sh", "build"]
        env = dict(os.environ, DIR=folder, CARRY=carry, PYTHON=sys.executable)
    return subprocess.Popen(argv, cwd=tree, env=env, stdout=subprocess.DEVNULL)


def main(argv=None):
    p = argparse.ArgumentParser(prog="python3 -m tools.gpu.ab", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("old", help="the older tree (A)")
    p.add_argument("--batches", default="32,128,512,1024")
    p.add_argument("--precision", default="fp16")
    p.add_argument("--plies", type=int, default=80)
    p.add_argument("--rounds", type=int, default=2)
    p.add_argument("--carry", default=os.path.join(ROOT, "build", "gpu-carry"))
    p.add_argument("--device", default="cuda")
    p.add_argument("--model", help="default: the shipped network")
    p.add_argument("--out-dir", help="where a copy of the log lands")
    args = p.parse_args(argv)
    old = os.path.abspath(args.old)
    if not os.path.isdir(old):
        p.error("%s: no such folder" % old)
    model = os.path.join(ROOT, args.model or shipped.shipped_model())
    carry = os.path.abspath(args.carry)
    folders = {side: os.path.join(ROOT, "build", "ab-" + side.lower()) for side in "AB"}
    # Both builds at once, each tree with its own build folder.
    builds = {"A": build(old, folders["A"], carry), "B": build(ROOT, folders["B"], carry)}
    for side, proc in builds.items():
        if proc.wait():
            raise SystemExit("gpu_ab: the %s tree did not build (%s/build.log)"
                             % ("old" if side == "A" else "new", folders[side]))
    zhbot = {side: os.path.join(folders[side], "build", "engine", "cli", "zhbot") for side in "AB"}
    log_path = os.path.join(ROOT, "build", "gpu-ab.log")
    with open(log_path, "w") as log:
        def say(text):
            print(text)
            log.write(text + "\n")

        def run(argv):
            done = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                  text=True)
            for line in done.stdout.splitlines():
                if KEPT.match(line):
                    say(line)

        say("gpu_ab: A = %s, B = this checkout; %s, %s" % (os.path.relpath(old, ROOT),
                                                           args.device, args.precision))
        for round_ in range(1, args.rounds + 1):
            for side in "AB":
                say("== round %d, %s: nnbench --batch %s" % (round_, side, args.batches))
                run([zhbot[side], "nnbench", "--model", model, "--batch", args.batches,
                     "--device", args.device, "--precision", args.precision, "--seconds", "0.3",
                     "--runs", "2"])
                for games in (1, 8):
                    say("== round %d, %s: selfplay --games %d --threads 4 --plies %d"
                        % (round_, side, games, args.plies))
                    run([zhbot[side], "selfplay", "--games", str(games), "--threads", "4",
                         "--nodes", "800", "--plies", str(args.plies), "-o",
                         "device=" + args.device, "-o", "precision=" + args.precision, "-o",
                         "model=" + model])
    if args.out_dir:
        shutil.copy(log_path, os.path.join(args.out_dir, "gpu-ab.log"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
