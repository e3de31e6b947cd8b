"""The GPU session's carry, made here before the copy: the GPU check's (headers, teacher;
tools/gpu/carry_deps.py), a zhbot without LibTorch for the teacher games (it runs there at
once, while a LibTorch build would take the session's first minutes), the packed chunks to
train on within the travel budget, and the seeds to make."""
import glob
import os
import shutil
import subprocess

from tools.gpu import carry_deps
from tools.gpu.settings import MIB
from tools.zhtools import ROOT, lab


def tree_bytes():
    """The checkout's size as a copy of its files counts it: tracked files and untracked ones
    not ignored (build/ is ignored: the carry is counted apart)."""
    names = subprocess.run(["git", "-C", ROOT, "ls-files", "-z", "--cached", "--others",
                            "--exclude-standard"], capture_output=True, check=True).stdout
    total = 0
    for name in names.decode().split("\0"):
        path = os.path.join(ROOT, name)
        if name and os.path.isfile(path):
            total += os.path.getsize(path)
    return total


def folder_bytes(folder):
    return sum(os.path.getsize(os.path.join(d, f)) for d, _, files in os.walk(folder)
               for f in files if not os.path.islink(os.path.join(d, f)))


def datagen_zhbot(args, target):
    """A stripped zhbot for the teacher games at `target`: --datagen-zhbot, else built here."""
    source = args.datagen_zhbot
    if not source:
        build = os.path.join(ROOT, "build", "gpu-datagen")
        subprocess.run(["cmake", "-S", ROOT, "-B", build, "-DCMAKE_BUILD_TYPE=Release",
                        "-DZH_WITH_TORCH=OFF", "-DZH_BUILD_BOT=OFF", "-DZH_BUILD_TESTS=OFF",
                        "-DZH_ARCH=x86-64-v2",
                        "-DCMAKE_EXE_LINKER_FLAGS=-static-libstdc++ -static-libgcc"],
                       stdout=subprocess.DEVNULL, check=True)
        subprocess.run(["cmake", "--build", build, "--target", "zhbot"], check=True)
        source = os.path.join(build, "engine", "cli", "zhbot")
    subprocess.run(["strip", "-o", target, source], check=True)


def seeds_to_make(args):
    """The recipe's seeds, from the top down, that neither the lab nor the shared folder has:
    the lab makes them from the bottom up, so the two never meet."""
    if args.seeds:
        return list(args.seeds)
    wanted = args.gpu_chunks if args.gpu_chunks is not None else args.recipe_chunks
    seeds = []
    for seed in range(args.recipe_seed + args.recipe_chunks - 1, args.recipe_seed - 1, -1):
        if len(seeds) >= wanted:
            break
        made = os.path.exists(os.path.join(lab.teacher_dir(args.nodes), "chunk-%d.done" % seed))
        shared = os.path.exists(lab.shared_chunk(args.nodes, seed))
        if not made and not shared:
            seeds.append(seed)
    return seeds


def prepare(args):
    carry = args.carry
    # The lab's own teacher build when there is one (1.5 times the labels a core second).
    carry_deps.carry_dependencies(carry, lab.teacher_path())
    os.makedirs(os.path.join(carry, "bin"), exist_ok=True)
    os.makedirs(os.path.join(carry, "chunks"), exist_ok=True)
    datagen_zhbot(args, os.path.join(carry, "bin", "zhbot"))
    # The chunks to train on: whole archives, while the tree and the carry stay under
    # --travel-mb (less 1 MiB for what changes before the copy).
    tree = tree_bytes()
    budget = (args.travel_mb - 1) * MIB - tree
    used = folder_bytes(carry)
    if used > budget:
        raise SystemExit("gpu_session: the tree and the carry take %d MiB before any chunk, "
                         "over --travel-mb %d less 1" % ((used + tree) // MIB, args.travel_mb))
    source = args.carry_chunks or os.path.join(lab.shared_data_dir(), "teacher-%d" % args.nodes)
    carried = 0
    for path in sorted(glob.glob(os.path.join(source, "chunk-*.tar.xz"))):
        size = os.path.getsize(path)
        if used + size > budget:
            break
        shutil.copy(path, os.path.join(carry, "chunks"))
        used, carried = used + size, carried + 1
    seeds = seeds_to_make(args)
    with open(os.path.join(carry, "seeds"), "w") as f:
        f.write("".join("%d\n" % s for s in seeds))
    print("gpu_session: carry %s: %d chunk(s) to train on, seeds to make: %s; with the tree %d "
          "MiB of %d: copy it to the server with the checkout"
          % (carry, carried, " ".join(map(str, seeds)) or "none", (used + tree) // MIB,
             args.travel_mb))
