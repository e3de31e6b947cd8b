"""Held-out metrics of a network on a split: the same figures for every network and run."""

import numpy as np
import torch
import torch.nn.functional as F

from training import records as rec


class Accumulator:
    """Sums per-batch figures; `result()` gives the means."""

    def __init__(self):
        self.n = 0
        self.sums = {"policy_loss": 0.0, "value_mse": 0.0, "top1": 0.0, "top5": 0.0}
        self.sign_right = 0
        self.sign_n = 0
        self.mate1_right = 0
        self.mate1_n = 0

    def add(self, value, logits, policy_target, value_target, records):
        n = len(records)
        teacher = torch.as_tensor(records["policy_index"][:, 0].astype(np.int64),
                                  device=logits.device)
        log_p = F.log_softmax(logits.float(), dim=1)
        self.sums["policy_loss"] += float(-(policy_target * log_p).sum())
        self.sums["value_mse"] += float(((value.float().view(-1) - value_target) ** 2).sum())
        top5 = logits.topk(5, dim=1).indices
        self.sums["top1"] += float((top5[:, 0] == teacher).sum())
        self.sums["top5"] += float((top5 == teacher[:, None]).any(dim=1).sum())
        result = torch.as_tensor(records["result"].astype(np.float32), device=logits.device)
        decisive = result != 0
        self.sign_right += int(((value.view(-1) > 0) == (result > 0))[decisive].sum())
        self.sign_n += int(decisive.sum())
        mate1 = torch.as_tensor(records["score"] == rec.MATE_SCORE - 1, device=logits.device)
        self.mate1_right += int((top5[:, 0] == teacher)[mate1].sum())
        self.mate1_n += int(mate1.sum())
        self.n += n

    def result(self):
        out = {k: v / max(1, self.n) for k, v in self.sums.items()}
        out["value_sign_accuracy"] = self.sign_right / max(1, self.sign_n)
        out["mate_in_one_top1"] = self.mate1_right / self.mate1_n if self.mate1_n else None
        out["mate_in_one_positions"] = self.mate1_n
        out["positions"] = self.n
        return out


@torch.no_grad()
def evaluate(net, dataset, indices, args, device, batch_size=1024):
    net.eval()
    acc = Accumulator()
    for start in range(0, len(indices), batch_size):
        planes, policy, value, records = dataset.batch(
            indices[start:start + batch_size], args.result_weight, args.policy_temperature,
            args.value_scale)
        x = torch.from_numpy(planes).to(device)
        v, p = net(x)
        acc.add(v, p, torch.from_numpy(policy).to(device), torch.from_numpy(value).to(device),
                records)
    net.train()
    return acc.result()
