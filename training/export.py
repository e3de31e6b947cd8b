"""Exports a training checkpoint as the TorchScript file zhbot's torch backend loads, and checks
that zhbot's own evaluator gives the same values and priors as PyTorch on validation records.

    /usr/bin/python3 -m training.export RUN_DIR/best.ckpt OUT.pt --data DIR [--zhbot PATH]

The file carries a TorchScript extra file zhbot.json (input version, policy format,
architecture, data recipe, metrics). Checkpoints are plain state dicts, so one trained with a
newer PyTorch (a GPU machine) is exported here with the torch that matches the engine's
LibTorch. The check fails (exit 1) when a difference exceeds --tolerance (1e-4 for fp32).
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

import numpy as np
import torch

from training import data as data_mod
from training import models
from training import records as rec

POLICY_FORMAT = "map81x8x8"


def save_torchscript(net, out, meta):
    """Scripts `net` (eval mode) into `out` with zhbot.json metadata; returns the parameter
    count."""
    net.eval()
    params = models.parameter_count(net)
    planes = models.input_planes_of(net)
    meta = dict(meta, input_version=models.INPUT_VERSIONS[planes], policy_format=POLICY_FORMAT,
                parameters=params)
    with torch.no_grad():
        value, policy = net(torch.zeros(2, planes, 8, 8))
    assert value.shape == (2, 1) and policy.shape == (2, models.POLICY_PLANES * 64)
    tmp = out + ".tmp"
    torch.jit.script(net).save(tmp, _extra_files={"zhbot.json": json.dumps(meta)})
    os.replace(tmp, out)
    return params


def load_checkpoint(path):
    # A checkpoint is plain tensors, numbers and strings (no class of ours is pickled), so one
    # trained with a newer torch on a GPU machine loads here with 1.13.
    state = torch.load(path, map_location="cpu")
    if "model" not in state or "arch" not in state:
        raise SystemExit("export: %s is not a training checkpoint (no model/arch)" % path)
    net = models.build(state["arch"])
    net.load_state_dict(state["model"])
    net.eval()
    return net, state


def write_shard(path, records, template):
    """A shard of `records` with the header of shard `template` (record count patched)."""
    header = np.fromfile(template, dtype=rec.HEADER_DTYPE, count=1)
    header["record_count"] = len(records)
    with open(path, "wb") as f:
        f.write(header.tobytes())
        f.write(np.ascontiguousarray(records).tobytes())


def compare_with_zhbot(net, model_path, dataset, zhbot, count, precision="fp32"):
    """Max abs differences (value, prior) between PyTorch and `zhbot nneval` (at `precision`)
    on `count` validation records; raises when zhbot's planes differ from the stored ones."""
    indices = (dataset.validation[:count] if len(dataset.validation)
               else np.arange(min(count, len(dataset))))
    records = dataset.gather(indices)
    with tempfile.TemporaryDirectory() as tmp:
        shard = os.path.join(tmp, "check.zhrec")
        write_shard(shard, records, dataset.shards[0].path)
        out = subprocess.run([zhbot, "nneval", "--model", model_path, "--records", shard,
                              "--count", str(len(records)), "--precision", precision],
                             capture_output=True, text=True,
                             env=dict(os.environ, OPENBLAS_NUM_THREADS="1"))
        if out.returncode != 0:
            raise SystemExit("export: zhbot nneval failed:\n" + out.stderr)
    lines = [json.loads(text) for text in out.stdout.splitlines() if text.startswith("{")]
    if len(lines) != len(records):
        raise SystemExit("export: zhbot nneval returned %d of %d records"
                         % (len(lines), len(records)))
    first = dataset.shards[0]
    planes = rec.expand_planes(records, first.mask_planes, first.constant_planes)
    with torch.no_grad():
        value, logits = net(torch.from_numpy(planes))
    value_diff, prior_diff = 0.0, 0.0
    for i, line in enumerate(lines):
        if not line["planes_match"]:
            raise SystemExit("export: record %d: zhbot's encoder disagrees with the stored planes"
                             % i)
        value_diff = max(value_diff, abs(line["value"] - float(value[i, 0])))
        if line["priors"]:
            idx = torch.tensor([p[0] for p in line["priors"]])
            ours = torch.softmax(logits[i, idx].double(), dim=0)
            theirs = torch.tensor([p[1] for p in line["priors"]], dtype=torch.float64)
            prior_diff = max(prior_diff, float((ours - theirs).abs().max()))
    return value_diff, prior_diff, len(lines)


def check_against_zhbot(tool, net, model_path, dataset, args, precision="fp32"):
    """compare_with_zhbot on args.check_positions records, printed; exits past args.tolerance."""
    value_diff, prior_diff, n = compare_with_zhbot(net, model_path, dataset,
                                                   args.zhbot or default_zhbot(),
                                                   args.check_positions, precision)
    print("check against zhbot on %d validation positions: max |value diff| %.2e, "
          "max |prior diff| %.2e (tolerance %.0e)" % (n, value_diff, prior_diff, args.tolerance))
    if max(value_diff, prior_diff) > args.tolerance:
        sys.exit("%s: zhbot and PyTorch disagree beyond the tolerance" % tool)


def default_zhbot():
    for candidate in ("build/default/bot/zhbot", "build/release/bot/zhbot",
                      "build/engine-only/engine/cli/zhbot"):
        if os.path.exists(candidate):
            return candidate
    return "zhbot"


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("checkpoint")
    p.add_argument("out", help="TorchScript file to write (.pt)")
    p.add_argument("--data", nargs="+", help="shards to take validation records from for the check")
    p.add_argument("--zhbot", default=None, help="zhbot executable (default: the build tree's)")
    p.add_argument("--check-positions", type=int, default=256)
    p.add_argument("--tolerance", type=float, default=1e-4)
    p.add_argument("--no-check", action="store_true", help="skip the comparison with zhbot")
    p.add_argument("--name", default=None, help="network name for the metadata")
    args = p.parse_args(argv)

    net, state = load_checkpoint(args.checkpoint)
    arch = state["arch"]
    config = state.get("config", {})
    meta = {
        "name": args.name or os.path.splitext(os.path.basename(args.out))[0],
        "architecture": "%s-%dx%d" % (arch["kind"], arch["blocks"], arch["channels"]),
        "training": {k: config.get(k) for k in ("data", "epochs", "max_steps", "batch_size", "lr",
                                                "value_weight", "result_weight", "value_scale",
                                                "policy_temperature", "seed",
                                                "validation_permille")},
        "step": state.get("step"),
        "metrics": state.get("metrics"),
        "trained_with_torch": state.get("torch_version"),
    }
    params = save_torchscript(net, args.out, meta)
    print("wrote %s: %s, %d parameters" % (args.out, meta["architecture"], params))
    if args.no_check:
        return
    if not args.data:
        sys.exit("export: --data is needed for the check against zhbot (or --no-check)")
    dataset = data_mod.Dataset(args.data)
    dataset.check_planes(models.input_planes_of(net), args.checkpoint)
    check_against_zhbot("export", net, args.out, dataset, args)


if __name__ == "__main__":
    main()
