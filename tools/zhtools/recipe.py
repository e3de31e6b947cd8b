"""The next network's recipe (tools/lab/recipe.toml): its name, the teacher chunks it trains on
(seeds SEED .. SEED + CHUNKS - 1, CHUNK_GAMES games each at NODES nodes a position) and its
training settings. The lab's tools take their defaults from here; an option on their command
line wins."""
import argparse
import os
import shlex

from tools.zhtools import ROOT
from tools.zhtools.settings_file import check_table, read_toml

RECIPE = os.path.join(ROOT, "tools", "lab", "recipe.toml")
# Each setting and its type: a file that lacks one, or holds another, is refused by name.
FIELDS = {"name": str, "nodes": int, "chunk_games": int, "seed": int, "chunks": int,
          "input_format": str, "train_minutes": (int, float), "train_opts": str}
# The input formats a network can take (training/README.md, "Input formats").
INPUT_FORMATS = ("1.0", "2.0")


class RecipeError(ValueError):
    pass


def load_recipe(path=RECIPE):
    """The recipe as a dict of FIELDS; RecipeError saying what is wrong with the file."""
    where = "recipe %s" % path
    recipe = read_toml(path, where, RecipeError)
    check_table(recipe, FIELDS, where, RecipeError)
    if recipe["input_format"] not in INPUT_FORMATS:
        raise RecipeError("%s: input_format %r: want one of %s"
                          % (where, recipe["input_format"], ", ".join(INPUT_FORMATS)))
    return recipe


def recipe_parser(argv, prog, description):
    """A lab command's parser and its recipe: the file --recipe names in `argv` is read first
    (its values are the options' defaults; a bad one exits with the reason), then the parser
    gets the run's folder and --recipe. The caller adds the recipe's options it takes."""
    early = argparse.ArgumentParser(add_help=False)
    early.add_argument("--recipe", default=RECIPE)
    known, _ = early.parse_known_args(argv)
    try:
        recipe = load_recipe(known.recipe)
    except RecipeError as e:
        raise SystemExit(str(e))
    parser = argparse.ArgumentParser(prog=prog, description=description,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("dir", nargs="?", help="the run's folder (default LAB/NAME)")
    parser.add_argument("--recipe", default=RECIPE, help="the recipe file (%(default)s)")
    return parser, recipe


def seeds(recipe):
    """The recipe's chunk seeds, ascending."""
    return list(range(recipe["seed"], recipe["seed"] + recipe["chunks"]))


def add_recipe_options(parser, recipe, only=FIELDS):
    """Options --name, --nodes, ... (those in `only`) defaulting to the recipe's values."""
    helps = {"name": "the network's name and its run's folder", "nodes": "teacher nodes a position",
             "chunk_games": "games a chunk", "seed": "the first chunk's seed",
             "chunks": "how many chunks",
             "input_format": "the network's input format (chunks are made in 1.0, re-encoded)",
             "train_minutes": "training minutes (0: train_opts' --max-steps)",
             "train_opts": "training.train's options, one string"}
    for key in only:
        kind = FIELDS[key]
        parser.add_argument("--" + key.replace("_", "-"), dest=key, default=recipe[key],
                            type=float if kind != str and kind != int else kind,
                            choices=INPUT_FORMATS if key == "input_format" else None,
                            help="%s (recipe: %s)" % (helps[key], recipe[key]))


def split_opts(text):
    """A string of options (train_opts, datagen options) as an argv list."""
    return shlex.split(text or "")
