"""The GPU check: what a new machine with an NVIDIA GPU runs to measure zhbot there, in a few
commands of minutes each. That machine needs a CUDA PyTorch (pip), a C++20 compiler and CMake
(pip's cmake/ninja do); nothing of zhbot's dependencies: the header-only libraries and the
teacher engine travel with the tree (`prepare`, run on the machine that has them). Every stage
writes its part of one report, DIR/report.md (docs/gpu-deployment.md says where its figures
go).

  prepare   here, on a zhbot machine: nlohmann/json, CLI11 (with their CMake files) and
            Fairy-Stockfish to the carry (--carry-data: training shards too)
  build     there: engine-only zhbot against this Python's LibTorch
  facts     GPU, driver, CUDA, PyTorch, CPU, compiler
  nnbench   nnbench at each batch size and precision, the shipped network and a random one
  search    one game's search (a middlegame, --search-fen): nodes/s at each thread count
  games     one game, then several at once (zhbot selfplay): batch fill, queue wait, nodes/s
  report    DIR/report.md from the stages' sections (also after each)
  datagen   optional, resumable: teacher games on every core, chunk by chunk
  train     optional, resumable: a larger network trained on the GPU, exported

  python3 -m tools.gpu.measure build facts && python3 -m tools.gpu.measure nnbench
  (tools/gpu/gpu_check.sh STAGE... is the same command)
"""
import argparse
import datetime
import glob
import os
import shutil
import sys

from tools.gpu import carry_deps, stages
from tools.zhtools import ROOT, shipped

# Per scale: the defaults of the measuring stages (full: a new GPU; toy: the CI test's sizes on
# a CPU, every stage for real in seconds).
SCALES = {
    "full": dict(batches="1,2,4,8,16,32,64,128,256,512,1024", precisions="fp32 fp16",
                 layout_runs="fp16:channels-last", nnbench_opts="--seconds 0.5 --runs 3",
                 random_arch="resnet-10x128",
                 search_threads="1 2 4 8 16", search_nodes=100000, game_runs="1x4 1x16 8x4",
                 game_nodes=800, datagen_opts="--nodes 3000", chunk_games=400,
                 train_arch="resnet-10x128", train_minutes=8,
                 train_opts="--batch-size 1024 --lr 0.1 --checkpoint-minutes 1 --seed 1"),
    "toy": dict(batches="1,4", precisions="fp32", layout_runs="fp32:channels-last",
                nnbench_opts="--seconds 0.05 --runs 1",
                random_arch="resnet-1x8", search_threads="1 2", search_nodes=200,
                game_runs="1x1 2x1", game_nodes=50, datagen_opts="--nodes 50 --max-plies 30",
                chunk_games=1, train_arch="resnet-1x8", train_minutes=0.01,
                train_opts="--batch-size 16 --validation-permille 500 --epoch-steps 10 --seed 1"),
}
SEARCH_FEN = "r1b1k2r/ppp2ppp/2n5/3qp3/1b1P4/2N2N2/PPP2PPP/R1BQKB1R[Pnp] w KQkq - 0 8"
STAGES = ("prepare", "build", "facts", "nnbench", "search", "games", "datagen", "train", "report")


def parse_args(argv):
    p = argparse.ArgumentParser(prog="python3 -m tools.gpu.measure", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("stages", nargs="+", choices=STAGES, metavar="STAGE")
    p.add_argument("--scale", choices=sorted(SCALES), default="full")
    p.add_argument("--dir", default="build/gpu-check", help="the stages' folder")
    p.add_argument("--carry", default="build/gpu-carry")
    p.add_argument("--device", default="cuda")
    p.add_argument("--zhbot", help="default: the build stage's binary")
    p.add_argument("--out-dir", help="where the report and the trained network are copied too")
    p.add_argument("--shipped-net", help="default: the shipped network")
    p.add_argument("--search-fen", default=SEARCH_FEN)
    p.add_argument("--workers", type=int, default=len(os.sched_getaffinity(0)))
    for key, value in SCALES["full"].items():
        p.add_argument("--" + key.replace("_", "-"), type=type(value) if key != "train_minutes"
                       else float, help="full: %s" % value)
    g = p.add_argument_group("prepare")
    g.add_argument("--teacher", default=carry_deps.FAIRY)
    g.add_argument("--carry-data", help="a folder of training shards to carry")
    g.add_argument("--carry-data-mb", type=int, default=32)
    g = p.add_argument_group("build")
    g.add_argument("--configure-only", action="store_true", help="configure, do not compile")
    g.add_argument("--cmake-args", default="", help="more CMake arguments, one string")
    g = p.add_argument_group("datagen and train")
    g.add_argument("--datagen-minutes", type=float, default=8)
    g.add_argument("--datagen-chunks", type=int, default=1000)
    g.add_argument("--datagen-seeds", type=int, nargs="+", help="default 30000 up")
    g.add_argument("--train-data", nargs="+", help="default: the carried and the new data")
    args = p.parse_args(argv)
    for key, value in SCALES[args.scale].items():
        if getattr(args, key) is None:
            setattr(args, key, value)
    args.dir = os.path.join(ROOT, args.dir)
    args.carry = os.path.join(ROOT, args.carry)
    args.zhbot = os.path.join(ROOT, args.zhbot or os.path.join(args.dir, "build/engine/cli/zhbot"))
    args.shipped_net = os.path.join(ROOT, args.shipped_net or shipped.shipped_model())
    if args.out_dir:
        args.out_dir = os.path.abspath(args.out_dir)
    return args


def report(args):
    """DIR/report.md from the sections written so far, in their order (copied to --out-dir)."""
    lines = ["# zhbot GPU check", "", "%s, `tools/gpu/gpu_check.sh` (--scale %s, --device %s)."
             % (datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
                args.scale, args.device)]
    for path in sorted(glob.glob(os.path.join(args.dir, "sections", "*.md"))):
        with open(path) as f:
            lines += ["", f.read().rstrip("\n")]
    target = os.path.join(args.dir, "report.md")
    with open(target, "w") as f:
        f.write("\n".join(lines) + "\n")
    if args.out_dir:
        shutil.copy(target, os.path.join(args.out_dir, "gpu-check-report.md"))
    print("gpu_check: report: %s" % target)


def main(argv=None):
    args = parse_args(argv)
    os.environ["OPENBLAS_NUM_THREADS"] = "1"
    os.makedirs(os.path.join(args.dir, "sections"), exist_ok=True)
    for stage in args.stages:
        if stage == "prepare":
            carry_deps.carry_dependencies(args.carry, args.teacher, args.carry_data,
                                          args.carry_data_mb)
            print("gpu_check: %s holds what the GPU machine needs: copy it there with the "
                  "checkout" % args.carry)
            continue
        if stage != "report":
            failed = getattr(stages, stage)(args)
            report(args)
            if failed:
                raise SystemExit("gpu_check: %s" % failed)
        else:
            report(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
