"""Trains a network on zhbot training shards.

    /usr/bin/python3 -m training.train --data DIR [DIR ...] --out RUN_DIR [options]

The recipe defaults to the CrazyAra paper's supervised one: SGD with Nesterov momentum 0.9,
a one-cycle learning rate (linear warm-up from --lr / 10 to --lr over the first 25 %, then a
cosine down to --lr / 1000; see `schedule`), weight decay 1e-4, batch 1024. The value loss weight
is an option (see README for the default).
Validation is split by game (training/data.py). Every epoch prints and appends its metrics to
RUN_DIR/metrics.csv and metrics.json; checkpoints are plain state dicts in RUN_DIR/last.ckpt
(every --checkpoint-minutes, at every epoch end and when SIGTERM or SIGINT stops the run;
--resume continues from it) and
RUN_DIR/best.ckpt (lowest validation loss). Runs on CPU (bf16 autocast where the CPU has it)
or on CUDA with mixed precision when torch.cuda.is_available(); several GPUs or processes with
torchrun (DDP).
"""
import argparse
import contextlib
import csv
import functools
import json
import math
import os
import signal
import sys
import time

import numpy as np
import torch
import torch.nn.functional as F

from training import data as data_mod
from training import metrics as metrics_mod
from training import models
from training.evaluate import load_network


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--data", nargs="+", required=True, help="shard files or directories")
    p.add_argument("--out", required=True, help="run directory (checkpoints, metrics)")
    p.add_argument("--arch", default="resnet-6x64", help="resnet-BxC or mobile-BxC")
    p.add_argument("--epochs", type=float, default=1.0, help="passes over the training split")
    p.add_argument("--max-steps", type=int, default=0,
                   help="stop after this many steps (0: epochs)")
    p.add_argument("--time-budget-minutes", type=float, default=0,
                   help="train for about this long: the step count is set from the speed of the "
                        "first 30 steps (equal-time comparisons of architectures)")
    p.add_argument("--batch-size", type=int, default=1024)
    p.add_argument("--lr", type=float, default=0.1,
                   help="peak learning rate of the one-cycle schedule")
    p.add_argument("--momentum", type=float, default=0.9)
    p.add_argument("--weight-decay", type=float, default=1e-4)
    p.add_argument("--value-weight", type=float, default=0.5,
                   help="value loss weight next to the policy loss (weight 1)")
    p.add_argument("--result-weight", type=float, default=0.3,
                   help="value target = w * game result + (1 - w) * tanh(teacher cp / value-scale)")
    p.add_argument("--value-scale", type=float, default=data_mod.VALUE_SCALE_CP)
    p.add_argument("--policy-temperature", type=float, default=None,
                   help="re-weight MultiPV targets with this temperature (cp; 0 = teacher move "
                        "only); default: the probabilities stored in the records")
    p.add_argument("--validation-permille", type=int, default=50)
    p.add_argument("--validation-positions", type=int, default=50000,
                   help="validation positions evaluated per epoch (0: all)")
    p.add_argument("--threads", type=int, default=0, help="CPU threads (0: torch default)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--checkpoint-minutes", type=float, default=10.0)
    p.add_argument("--epoch-steps", type=int, default=0,
                   help="steps between metric rows (0: one pass over the training split)")
    p.add_argument("--resume", action="store_true", help="continue from RUN_DIR/last.ckpt")
    p.add_argument("--init-from", default=None,
                   help="warm start: the weights of this checkpoint or model file (same "
                        "architecture), with a fresh optimizer and schedule")
    p.add_argument("--device", default="auto", help="auto, cpu or cuda")
    p.add_argument("--precision", default="auto", choices=["auto", "fp32", "bf16", "fp16"],
                   help="autocast type: auto = fp16 on CUDA, bf16 on a CPU with native bf16 "
                        "(avx512_bf16/amx; 1.7x the fp32 speed on this project's CPU box), "
                        "else fp32")
    args = p.parse_args(argv)
    if args.max_steps and args.time_budget_minutes:
        # Both set the step count, and a silent winner would train for a length nobody asked
        # for (hours, on a CPU).
        p.error("--max-steps and --time-budget-minutes both set the length of the run: "
                "give one of them")
    return args


def cpu_has_native_bf16():
    try:
        with open("/proc/cpuinfo") as f:
            flags = f.read()
    except OSError:
        return False
    return "avx512_bf16" in flags or "amx_bf16" in flags


