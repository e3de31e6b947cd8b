"""Held-out metrics of a checkpoint (the figures training.train prints at a metric row), e.g.
for a model card or to look at a run in progress.

    /usr/bin/python3 -m training.evaluate RUN_DIR/last.ckpt --data DIR [--positions 20000]

With --test-set, every position of --data counts (a set no network trained on, e.g. one labelled
by a stronger teacher), not only the games the by-game split holds out.
"""
import argparse
import json
import types

import numpy as np
import torch

from training import data as data_mod
from training import metrics as metrics_mod
from training.export import load_checkpoint


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("checkpoint")
    p.add_argument("--data", nargs="+", required=True)
    p.add_argument("--positions", type=int, default=20000, help="validation positions (0: all)")
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--test-set", action="store_true",
                   help="--data is a test set: evaluate all its positions, not its validation split")
    args = p.parse_args(argv)
    torch.set_num_threads(args.threads)
    net, state = load_checkpoint(args.checkpoint)
    config = state.get("config", {})
    dataset = data_mod.Dataset(args.data, config.get("validation_permille", 50))
    indices = np.arange(len(dataset)) if args.test_set else dataset.validation
    if args.positions and len(indices) > args.positions:
        indices = np.sort(np.random.default_rng(1).choice(indices, args.positions, replace=False))
    # The targets as the run defined them.
    targets = types.SimpleNamespace(
        result_weight=config.get("result_weight", 0.3),
        policy_temperature=config.get("policy_temperature"),
        value_scale=config.get("value_scale", data_mod.VALUE_SCALE_CP))
    m = metrics_mod.evaluate(net, dataset, indices, targets, torch.device("cpu"))
    m["step"] = state.get("step")
    print(json.dumps(m, indent=1))


if __name__ == "__main__":
    main()
