"""Makes a trained network the shipped default; it checks everything before it changes anything:

  - copies NAME.pt and its int8 file NAME-int8.pt (training/quantize.py) into models/;
  - names NAME.pt in kShippedModel (engine/evaluator_loader.cpp), zhbot's built-in default;
  - names it on config/zhbot.yaml's model line, which tools.zhtools.shipped (and so every tool
    and test) reads, and which Config.TheShippedConfigFileHoldsEveryOptionAtItsDefault keeps
    equal to the built-in default.

The earlier network stays in models/ (the card's commands and the next match name it). The
decision, and the card and README figures that justify it, stay with a person (the end of
training/README.md's lab section). Then: make build && make test.

  python3 -m tools.lab.ship_network LAB/NAME/NAME.pt
"""
import argparse
import os
import re
import shutil
import sys

from tools.zhtools import ROOT, shipped

LOADER = os.path.join(ROOT, "engine", "evaluator_loader.cpp")
LOADER_LINE = re.compile(r'^constexpr const char\* kShippedModel = "[^"]*";$', re.M)
MAX_BYTES = 20 * 1024 * 1024  # what the repository takes for a model file
NAME = re.compile(r"[A-Za-z0-9._-]+\.pt")


def refusal(model, int8):
    """Why `model` cannot ship, or None."""
    name = os.path.basename(model)
    if not NAME.fullmatch(name) or name.endswith("-int8.pt"):
        return ("%s: expected a network file NAME.pt (not its int8 file), NAME of letters, "
                "digits, . _ -" % model)
    if not os.path.isfile(model):
        return "%s: no such file" % model
    if not os.path.isfile(int8):
        return "%s: no int8 file beside the network (python3 -m training.quantize)" % int8
    for path in (model, int8):
        if os.path.getsize(path) > MAX_BYTES:
            return "%s: larger than 20 MB, too large to commit" % path
    if shipped.shipped_model() == os.path.join("models", name):
        return "%s is already the shipped network" % name
    with open(LOADER, encoding="utf-8") as f:
        if not LOADER_LINE.search(f.read()):
            return "%s: no kShippedModel line to change" % LOADER
    return None


def rewrite(path, pattern, line):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    with open(path, "w", encoding="utf-8") as f:
        f.write(pattern.sub(lambda _: line, text, count=1))


def main(argv=None):
    p = argparse.ArgumentParser(prog="python3 -m tools.lab.ship_network", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("model", help="the network file, PATH/NAME.pt, its int8 file beside it")
    args = p.parse_args(argv)
    model = args.model
    int8 = shipped.int8_twin(model)
    try:
        current = shipped.shipped_model()  # the config must have a model line
        why = refusal(model, int8)
    except (OSError, RuntimeError) as e:
        why = str(e)
    if why:
        print("ship_network: " + why, file=sys.stderr)
        return 1
    name = os.path.basename(model)
    shutil.copy(model, os.path.join(ROOT, "models", name))
    shutil.copy(int8, os.path.join(ROOT, "models", os.path.basename(int8)))
    rewrite(LOADER, LOADER_LINE, 'constexpr const char* kShippedModel = "%s";' % name)
    rewrite(shipped.CONFIG, shipped.MODEL_LINE, '  model: "%s"' % name)
    if shipped.shipped_model() != os.path.join("models", name):
        print("ship_network: %s: the model line did not change" % shipped.CONFIG, file=sys.stderr)
        return 1
    print("shipped %s (was %s): models/, %s, %s"
          % (name, current[len("models/"):], os.path.relpath(LOADER, ROOT),
             os.path.relpath(shipped.CONFIG, ROOT)))
    print("next: make build && make test, then the card (models/README.md) and the README's "
          "figures")
    return 0


if __name__ == "__main__":
    sys.exit(main())
