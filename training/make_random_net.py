#!/usr/bin/python3
"""Writes a random-weight residual network in zhbot's model format, for benchmarks and
smoke tests when no trained network is at hand (it plays no better than chance).

    /usr/bin/python3 training/make_random_net.py OUT.pt [--blocks 6] [--channels 64] [--seed 1]

Format (what the torch backend expects, see engine/nn/backends/torch_evaluator.h):
  input  [B,34,8,8] float32: CrazyAra input representation v1.0
  output (value [B,1] in [-1,1] for the side to move, policy logits [B,5184] in policy-map
         order plane*64 + square)
  TorchScript extra file zhbot.json with input_version "1.0" and the architecture.
Architecture (AlphaZero/CrazyAra style): 3x3 conv stem, `blocks` residual blocks of two 3x3
convs with batch norm; value head 1x1 conv to 8 planes -> 256 -> 1 (tanh); policy head
3x3 conv (body width) -> 3x3 conv to 81 planes, flattened.
Needs python3-torch (Debian: /usr/bin/python3).
"""
import argparse
import json

import torch
from torch import nn
import torch.nn.functional as F

INPUT_PLANES = 34
POLICY_PLANES = 81


def conv_bn(cin, cout, kernel):
    return nn.Sequential(nn.Conv2d(cin, cout, kernel, padding=kernel // 2, bias=False),
                         nn.BatchNorm2d(cout))


class Residual(nn.Module):
    def __init__(self, channels):
        super().__init__()
        self.first = conv_bn(channels, channels, 3)
        self.second = conv_bn(channels, channels, 3)

    def forward(self, x):
        return F.relu(x + self.second(F.relu(self.first(x))))


class ResNet(nn.Module):
    def __init__(self, blocks, channels):
        super().__init__()
        self.stem = conv_bn(INPUT_PLANES, channels, 3)
        self.tower = nn.Sequential(*(Residual(channels) for _ in range(blocks)))
        self.value_conv = conv_bn(channels, 8, 1)
        self.value_hidden = nn.Linear(8 * 64, 256)
        self.value_out = nn.Linear(256, 1)
        self.policy_conv = conv_bn(channels, channels, 3)
        self.policy_out = nn.Conv2d(channels, POLICY_PLANES, 3, padding=1)

    def forward(self, x):
        x = self.tower(F.relu(self.stem(x)))
        v = F.relu(self.value_conv(x)).flatten(1)
        v = torch.tanh(self.value_out(F.relu(self.value_hidden(v))))
        p = self.policy_out(F.relu(self.policy_conv(x))).flatten(1)
        return v, p


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("out", help="where to write the TorchScript file (.pt)")
    parser.add_argument("--blocks", type=int, default=6)
    parser.add_argument("--channels", type=int, default=64)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    torch.manual_seed(args.seed)
    net = ResNet(args.blocks, args.channels)
    for module in net.modules():  # plausible batch-norm statistics, not the identity
        if isinstance(module, nn.BatchNorm2d):
            module.running_mean.uniform_(-0.1, 0.1)
            module.running_var.uniform_(0.8, 1.2)
    net.eval()
    params = sum(p.numel() for p in net.parameters())
    meta = {
        "input_version": "1.0",
        "policy_format": "map81x8x8",
        "architecture": "resnet %dx%d (random weights)" % (args.blocks, args.channels),
        "training": "none: random weights seeded %d, for benchmarks only" % args.seed,
        "parameters": params,
    }
    with torch.no_grad():
        value, policy = net(torch.zeros(2, INPUT_PLANES, 8, 8))
    assert value.shape == (2, 1) and policy.shape == (2, POLICY_PLANES * 64)
    torch.jit.script(net).save(args.out, _extra_files={"zhbot.json": json.dumps(meta)})
    print("wrote %s: %s, %d parameters" % (args.out, meta["architecture"], params))


if __name__ == "__main__":
    main()
