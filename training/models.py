"""Networks for zhbot's torch backend. Every model has the same contract:

  input  [B, P, 8, 8] float32: P = 34, CrazyAra input representation v1.0, or P = 46, format
         2.0 (engine/nn/encoder.h, engine/nn/input_format.h); the metadata names the format
  output (value [B, 1] in [-1, 1] for the side to move,
          policy logits [B, 5184] in policy-map order plane * 64 + square)

Architectures (AlphaZero / CrazyAra style):
  resnet  3x3 conv stem, `blocks` residual blocks of two 3x3 convs with batch norm.
  mobile  RISE-v2-mobile-like: inverted residual blocks (1x1 expand, depthwise 3x3, 1x1
          project) with squeeze-excitation in the last half of the tower. Fewer parameters,
          but LibTorch's CPU depthwise convolution makes it no faster than resnet-6x64 at
          batch 16 on the development CPU (docs/history/models-log.md compares the two).
Both share the heads: value 1x1 conv to 8 planes -> 256 -> 1 (tanh); policy 3x3 conv (body
width) -> 3x3 conv to 81 planes, flattened.
"""
import re

import torch
import torch.nn.functional as F
from torch import nn

INPUT_PLANES = 34  # format 1.0, the default
INPUT_VERSIONS = {34: "1.0", 46: "2.0"}  # planes -> the input version a model file declares
# A format whose first planes are another's, in the same order (format 2.0: 1.0's 34, then 12
# more), -> that format's planes: a network of the smaller warm-starts one of the larger.
EXTENDS = {46: 34}
POLICY_PLANES = 81


def conv_bn(cin, cout, kernel, groups=1):
    return nn.Sequential(nn.Conv2d(cin, cout, kernel, padding=kernel // 2, groups=groups,
                                   bias=False), nn.BatchNorm2d(cout))


class Residual(nn.Module):
    def __init__(self, channels):
        super().__init__()
        self.first = conv_bn(channels, channels, 3)
        self.second = conv_bn(channels, channels, 3)

    def forward(self, x):
        return F.relu(x + self.second(F.relu(self.first(x))))


class SqueezeExcite(nn.Module):
    def __init__(self, channels, ratio=4):
        super().__init__()
        self.reduce = nn.Linear(channels, channels // ratio)
        self.expand = nn.Linear(channels // ratio, channels)

    def forward(self, x):
        s = torch.sigmoid(self.expand(F.relu(self.reduce(x.mean(dim=(2, 3))))))
        return x * s.unsqueeze(-1).unsqueeze(-1)


class InvertedResidual(nn.Module):
    def __init__(self, channels, hidden, squeeze_excite):
        super().__init__()
        self.expand = conv_bn(channels, hidden, 1)
        self.depthwise = conv_bn(hidden, hidden, 3, groups=hidden)
        self.se = SqueezeExcite(hidden) if squeeze_excite else nn.Identity()
        self.project = conv_bn(hidden, channels, 1)

    def forward(self, x):
        y = F.relu(self.depthwise(F.relu(self.expand(x))))
        return x + self.project(self.se(y))


class Net(nn.Module):
    def __init__(self, kind="resnet", blocks=6, channels=64, expansion=3,
                 input_planes=INPUT_PLANES):
        super().__init__()
        if input_planes not in INPUT_VERSIONS:
            raise ValueError("%d input planes: zhbot encodes %s" % (
                input_planes, " or ".join("%d (format %s)" % kv for kv in INPUT_VERSIONS.items())))
        self.stem = conv_bn(input_planes, channels, 3)
        if kind == "resnet":
            tower = [Residual(channels) for _ in range(blocks)]
        elif kind == "mobile":
            tower = [InvertedResidual(channels, channels * expansion, i >= blocks // 2)
                     for i in range(blocks)]
        else:
            raise ValueError("unknown architecture kind %r (resnet or mobile)" % kind)
        self.tower = nn.Sequential(*tower)
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


def parse_arch(text):
    """'resnet-6x64' or 'mobile-8x64' -> dict(kind, blocks, channels)."""
    m = re.fullmatch(r"(resnet|mobile)-(\d+)x(\d+)", text)
    if not m:
        raise ValueError("architecture %r: expected resnet-BxC or mobile-BxC (e.g. resnet-6x64)"
                         % text)
    return {"kind": m.group(1), "blocks": int(m.group(2)), "channels": int(m.group(3))}


def build(arch, input_planes=None):
    """A network from an architecture string or dict (whose "input_planes", when present, is
    the input's plane count; 34 otherwise, as in checkpoints made before format 2.0)."""
    if isinstance(arch, str):
        arch = parse_arch(arch)
    planes = input_planes or arch.get("input_planes", INPUT_PLANES)
    return Net(arch["kind"], arch["blocks"], arch["channels"], input_planes=planes)


def widen_input(state, planes):
    """`state`, a network's weights, for a network of `planes` input planes when those extend
    the planes it takes (EXTENDS): the stem's new input channels start at zero, so the wider
    network computes what the narrower one did until training gives the new planes weight.
    Any other state is returned as it is (load_state_dict then says what does not fit)."""
    weight = state.get("stem.0.weight")
    if weight is None or weight.dim() != 4 or EXTENDS.get(planes) != weight.shape[1]:
        return state
    wide = torch.zeros(weight.shape[0], planes, *weight.shape[2:], dtype=weight.dtype)
    wide[:, :weight.shape[1]] = weight
    return dict(state, **{"stem.0.weight": wide})


def input_planes_of(net):
    """The plane count a (not scripted) network takes."""
    return net.stem[0].in_channels


def parameter_count(net):
    return sum(p.numel() for p in net.parameters())
