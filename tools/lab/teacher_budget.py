"""A data question: for the same teacher budget and the same training, which makes the stronger
network, labels from a deeper teacher search (--nodes-b nodes a position) or more positions from
a shallower one (--nodes-a)?

  1. two data sets: --positions-b positions at NODES_B and POSITIONS_B x NODES_B / NODES_A at
     NODES_A (the same teacher nodes), each with the CPU seconds it took (teacher processes
     included); then the costlier set is cut, shard by shard in the order they were written,
     to the other's CPU time (CPU time, not wall clock: a wall-clock budget would be unfair on
     a machine that other work shares, and a node costs more CPU in a shallow search, where
     every position pays the same fixed overhead);
  2. the lab's test set: separate games labelled at --test-nodes (neither teacher labels it);
  3. one network on each set, same architecture, seed and number of training steps (--steps,
     by default 1.5 passes over the smaller set: the regime of a network trained on the bulk
     data, which it sees about once);
  4. both on the test set (agreement with the stronger teacher), and a match between them at
     equal nodes a move, refereed by Fairy-Stockfish (tools/measure/strength).

Everything lives in the lab; each step leaves a marker and is skipped when run again, so an
interrupted run resumes (a data set cut off mid-way is made again from its seed).

  python3 -m tools.lab.teacher_budget [DIR] [options]   (DIR: LAB/teacher-budget-A-B)
"""
import argparse
import glob
import os
import resource
import shlex
import shutil
import struct
import subprocess
import sys
import time

from tools.zhtools import ROOT, lab
from tools.zhtools.steps import StepFailed, step


def cpu_seconds_of(path):
    """The CPU seconds of a data set's time file: "cpu_seconds USER SYSTEM wall_seconds WALL"."""
    with open(path) as f:
        words = f.read().split()
    return float(words[1]) + float(words[2])


def shard_positions(path):
    """A shard's record count (its header's third 8-byte field)."""
    with open(path, "rb") as f:
        return struct.unpack_from("<Q", f.read(24), 16)[0]


def generate(args, nodes, positions):
    """The teacher's labels at `nodes`, with the CPU time they took (children included) in
    DIR/data-NODES.time."""
    def make(log):
        out = os.path.join(args.dir, "data-%d" % nodes)
        shutil.rmtree(out, ignore_errors=True)
        before, started = resource.getrusage(resource.RUSAGE_CHILDREN), time.monotonic()
        subprocess.run([args.zhbot, "datagen", "--out", out, "--nodes", str(nodes), "--positions",
                        str(positions), "--workers", str(args.workers), "--seed", str(nodes),
                        "--progress", "60"] + shlex.split(args.datagen_opts), stdout=log,
                       stderr=subprocess.STDOUT, check=True)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        with open(out + ".time", "w") as f:
            f.write("cpu_seconds %.2f %.2f wall_seconds %.2f\n"
                    % (after.ru_utime - before.ru_utime, after.ru_stime - before.ru_stime,
                       time.monotonic() - started))
    return make


def equal_cpu(args, log):
    """DIR/train-data-N for each set: the set itself, or for the costlier one its first shards
    up to the other's CPU time (links)."""
    for old in glob.glob(os.path.join(args.dir, "train-data-*")):
        shutil.rmtree(old)
    cpu = {n: cpu_seconds_of(os.path.join(args.dir, "data-%d.time" % n)) for n in args.both}
    budget = min(cpu.values())
    for n in args.both:
        shards = sorted(glob.glob(os.path.join(args.dir, "data-%d" % n, "*.zhrec")))
        counts = [shard_positions(s) for s in shards]
        keep = round(sum(counts) * budget / cpu[n])
        out = os.path.join(args.dir, "train-data-%d" % n)
        os.makedirs(out)
        total = 0
        for shard, count in zip(shards, counts):
            if total >= keep:
                break
            os.symlink(os.path.abspath(shard), os.path.join(out, os.path.basename(shard)))
            total += count
        log.write("%d nodes: %d of %d positions, %.0f of %.0f CPU seconds\n"
                  % (n, total, sum(counts), cpu[n] * total / max(sum(counts), 1), cpu[n]))


