"""Writes a random-weight network in zhbot's model format, for benchmarks and smoke tests when
no trained network is at hand (it plays no better than chance).

    /usr/bin/python3 -m training.make_random_net OUT.pt [--arch resnet-6x64] [--seed 1]
        [--input-format 1.0|2.0]

The format is the one training.export writes (see training/models.py for the contract).
"""
import argparse

import torch
from torch import nn

from training import models
from training import records as rec
from training.export import save_torchscript


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("out", help="where to write the TorchScript file (.pt)")
    parser.add_argument("--arch", default="resnet-6x64", help="resnet-BxC or mobile-BxC")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--input-format", default="1.0", choices=sorted(rec.INPUT_PLANES_OF),
                        help="the input format it takes (engine/nn/input_format.h)")
    args = parser.parse_args()

    torch.manual_seed(args.seed)
    net = models.build(args.arch, input_planes=rec.INPUT_PLANES_OF[args.input_format])
    for module in net.modules():  # plausible batch-norm statistics, not the identity
        if isinstance(module, nn.BatchNorm2d):
            module.running_mean.uniform_(-0.1, 0.1)
            module.running_var.uniform_(0.8, 1.2)
    net.eval()
    meta = {
        "architecture": "%s (random weights)" % args.arch,
        "training": "none: random weights seeded %d, for benchmarks only" % args.seed,
    }
    params = save_torchscript(net, args.out, meta)
    print("wrote %s: %s, %d parameters" % (args.out, meta["architecture"], params))


if __name__ == "__main__":
    main()