def initial_weights(path, arch, say=None):
    """The weights of a checkpoint or exported model file, checked to fit `arch`: a warm start
    (an architecture that does not fit is a clear exit, not a half-loaded network). A network of
    a format that the data's extends (1.0 for 2.0 data) starts the wider one with its own
    function (models.widen_input), which `say` is told."""
    arch = models.parse_arch(arch) if isinstance(arch, str) else arch
    name = "%s-%dx%d" % (arch["kind"], arch["blocks"], arch["channels"])
    planes = arch.get("input_planes", models.INPUT_PLANES)
    source = load_network(path)[0]
    fresh = models.build(arch)
    source_state = source.state_dict()
    state = models.widen_input(source_state, planes)
    try:
        fresh.load_state_dict(state)
    except RuntimeError as error:
        raise SystemExit("train: --init-from %s does not fit --arch %s with %d input planes "
                         "(the data's format): %s"
                         % (path, name, planes, str(error).splitlines()[0]))
    source_planes = source_state["stem.0.weight"].shape[1]
    if say and source_planes != planes:
        say("warm start: %s takes format %s (%d planes); the %d planes format %s adds start at "
            "zero weight" % (path, models.INPUT_VERSIONS[source_planes], source_planes,
                             planes - source_planes, models.INPUT_VERSIONS[planes]))
    return fresh.state_dict()


def autocast_dtype(device, precision):
    """The autocast dtype for the forward pass, or None for plain fp32."""
    if precision == "auto":
        if device == "cuda":
            return torch.float16
        return torch.bfloat16 if cpu_has_native_bf16() else None
    return {"fp32": None, "bf16": torch.bfloat16, "fp16": torch.float16}[precision]


