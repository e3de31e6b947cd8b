"""Training speed per precision: forward + backward + SGD step on random batches, samples/s for
fp32 and bf16 autocast (and channels-last fp32), the figures behind train.py's --precision auto.

    OPENBLAS_NUM_THREADS=1 /usr/bin/python3 -m training.bench_precision [--threads 1] [--batch 256]
"""
import argparse
import time

import torch
import torch.nn.functional as F

from training import models


def samples_per_second(arch, mode, batch, steps):
    net = models.build(arch)
    optimizer = torch.optim.SGD(net.parameters(), lr=0.01, momentum=0.9)
    x = torch.randn(batch, models.INPUT_PLANES, 8, 8)
    policy_target = torch.randint(0, models.POLICY_PLANES * 64, (batch,))
    value_target = torch.rand(batch, 1)
    if mode == "channels-last":
        net = net.to(memory_format=torch.channels_last)
        x = x.to(memory_format=torch.channels_last)

    def step():
        with torch.autocast(device_type="cpu", dtype=torch.bfloat16, enabled=mode == "bf16"):
            v, p = net(x)
        loss = F.cross_entropy(p.float(), policy_target) + F.mse_loss(v.float(), value_target)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()

    for _ in range(3):  # warm-up
        step()
    started = time.time()
    for _ in range(steps):
        step()
    return batch * steps / (time.time() - started)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--batch", type=int, default=256)
    ap.add_argument("--steps", type=int, default=10)
    ap.add_argument("--arch", nargs="+", default=["resnet-6x64", "mobile-8x64"])
    args = ap.parse_args()
    torch.set_num_threads(args.threads)
    for arch in args.arch:
        fp32 = samples_per_second(arch, "fp32", args.batch, args.steps)
        print("%-12s fp32 %6.0f samples/s" % (arch, fp32), flush=True)
        for mode in ("bf16", "channels-last"):
            r = samples_per_second(arch, mode, args.batch, args.steps)
            print("%-12s %-13s %6.0f samples/s (%.2fx fp32)" % (arch, mode, r, r / fp32),
                  flush=True)


if __name__ == "__main__":
    main()
