"""Policy top-1 of any zhbot evaluator backend (e.g. the hand-written `material` priors) on the
validation split, measured the way training.train measures a network: the move with the highest
prior against the teacher's move. The anchor a trained network is compared with.

    /usr/bin/python3 -m training.backend_accuracy --data DIR --backend material [--positions 5000]
"""
import argparse
import json
import os
import subprocess
import tempfile

import numpy as np

from training import data as data_mod
from training.export import default_zhbot, write_shard


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--data", nargs="+", required=True)
    p.add_argument("--backend", default="material")
    p.add_argument("--model", default=None, help="for --backend torch")
    p.add_argument("--positions", type=int, default=5000)
    p.add_argument("--validation-permille", type=int, default=50)
    p.add_argument("--zhbot", default=None)
    args = p.parse_args(argv)
    dataset = data_mod.Dataset(args.data, args.validation_permille)
    rng = np.random.default_rng(1)
    idx = np.sort(rng.choice(dataset.validation, min(args.positions, len(dataset.validation)),
                             replace=False))
    records = dataset.gather(idx)
    with tempfile.TemporaryDirectory() as tmp:
        shard = os.path.join(tmp, "val.zhrec")
        write_shard(shard, records, dataset.shards[0].path)
        cmd = [args.zhbot or default_zhbot(), "nneval", "--backend", args.backend, "--records",
               shard, "--count", str(len(records))]
        if args.model:
            cmd += ["--model", args.model]
        out = subprocess.run(cmd, capture_output=True, text=True, check=True,
                             env=dict(os.environ, OPENBLAS_NUM_THREADS="1"))
    right = 0
    lines = [json.loads(text) for text in out.stdout.splitlines() if text.startswith("{")]
    for rec, line in zip(records, lines):
        if line["priors"]:
            best = max(line["priors"], key=lambda p: p[1])
            # Ties (e.g. uniform priors) count as a miss unless the teacher's move is the only max.
            top = [p for p in line["priors"] if p[1] == best[1]]
            right += len(top) == 1 and top[0][0] == int(rec["policy_index"][0])
    print("backend %s: policy top-1 %.4f on %d validation positions"
          % (args.backend, right / len(lines), len(lines)))


if __name__ == "__main__":
    main()