def run(args):
    python = [sys.executable, "-m"]
    d = args.dir
    step(d, "data-%d" % args.nodes_a, generate(args, args.nodes_a, args.positions_a),
         what="%d positions at %d nodes" % (args.positions_a, args.nodes_a))
    step(d, "data-%d" % args.nodes_b, generate(args, args.nodes_b, args.positions_b),
         what="%d positions at %d nodes" % (args.positions_b, args.nodes_b))
    step(d, "equal-cpu", lambda log: equal_cpu(args, log), what="the sets cut to equal CPU time")
    shards = os.path.join(args.test_set, "shards")

    def test_set(log):  # the same test set tools.lab.next_network measures networks on
        shutil.rmtree(shards, ignore_errors=True)
        subprocess.run([args.zhbot, "datagen", "--out", shards, "--nodes", str(args.test_nodes),
                        "--games", str(args.test_games), "--workers", str(args.workers),
                        "--seed", str(args.test_nodes), "--progress", "60"], stdout=log,
                       stderr=subprocess.STDOUT, check=True)
    step(args.test_set, "test-set", test_set, what="%d games at %d nodes"
         % (args.test_games, args.test_nodes))
    for n in args.both:
        data, out = os.path.join(d, "train-data-%d" % n), os.path.join(d, "run-%d" % n)
        step(d, "train-%d" % n, python + [
            "training.train", "--data", data, "--out", out, "--arch", args.arch, "--batch-size",
            str(args.batch), "--lr", "0.1", "--max-steps", str(args.steps), "--epoch-steps",
            "100", "--seed", "1", "--threads", str(args.workers)])
        step(d, "eval-%d" % n, python + [
            "training.evaluate", os.path.join(out, "best.ckpt"), "--data", shards, "--test-set",
            "--positions", "0", "--threads", str(args.workers)])
        step(d, "export-%d" % n, python + [
            "training.export", os.path.join(out, "best.ckpt"), os.path.join(d, "net-%d.pt" % n),
            "--data", data, "--zhbot", args.zhbot, "--check-positions", "64", "--name",
            "teacher-%d" % n])
    spec = "zhbot:backend=torch,model=%s,nodes=%d"
    step(d, "match", python + [
        "tools.measure.strength", "match", "--zhbot", args.zhbot,
        "--a", spec % (os.path.join(d, "net-%d.pt" % args.nodes_a), args.match_nodes),
        "--b", spec % (os.path.join(d, "net-%d.pt" % args.nodes_b), args.match_nodes),
        "--games", str(args.match_games), "--out", os.path.join(d, "match.jsonl"),
        "--concurrency", str(args.workers)])
    summary(args)


def summary(args):
    from training import data
    for n in args.both:
        d = data.Dataset([os.path.join(args.dir, "train-data-%d" % n)])
        with open(os.path.join(args.dir, "data-%d.time" % n)) as f:
            took = f.read().strip()
        print("== teacher at %d nodes: %d positions from %d games, of %s"
              % (n, len(d), d.games, took))
        with open(os.path.join(args.dir, "eval-%d.log" % n)) as f:
            for line in f:
                if any('"%s"' % k in line for k in ("top1", "top5", "value_mse",
                                                    "value_sign_accuracy", "positions")):
                    print(line.rstrip())
    with open(os.path.join(args.dir, "match.log")) as f:
        print(f.read().splitlines()[-1])


def main(argv=None):
    p = argparse.ArgumentParser(prog="python3 -m tools.lab.teacher_budget", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("dir", nargs="?", help="the run's folder (default LAB/teacher-budget-A-B)")
    p.add_argument("--nodes-a", type=int, default=1000, help="the shallower teacher")
    p.add_argument("--nodes-b", type=int, default=3000, help="the deeper teacher")
    p.add_argument("--positions-b", type=int, default=150000)
    p.add_argument("--zhbot", default=os.path.join(ROOT, "build/default/bot/zhbot"))
    p.add_argument("--datagen-opts", default="", help="more options of both sets' datagen")
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--test-nodes", type=int, default=100000)
    p.add_argument("--test-games", type=int, default=40)
    p.add_argument("--test-set", help="default LAB/data/test-TEST_NODES")
    p.add_argument("--arch", default="resnet-6x64")
    p.add_argument("--batch", type=int, default=512)
    p.add_argument("--steps", type=int, help="training steps (1.5 passes over the smaller set)")
    p.add_argument("--match-games", type=int, default=40)
    p.add_argument("--match-nodes", type=int, default=400)
    args = p.parse_args(argv)
    if not os.access(args.zhbot, os.X_OK):
        p.error("--zhbot %s: not built (make build)" % args.zhbot)
    args.both = (args.nodes_a, args.nodes_b)
    args.positions_a = args.positions_b * args.nodes_b // args.nodes_a
    args.steps = args.steps or args.positions_b * 3 // 2 // args.batch
    args.dir = os.path.abspath(args.dir or os.path.join(
        lab.lab_dir(), "teacher-budget-%d-%d" % args.both))
    args.test_set = os.path.abspath(args.test_set or os.path.join(
        lab.lab_dir(), "data", "test-%d" % args.test_nodes))
    os.makedirs(args.dir, exist_ok=True)
    os.environ["OPENBLAS_NUM_THREADS"] = "1"
    try:
        run(args)
    except StepFailed as e:
        raise SystemExit(str(e))
    return 0


if __name__ == "__main__":
    sys.exit(main())