def duration_text(seconds):
    """HH:MM:SS with as many hours as it takes (a run of more than a day is not shown as a short
    one), or ? before the speed is known."""
    if not math.isfinite(seconds):
        return "?"
    minutes, secs = divmod(int(round(seconds)), 60)
    return "%02d:%02d:%02d" % (minutes // 60, minutes % 60, secs)


class Progress:
    """A progress line with samples/s: redrawn in place on a terminal, a line every 30 s in a
    log."""

    def __init__(self, total_steps):
        self.total = total_steps
        self.tty = sys.stderr.isatty()
        self.last = 0.0
        self.window = []

    def update(self, step, batch_size, loss):
        now = time.time()
        self.window.append(now)
        self.window = self.window[-50:]
        if now - self.last < (0.5 if self.tty else 30.0) and step != self.total:
            return
        self.last = now
        rate = (len(self.window) - 1) * batch_size / max(1e-9, self.window[-1] - self.window[0])
        eta = (self.total - step) * batch_size / rate if rate > 0 else float("nan")
        width = 30
        done = int(width * step / max(1, self.total))
        line = "[%s%s] step %d/%d  %.0f samples/s  loss %.4f  ETA %s" % (
            "#" * done, "." * (width - done), step, self.total, rate, loss, duration_text(eta))
        sys.stderr.write(("\r" + line) if self.tty else (line + "\n"))
        sys.stderr.flush()


class StopRequest:
    """SIGTERM or SIGINT asks the run to stop after the step under way, with last.ckpt saved:
    a run stopped from outside (a machine's shutdown, `systemctl stop`, Ctrl-C, a job killed by
    its process group) resumes from the step it reached, not from the last timed checkpoint up
    to --checkpoint-minutes before. A second signal ends the process at once."""

    def __init__(self):
        self.signal = None
        for sig in (signal.SIGTERM, signal.SIGINT):
            signal.signal(sig, self._handle)

    def _handle(self, signum, frame):
        self.signal = signum
        for sig in (signal.SIGTERM, signal.SIGINT):
            signal.signal(sig, signal.SIG_DFL)


def schedule(step, total, peak):
    """One-cycle: linear warm-up over the first 25% from peak/10 to peak, then cosine down to
    peak/1000 (a plain function of the step, so --resume needs no scheduler state)."""
    warm = max(1, int(0.25 * total))
    if step < warm:
        return peak / 10 + (peak - peak / 10) * step / warm
    t = (step - warm) / max(1, total - warm)
    return peak / 1000 + (peak - peak / 1000) * 0.5 * (1 + math.cos(math.pi * min(1.0, t)))


def save(path, state):
    tmp = path + ".tmp"
    torch.save(state, tmp)
    os.replace(tmp, path)


def main(argv=None):
    args = parse_args(argv)
    stop = StopRequest()
    distributed = int(os.environ.get("WORLD_SIZE", "1")) > 1
    rank = int(os.environ.get("RANK", "0"))
    world = int(os.environ.get("WORLD_SIZE", "1"))
    if args.device == "auto":
        args.device = "cuda" if torch.cuda.is_available() else "cpu"
    if distributed:
        # PyTorch >= 2.4 asks for a libuv TCP store by default; Debian 13's 2.6 is built without
        # libuv and refuses it. The classic store does the same job (1.13 ignores the variable).
        os.environ.setdefault("USE_LIBUV", "0")
        torch.distributed.init_process_group("nccl" if args.device == "cuda" else "gloo")
    device = torch.device(args.device, int(os.environ.get("LOCAL_RANK", "0"))) \
        if args.device == "cuda" else torch.device("cpu")
    if args.device == "cuda":
        torch.cuda.set_device(device)
    if args.threads > 0:
        torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed + rank)
    main_process = rank == 0
    os.makedirs(args.out, exist_ok=True)

    dataset = data_mod.Dataset(args.data, args.validation_permille)
    if main_process:
        print("data: %d positions from %d games in %d shard(s); training %d, validation %d "
              "positions (%d games)" % (len(dataset), dataset.games, len(dataset.shards),
                                        len(dataset.training), len(dataset.validation),
                                        dataset.validation_games), flush=True)
    rng = np.random.default_rng(args.seed)
    validation = dataset.validation
    if args.validation_positions and len(validation) > args.validation_positions:
        validation = np.sort(rng.choice(validation, args.validation_positions, replace=False))

    # The input format is the data's (training/README.md: input formats).
    arch = dict(models.parse_arch(args.arch), input_planes=dataset.input_planes)
    net = models.build(arch)
    if args.init_from and not args.resume:
        say = functools.partial(print, flush=True) if main_process else None
        net.load_state_dict(initial_weights(args.init_from, arch, say=say))
        if main_process:
            print("warm start from %s" % args.init_from, flush=True)
    # Channels-last on the CPU: oneDNN's convolutions run the 6x64's step 1.14x faster with it, the
    # whole training step with its data 1.07x (2-core machine, fp32, 2 threads, alternating
    # pairs). Not measured on a GPU, so not used there.
    memory_format = torch.channels_last if device.type == "cpu" else torch.contiguous_format
    net = net.to(device).to(memory_format=memory_format)
    steps_per_pass = max(1, len(dataset.training) // (args.batch_size * world))
    total_steps = args.max_steps or max(1, int(args.epochs * steps_per_pass))
    epoch_steps = args.epoch_steps or steps_per_pass
    optimizer = torch.optim.SGD(net.parameters(), lr=args.lr, momentum=args.momentum,
                                nesterov=True, weight_decay=args.weight_decay)
    amp_dtype = autocast_dtype(args.device, args.precision)
    # Loss scaling is needed for fp16 only (bf16 has fp32's exponent range).
    scaler = torch.cuda.amp.GradScaler(enabled=args.device == "cuda" and amp_dtype == torch.float16)
    if main_process:
        print("precision: %s" % ("fp32" if amp_dtype is None else str(amp_dtype).split(".")[1]),
              flush=True)
    step, best_loss, history = 0, float("inf"), []
    last_path = os.path.join(args.out, "last.ckpt")
    if args.resume:
        if not os.path.exists(last_path):
            sys.exit("train: --resume, but %s does not exist" % last_path)
        state = torch.load(last_path, map_location=device)
        net.load_state_dict(state["model"])
        optimizer.load_state_dict(state["optimizer"])
        step, best_loss, history = state["step"], state["best_loss"], state["history"]
        total_steps = state["total_steps"]
        if main_process:
            print("resumed at step %d of %d" % (step, total_steps), flush=True)
    model = torch.nn.parallel.DistributedDataParallel(net) if distributed else net

    config = dict(vars(args))

    def checkpoint(extra=None):
        if not main_process:
            return
        state = {"model": net.state_dict(), "optimizer": optimizer.state_dict(), "step": step,
                 "total_steps": total_steps, "best_loss": best_loss, "history": history,
                 "arch": arch, "config": config, "torch_version": str(torch.__version__)}
        state.update(extra or {})
        save(last_path, state)

    # The order of training positions: a fresh permutation per pass, the same on resume. Made
    # once per pass: a permutation of millions of indices costs more than a training step.
    @functools.lru_cache(maxsize=1)
    def permutation(pass_number):
        perm = np.random.default_rng(args.seed * 1000003 + pass_number).permutation(
            dataset.training)
        return perm[rank::world]

    progress = Progress(total_steps) if main_process else None
    started, last_checkpoint, samples = time.time(), time.time(), 0
    budget_pending = args.time_budget_minutes > 0 and not args.resume
    if budget_pending:
        total_steps = 10 ** 9  # until the speed is known
    per_rank = args.batch_size
    while step < total_steps:
        if stop.signal is not None:
            name = signal.Signals(stop.signal).name
            if budget_pending:  # the step count is not known yet: a checkpoint could not resume
                message = "stopped before the time budget set the step count; nothing saved"
            else:
                checkpoint()
                message = "stopped at step %d of %d; %s saved, --resume goes on from it" % (
                    step, total_steps, last_path)
            if main_process:
                print("\n%s: %s" % (name, message), flush=True)
            sys.exit(128 + stop.signal)
        pass_number, offset = divmod(step, steps_per_pass)
        order = permutation(pass_number)
        indices = order[offset * per_rank:(offset + 1) * per_rank]
        planes, policy, value, _ = dataset.batch(np.sort(indices), args.result_weight,
                                                 args.policy_temperature, args.value_scale)
        lr = schedule(step, total_steps, args.lr)
        for group in optimizer.param_groups:
            group["lr"] = lr
        x = torch.from_numpy(planes).to(device, non_blocking=True).contiguous(
            memory_format=memory_format)
        pt = torch.from_numpy(policy).to(device, non_blocking=True)
        vt = torch.from_numpy(value).to(device, non_blocking=True)
        # No autocast at all in fp32: torch 1.13's CPU autocast rejects a float32 dtype even
        # when disabled.
        amp = (torch.autocast(device_type=args.device, dtype=amp_dtype)
               if amp_dtype is not None else contextlib.nullcontext())
        with amp:
            v, p = model(x)
        policy_loss = -(pt * F.log_softmax(p.float(), dim=1)).sum(dim=1).mean()
        value_loss = F.mse_loss(v.float().view(-1), vt)
        loss = policy_loss + args.value_weight * value_loss
        optimizer.zero_grad(set_to_none=True)
        scaler.scale(loss).backward()
        scaler.step(optimizer)
        scaler.update()
        step += 1
        samples += len(indices) * world
        if budget_pending and step == 30:
            per_step = (time.time() - started) / 30
            total_steps = max(31, int(args.time_budget_minutes * 60 / per_step))
            budget_pending = False
            if progress:
                progress.total = total_steps
            if main_process:
                print("time budget %.0f min at %.2f s/step: %d steps (%.2f passes)"
                      % (args.time_budget_minutes, per_step, total_steps,
                         total_steps / steps_per_pass), flush=True)
        if progress:
            progress.update(step, per_rank * world, float(loss))
        if time.time() - last_checkpoint > args.checkpoint_minutes * 60:
            checkpoint()
            last_checkpoint = time.time()
        if step % epoch_steps == 0 or step == total_steps:
            if main_process:
                m = metrics_mod.evaluate(net, dataset, validation, args, device)
                m.update({"step": step, "epoch": step / steps_per_pass, "lr": lr,
                          "train_samples_per_s": samples / (time.time() - started),
                          "minutes": (time.time() - started) / 60})
                history.append(m)
                val_loss = m["policy_loss"] + args.value_weight * m["value_mse"]
                mate1 = m["mate_in_one_top1"]
                print("\nepoch %.2f step %d: policy top-1 %.4f top-5 %.4f loss %.4f | value mse "
                      "%.4f sign %.4f | mate-in-1 top-1 %s (%d) | %.0f samples/s"
                      % (m["epoch"], step, m["top1"], m["top5"], m["policy_loss"], m["value_mse"],
                         m["value_sign_accuracy"], "-" if mate1 is None else "%.4f" % mate1,
                         m["mate_in_one_positions"], m["train_samples_per_s"]), flush=True)
                write_metrics(args.out, history)
                if val_loss < best_loss:
                    best_loss = val_loss
                    save(os.path.join(args.out, "best.ckpt"),
                         {"model": net.state_dict(), "arch": arch, "config": config, "step": step,
                          "metrics": m, "torch_version": str(torch.__version__)})
                checkpoint()
                last_checkpoint = time.time()
    if distributed:
        torch.distributed.destroy_process_group()


def write_metrics(out, history):
    with open(os.path.join(out, "metrics.json"), "w") as f:
        json.dump(history, f, indent=1)
    keys = list(history[0].keys())
    with open(os.path.join(out, "metrics.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=keys)
        w.writeheader()
        for row in history:
            w.writerow(row)


if __name__ == "__main__":
    main()
