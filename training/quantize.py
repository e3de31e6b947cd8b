"""Makes the int8 version of a model file for the CPU and checks it against zhbot's evaluator.

    /usr/bin/python3 -m training.quantize MODEL.pt OUT.pt --data DIR... [--zhbot PATH]

Post-training static quantization (torch.ao FX mode, oneDNN's int8 kernels, which use AVX-512
VNNI where the CPU has it): the convolutions and linear layers get int8 weights (one scale per
output channel) and int8 activations, scaled from the ranges seen on --calibration positions
of the training split of --data. The policy head's last convolution stays fp32: it writes the
logits the priors come from, and 8 bits over their whole range moved the top move of 9 % of
held-out positions (6 % with it in fp32; zhbot-net-2, measured when this was written).
zhbot runs the file at `precision: int8` (engine/nn/precision.h), CPU only.

Writes OUT.pt with the source's zhbot.json plus "weights": "int8", then prints, on held-out
positions, how often the int8 network's top move is the fp32 one's and the mean value
difference, and checks that zhbot's evaluator gives PyTorch's int8 values and priors.
"""
import argparse
import copy
import json
import os
import sys

import numpy as np
import torch

from training import data as data_mod
from training import models
from training import records as rec
from training.export import check_against_zhbot

# The layer left in fp32 (see above), by its name in training/models.py.
FP32_LAYERS = ("policy_out",)
ENGINE = "onednn"


def use_int8_engine():
    """The quantized engine the file is made for and run with (zhbot sets the same)."""
    if ENGINE not in torch.backends.quantized.supported_engines:
        sys.exit("quantize: this PyTorch has no %s quantized engine (has %s)"
                 % (ENGINE, ", ".join(torch.backends.quantized.supported_engines)))
    torch.backends.quantized.engine = ENGINE


def load_model_file(path):
    """The fp32 network of a model file (rebuilt from its metadata's architecture) and the
    metadata."""
    extra = {"zhbot.json": ""}
    scripted = torch.jit.load(path, map_location="cpu", _extra_files=extra)
    meta = json.loads(extra["zhbot.json"] or "{}")
    if meta.get("weights", "fp32") != "fp32":
        sys.exit("quantize: %s already has %s weights" % (path, meta["weights"]))
    if "architecture" not in meta:
        sys.exit("quantize: %s names no architecture in its zhbot.json" % path)
    planes = rec.INPUT_PLANES_OF.get(str(meta.get("input_version", "1.0")))
    if planes is None:
        sys.exit("quantize: %s declares input version %s, which zhbot does not encode"
                 % (path, meta["input_version"]))
    net = models.build(models.parse_arch(meta["architecture"]), input_planes=planes)
    net.load_state_dict(scripted.state_dict())
    return net.eval(), meta


def quantize(net, calibration):
    """The int8 network, its activation ranges observed on `calibration` ([N,34,8,8])."""
    from torch.ao.quantization import get_default_qconfig_mapping
    from torch.ao.quantization.quantize_fx import convert_fx, prepare_fx
    mapping = get_default_qconfig_mapping(ENGINE)
    for name in FP32_LAYERS:
        mapping = mapping.set_module_name(name, None)
    prepared = prepare_fx(copy.deepcopy(net), mapping, (calibration[:2],))
    with torch.no_grad():
        for start in range(0, len(calibration), 256):
            prepared(calibration[start:start + 256])
    return convert_fx(prepared).eval()


def planes_of(dataset, indices):
    return torch.from_numpy(dataset.batch(np.sort(indices), 0.0)[0])


def agreement(fp32, int8, planes):
    """(top-move agreement, mean |value difference|) of the two networks on `planes`."""
    with torch.no_grad():
        v0, p0 = fp32(planes)
        v1, p1 = int8(planes)
    return float((p0.argmax(1) == p1.argmax(1)).float().mean()), float((v0 - v1).abs().mean())


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("model", help="fp32 model file (.pt, as training.export writes it)")
    p.add_argument("out", help="int8 model file to write (.pt)")
    p.add_argument("--data", nargs="+", required=True,
                   help="shards: calibration from the training split, checks from the held-out")
    p.add_argument("--calibration", type=int, default=2048, help="calibration positions")
    p.add_argument("--positions", type=int, default=4096, help="held-out positions compared")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--zhbot", default=None, help="zhbot executable (default: the build tree's)")
    p.add_argument("--check-positions", type=int, default=256)
    p.add_argument("--tolerance", type=float, default=1e-4)
    p.add_argument("--no-check", action="store_true", help="skip the comparison with zhbot")
    args = p.parse_args(argv)

    use_int8_engine()
    torch.set_num_threads(1)  # as zhbot runs it: the same kernels, the same sums
    net, meta = load_model_file(args.model)
    dataset = data_mod.Dataset(args.data)
    rng = np.random.default_rng(args.seed)
    if len(dataset.training) == 0:
        sys.exit("quantize: --data has no training-split positions to calibrate on")
    calibration = planes_of(dataset, rng.choice(
        dataset.training, min(args.calibration, len(dataset.training)), replace=False))
    int8 = quantize(net, calibration)

    meta = dict(meta, name=meta.get("name", "network") + "-int8", weights="int8",
                quantization={"from": os.path.basename(args.model), "engine": ENGINE,
                              "fp32_layers": list(FP32_LAYERS),
                              "calibration_positions": len(calibration),
                              "calibration_data": [os.path.basename(os.path.normpath(d))
                                                   for d in args.data],
                              "seed": args.seed, "quantized_with_torch": torch.__version__})
    tmp = args.out + ".tmp"
    torch.jit.script(int8).save(tmp, _extra_files={"zhbot.json": json.dumps(meta)})
    os.replace(tmp, args.out)
    print("wrote %s: %s, int8 (%s fp32), calibrated on %d positions"
          % (args.out, meta.get("architecture"), ", ".join(FP32_LAYERS), len(calibration)))

    held_out = dataset.validation if len(dataset.validation) else np.arange(len(dataset))
    test = planes_of(dataset, rng.choice(held_out, min(args.positions, len(held_out)),
                                         replace=False))
    top, value = agreement(net, int8, test)
    print("against the fp32 network on %d held-out positions: same top move %.1f %%, "
          "mean |value difference| %.4f" % (len(test), 100 * top, value))
    if args.no_check:
        return
    check_against_zhbot("quantize", int8, args.out, dataset, args, precision="int8")


if __name__ == "__main__":
    main()
