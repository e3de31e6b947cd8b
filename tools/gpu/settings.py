"""The GPU session's settings: options on its command line, defaults by scale (a rented
server's `full`, or `toy`: the CI test's sizes on a CPU) and from the recipe (its chunks' node
count and games)."""
import os

from tools.zhtools import ROOT, recipe, shipped

MIB = 1024 * 1024
# Per scale: the chunks' datagen options, the training's options, the session's length, the
# disk the check asks for, and the margins of the session's clock (seconds): the training's
# end, its export and the report; PyTorch, CUDA and the data loaded (no step yet); the least
# training worth starting; a chunk packed after its last game; the first chunk's time before
# one was measured (14 workers at 3 000 nodes; an H100 machine made 1 000 games in 80 s).
SCALES = {
    "full": dict(nodes=None, chunk_games=None, datagen_opts="",
                 train_opts="--batch-size 512 --lr 0.02 --seed 1 --epoch-steps 2000",
                 session_seconds=10800, disk_gb=16, export_seconds=40, train_start_seconds=30,
                 train_min_seconds=60, pack_seconds=25, first_chunk_seconds=170),
    "toy": dict(nodes=50, chunk_games=1, datagen_opts="--max-plies 12",
                train_opts="--batch-size 16 --validation-permille 500 --epoch-steps 10 --seed 1",
                session_seconds=45, disk_gb=2, export_seconds=12, train_start_seconds=5,
                train_min_seconds=5, pack_seconds=2, first_chunk_seconds=5),
}


def add_options(p):
    """The options every subcommand takes."""
    p.add_argument("--scale", choices=sorted(SCALES), default="full",
                   help="defaults for a rented server (full) or the CI test on a CPU (toy)")
    p.add_argument("--dir", default="build/gpu-session", help="the session's work folder")
    p.add_argument("--carry", default="build/gpu-carry",
                   help="what travels with the checkout: headers, teacher, zhbot, chunks, seeds")
    p.add_argument("--device", default="cuda")
    p.add_argument("--shipped-net", help="the network trained from (default: the shipped one)")
    p.add_argument("--recipe", default=recipe.RECIPE, help="the recipe file (%(default)s)")
    p.add_argument("--nodes", type=int, help="teacher nodes a position (full: the recipe's)")
    p.add_argument("--chunk-games", type=int, help="games a chunk (full: the recipe's)")
    p.add_argument("--datagen-opts", help="more datagen options, one string")
    p.add_argument("--disk-gb", type=float, help="free disk the check asks for (16; toy: 2)")
    # prepare's
    p.add_argument("--travel-mb", type=int, default=2048,
                   help="prepare: what the checkout and the carry may weigh together")
    p.add_argument("--carry-chunks", help="prepare: a folder of chunk-SEED.tar.xz to train on "
                   "(default: the shared folder's teacher-NODES)")
    p.add_argument("--seeds", type=int, nargs="+",
                   help="the seeds to make (default: the recipe's that the lab and the shared "
                   "folder lack, from the top down)")
    p.add_argument("--recipe-seed", type=int, help="prepare: the recipe's first seed (recipe)")
    p.add_argument("--recipe-chunks", type=int, help="prepare: the recipe's chunks (recipe)")
    p.add_argument("--gpu-chunks", type=int, help="prepare: how many seeds (default: all missing)")
    p.add_argument("--datagen-zhbot", help="prepare: a zhbot to carry instead of building one")
    # run's
    p.add_argument("--session-seconds", type=int,
                   help="run: its length, its checks and export included (10800; toy: 45)")
    p.add_argument("--return-mb", type=int, default=2048,
                   help="run: what OUT may hold in all (0: no limit)")
    p.add_argument("--return-files", type=int, default=0,
                   help="run: how many files OUT may hold (0: no limit)")
    p.add_argument("--file-mb", type=int, default=0,
                   help="run: the largest file OUT may hold (0: no limit; the report flags one)")
    p.add_argument("--chunk-mb", type=int, default=11, help="run: a packed chunk's size")
    p.add_argument("--workers", type=int, help="run: teacher workers (default: cores - 2)")
    p.add_argument("--train-opts", help="run: training.train's options, one string")
    p.add_argument("--train-arch", help="run: the architecture (default: the shipped network's)")
    p.add_argument("--measure", action="store_true", help="run: first the measuring stages of "
                   "the GPU check, tools/gpu/measure.py (it builds zhbot against PyTorch's "
                   "LibTorch: minutes)")
    for name in ("export", "train_start", "train_min", "pack", "first_chunk"):
        p.add_argument("--%s-seconds" % name.replace("_", "-"), dest=name + "_seconds", type=int,
                       help="run: a margin of the session's clock (tools/gpu/settings.py)")


def resolve(args):
    """Fills what the scale, the recipe and the checkout decide; paths made absolute."""
    scale = SCALES[args.scale]
    r = recipe.load_recipe(args.recipe)
    for key, value in scale.items():
        if getattr(args, key, None) is None:
            setattr(args, key, value if value is not None else r[key])
    args.recipe_seed = r["seed"] if args.recipe_seed is None else args.recipe_seed
    args.input_format = r["input_format"]
    args.recipe_chunks = r["chunks"] if args.recipe_chunks is None else args.recipe_chunks
    args.dir = os.path.join(ROOT, args.dir)
    args.carry = os.path.join(ROOT, args.carry)
    args.shipped_net = os.path.join(ROOT, args.shipped_net or shipped.shipped_model())
    return args
