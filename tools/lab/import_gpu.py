"""What a GPU server's session handed back (python3 -m tools.gpu.session run OUT), into the lab:

- each chunk-SEED.tar.xz into LAB/data/teacher-NODES, checked as a shared chunk is (it unpacks,
  its datagen log names NODES and CHUNK_GAMES, training.check_chunk passes) and marked done, so
  that every run of the recipe skips it; a chunk the lab has already is left as it is; a damaged
  one is refused with its name (exit 1 at the end, after the others);
- the network: its checkpoint (the weights alone) into LAB/gpu/NAME/, exported here with the
  engine's LibTorch (the GPU's export is for a newer one) and checked against zhbot on a chunk
  in the recipe's input format (the session trained in it), beside the GPU's own export and the
  session's report.

  python3 -m tools.lab.import_gpu FOLDER [--nodes N --chunk-games G (the recipe's)] [--zhbot Z]
"""
import argparse
import glob
import os
import re
import shutil
import sys

from tools.zhtools import ROOT, chunk_import, input_format, lab, recipe
from tools.zhtools.steps import StepFailed, step


def import_chunks(folder, data, nodes, games):
    """The folder's chunk archives into `data`; the archives refused."""
    refused = []
    for archive in sorted(glob.glob(os.path.join(folder, "chunk-*.tar.xz"))):
        found = re.fullmatch(r"chunk-(\d+)\.tar\.xz", os.path.basename(archive))
        if not found:
            continue
        seed = int(found.group(1))
        verdict = []

        def take(log):
            ok, message = chunk_import.import_chunk(archive, data, seed, games, nodes)
            log.write(message + "\n")
            verdict.append(message)
            if not ok:
                raise StepFailed(message)
        try:
            step(data, "chunk-%d" % seed, take, what="import " + archive)
        except StepFailed:
            refused.append(archive)
        if verdict:
            print(verdict[0])
    return refused


def import_network(folder, ckpt, data, zhbot, fmt):
    """The checkpoint `ckpt` into LAB/gpu/NAME/, exported here and checked on the lab's first
    chunk (its held-out games)."""
    name = os.path.basename(ckpt)[:-len(".ckpt")]
    target = os.path.join(lab.lab_dir(), "gpu", name)
    os.makedirs(target, exist_ok=True)
    shutil.copy(ckpt, os.path.join(target, name + ".ckpt"))
    for src, dst in ((name + ".pt", name + ".gpu-export.pt"),
                     ("gpu-session.md", "gpu-session.md")):
        if os.path.isfile(os.path.join(folder, src)):
            shutil.copy(os.path.join(folder, src), os.path.join(target, dst))
    chunks = sorted(d for d in glob.glob(os.path.join(data, "chunk-*")) if os.path.isdir(d))
    if not chunks:
        raise SystemExit("import_gpu: no chunk in %s to check the export on" % data)
    net = os.path.join(target, name + ".pt")
    check_data = input_format.formatted(chunks[0], fmt, zhbot)
    step(target, "export", [sys.executable, "-m", "training.export",
                            os.path.join(target, name + ".ckpt"), net, "--data", check_data,
                            "--zhbot", zhbot, "--name", name])
    print("network %s: %s (exported here, checked against zhbot)" % (name, net))


def main(argv=None):
    r = recipe.load_recipe()
    p = argparse.ArgumentParser(prog="python3 -m tools.lab.import_gpu", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("folder", help="what the session handed back")
    recipe.add_recipe_options(p, r, only=("nodes", "chunk_games", "input_format"))
    p.add_argument("--zhbot", default=os.path.join(ROOT, "build/default/bot/zhbot"))
    args = p.parse_args(argv)
    data = lab.teacher_dir(args.nodes)
    os.makedirs(data, exist_ok=True)
    refused = import_chunks(args.folder, data, args.nodes, args.chunk_games)
    try:
        for ckpt in sorted(glob.glob(os.path.join(args.folder, "*.ckpt"))):
            import_network(args.folder, ckpt, data, args.zhbot, args.input_format)
    except StepFailed as e:
        raise SystemExit(str(e))
    if refused:
        print("import_gpu: refused %s" % " ".join(refused), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
