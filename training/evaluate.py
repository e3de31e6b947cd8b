"""Held-out metrics of a network (the figures training.train prints at a metric row), e.g.
for a model card or to look at a run in progress.

    /usr/bin/python3 -m training.evaluate RUN_DIR/last.ckpt --data DIR [--positions 20000]
    /usr/bin/python3 -m training.evaluate models/NAME.pt --data DIR

The network is a training checkpoint or a model file written by training.export, so a shipped
network is measured on the same positions as a new one without its (scratch) checkpoint.

With --test-set, every position of --data counts (a set no network trained on, e.g. one labelled
by a stronger teacher), not only the games the by-game split holds out.
"""
import argparse
import json
import types
import zipfile

import numpy as np
import torch

from training import data as data_mod
from training import metrics as metrics_mod
from training import models
from training import records as rec
from training.export import load_checkpoint
from training.quantize import use_int8_engine


def load_network(path):
    """(net, training config, step, input planes) of a checkpoint or of a model file from
    training.export."""
    try:  # both are zip archives; only TorchScript's holds constants.pkl
        with zipfile.ZipFile(path) as archive:
            scripted = any(name.endswith("/constants.pkl") for name in archive.namelist())
    except (zipfile.BadZipFile, OSError):
        raise SystemExit("evaluate: %s is neither a training checkpoint nor a model file" % path)
    if not scripted:
        net, state = load_checkpoint(path)
        return net, state.get("config", {}), state.get("step"), models.input_planes_of(net)
    extra = {"zhbot.json": ""}
    net = torch.jit.load(path, map_location="cpu", _extra_files=extra)
    net.eval()
    meta = json.loads(extra["zhbot.json"] or "{}")
    planes = rec.INPUT_PLANES_OF.get(str(meta.get("input_version", "1.0")), 0)
    if meta.get("weights") == "int8":  # training.quantize's file: its kernels' engine
        use_int8_engine()
    # The export keeps the run's target settings and split (None or absent: the defaults).
    training = meta.get("training")
    if not isinstance(training, dict):  # a random network's is a sentence
        return net, {}, meta.get("step"), planes
    return net, {k: v for k, v in training.items() if v is not None}, meta.get("step"), planes


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("checkpoint", help="training checkpoint (.ckpt) or exported model file (.pt)")
    p.add_argument("--data", nargs="+", required=True)
    p.add_argument("--positions", type=int, default=20000, help="validation positions (0: all)")
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--validation-permille", type=int, default=0,
                   help="the held-out split (0: the network's own run's, else 50)")
    p.add_argument("--result-weight", type=float,
                   help="the value target's share of the game result (default: the run's); 0 "
                   "measures the value against the teacher's score alone, which a game's result "
                   "does not blur")
    p.add_argument("--test-set", action="store_true",
                   help="--data is a test set: evaluate all its positions, not its validation "
                   "split")
    args = p.parse_args(argv)
    torch.set_num_threads(args.threads)
    net, config, step, planes = load_network(args.checkpoint)
    permille = args.validation_permille or config.get("validation_permille", 50)
    dataset = data_mod.Dataset(args.data, permille)
    dataset.check_planes(planes, args.checkpoint)
    indices = np.arange(len(dataset)) if args.test_set else dataset.validation
    if args.positions and len(indices) > args.positions:
        indices = np.sort(np.random.default_rng(1).choice(indices, args.positions, replace=False))
    # The targets as the run defined them.
    targets = types.SimpleNamespace(
        result_weight=(config.get("result_weight", 0.3) if args.result_weight is None
                       else args.result_weight),
        policy_temperature=config.get("policy_temperature"),
        value_scale=config.get("value_scale", data_mod.VALUE_SCALE_CP))
    m = metrics_mod.evaluate(net, dataset, indices, targets, torch.device("cpu"))
    m["step"] = step
    print(json.dumps(m, indent=1))


if __name__ == "__main__":
    main()
