"""The shipped network: the `model:` line of config/zhbot.yaml, which the test
Config.TheShippedConfigFileHoldsEveryOptionAtItsDefault keeps equal to zhbot's built-in default
(kShippedModel). The tools take their default network from here, so shipping a network changes
that constant and the regenerated config, and nothing in tools/."""
import os
import re

from tools.zhtools import ROOT

CONFIG = os.path.join(ROOT, "config", "zhbot.yaml")
MODEL_LINE = re.compile(r'^  model: "(.*)"$', re.M)


def shipped_model(config=CONFIG):
    """models/NAME.pt, relative to the checkout; RuntimeError when the config has no model line."""
    with open(config, encoding="utf-8") as f:
        found = MODEL_LINE.search(f.read())
    if not found or not found.group(1):
        raise RuntimeError("%s has no model line" % config)
    return os.path.join("models", found.group(1))


def int8_twin(model):
    """The int8 file beside a network (training/quantize.py): PATH/NAME-int8.pt for PATH/NAME.pt."""
    return model[:-len(".pt")] + "-int8.pt" if model.endswith(".pt") else model + "-int8.pt"


if __name__ == "__main__":  # for the shell tools: tools/lab/shipped_model.sh
    try:
        print(shipped_model())
    except (OSError, RuntimeError) as e:
        raise SystemExit("shipped_model: %s" % e)
