"""The next network in one resumable command, measured the way every shipped network is:

  1. the recipe's teacher chunks (tools/lab/recipe.toml): CHUNK_GAMES games at NODES nodes a
     position each, from its own seed (SEED + chunk number), in LAB/data/teacher-NODES; a chunk
     the shared folder holds (lab.shared_data_dir()/teacher-NODES/chunk-SEED.tar.xz) is imported
     and checked instead of made, a damaged one refused with its name and made from its seed;
     then the held-out test set, LAB/data/test-TEST_NODES;
  2. a network trained on the base set plus those chunks (plus --extra-data), for the recipe's
     minutes, or for a fixed step count (train_minutes 0, --max-steps in train_opts); from
     scratch, or warm with --init-from in train_opts. Every chunk is made and shared in input
     format 1.0; a recipe of another input_format trains on copies re-encoded into it once
     (`zhbot datagen --reencode`, LAB/data/format-F/ mirroring LAB/data/), and so measures,
     exports and checks the new network on those copies;
  3. its held-out accuracy on the test set and on the base set's held-out games, and the
     shipped network's (--previous) on the same positions;
  4. the TorchScript export and its int8 file, each checked against zhbot's evaluator;
  5. a gate at --gate-nodes nodes a move against --previous: a sequential test (SPRT(0,
     --gate-elo1) in normalized Elo, the search's test, on colour-balanced pairs) or, with
     --gate games, --gate-games games and a score of --gate-min; then, for a network that passed
     it, a colour-balanced timed match against --previous, refereed by Fairy-Stockfish.

Every step leaves a marker (tools.zhtools.steps) and is skipped when run again: after an
interruption the same command goes on (a chunk cut off is taken up where it stopped, the
training resumes from its last checkpoint, the match from its last finished game). --data-only
stops after the chunks and the test set: how the bulk of the data is made in the background
(tools/lab/lab_chunks.sh). Shipping is then a decision, not a step (training/README.md).

  python3 -m tools.lab.next_network [DIR] [options]   (DIR: the run's folder, default LAB/NAME)
"""
import os
import shutil
import subprocess
import sys
import time

from tools.zhtools import ROOT, chunk_import, input_format, lab, recipe, shipped
from tools.zhtools.steps import StepFailed, step

QUIET = os.path.join(ROOT, "tools", "measure", "quiet.sh")
# The fixed-node gates' clock: long enough that moves at a fixed node count never run short.
FIXED_NODE_CLOCK = "5+3"


def parse_args(argv):
    p, rec = recipe.recipe_parser(argv, "python3 -m tools.lab.next_network", __doc__)
    recipe.add_recipe_options(p, rec)
    p.add_argument("--data-only", action="store_true",
                   help="only the chunks and the test set (the background data job)")
    p.add_argument("--zhbot", default=os.path.join(ROOT, "build/default/bot/zhbot"))
    p.add_argument("--workers", type=int, default=2, help="datagen workers, training threads")
    p.add_argument("--datagen-opts", default="",
                   help="more datagen options, one string (the shared folder is then not used)")
    p.add_argument("--data-dir", help="the chunks' folder (default LAB/data/teacher-NODES)")
    p.add_argument("--teacher", default=lab.teacher_path(),
                   help="the Fairy-Stockfish that labels (default: the lab's 8x8 build "
                   "LAB/bin/fairy-stockfish where tools.lab.teacher_build made one, else "
                   "Debian's)")
    p.add_argument("--test-nodes", type=int, default=100000)
    p.add_argument("--test-games", type=int, default=40)
    p.add_argument("--test-set", help="the test set's folder (default LAB/data/test-TEST_NODES)")
    p.add_argument("--base-data", help="the base set trained on beside the chunks (default: "
                   "the starter set, LAB/data/starter, imported from $ZHBOT_TEACHER_SET; '' for "
                   "none)")
    p.add_argument("--extra-data", nargs="*", default=[], help="more training folders")
    p.add_argument("--arch", default="resnet-6x64")
    p.add_argument("--eval-positions", type=int, default=50000)
    p.add_argument("--eval-permille", type=int, default=50)
    p.add_argument("--previous", help="the network to beat (default: the shipped one)")
    p.add_argument("--match-games", type=int, default=60,
                   help="0: no match (a trial's run); a network ships at 55 %% over 60 or more")
    p.add_argument("--match-tc", default="1+1")
    p.add_argument("--match-max-plies", type=int, default=400)
    p.add_argument("--match-concurrency", type=int, default=1,
                   help="games at once (a game keeps one core busy)")
    p.add_argument("--gate", choices=["sprt", "games"], default="sprt",
                   help="sprt: a sequential test decides whether the timed match is played "
                   "(what a network that ships must pass); games: --gate-games games and "
                   "--gate-min (a trial's cheap check)")
    p.add_argument("--gate-nodes", type=int, default=1000,
                   help="nodes a move of both sides in the gate (the SPRT queue's 1 000)")
    p.add_argument("--gate-elo1", type=float, default=20,
                   help="--gate sprt: H1, normalized Elo (H0: 0; alpha = beta = 0.05)")
    p.add_argument("--gate-max-pairs", type=int, default=400,
                   help="--gate sprt: pairs without a verdict after which the run stops; a "
                   "larger number run again goes on with the same games")
    p.add_argument("--gate-games", type=int, default=40, help="--gate games: 0 = no gate")
    p.add_argument("--gate-min", type=float, default=0.5,
                   help="--gate games: the score under which no timed match is played")
    p.add_argument("--no-quiet", dest="quiet", action="store_false",
                   help="train and play the timed match beside the lab's other jobs instead of "
                   "pausing them (tools/measure/quiet.sh): only where cores are to spare")
    args = p.parse_args(argv)
    if args.gate_elo1 <= 0 or args.gate_max_pairs < 1:
        p.error("--gate-elo1 %g --gate-max-pairs %d: want elo1 above 0 and at least one pair"
                % (args.gate_elo1, args.gate_max_pairs))
    args.dir = os.path.abspath(args.dir or os.path.join(lab.lab_dir(), args.name))
    args.data_dir = os.path.abspath(args.data_dir or lab.teacher_dir(args.nodes))
    args.test_set = os.path.abspath(
        args.test_set or os.path.join(lab.lab_dir(), "data", "test-%d" % args.test_nodes))
    args.previous = args.previous or os.path.join(ROOT, shipped.shipped_model())
    return args


class Pipeline:
    """The run's steps on the settings `args`; `say` prints to the terminal."""

    def __init__(self, args):
        self.a = args
        self.chunks = [os.path.join(args.data_dir, "chunk-%d" % s)
                       for s in recipe.seeds(vars(args))]

    def formatted(self, folder, fmt=None):
        """`folder`'s records in input format `fmt` (default: the run's)."""
        return input_format.formatted(folder, fmt or self.a.input_format, self.a.zhbot)

    def quiet(self, argv):
        """`argv` run with the lab's other jobs paused (tools/measure/quiet.sh), unless --no-quiet.
        A timed match needs it (load steals clock from both sides unequally), and so does the
        training: multi-threaded training beside other work collapses, bf16 worst (2 threads on
        2 busy cores: 12 samples/s against 890 quiet, training/README.md, "The lab")."""
        return [QUIET, *argv] if self.a.quiet else argv

    def python(self, module, *args):
        return [sys.executable, "-m", module, *map(str, args)]

    # ---- data ----
    def chunk(self, seed):
        """The chunk of `seed`: imported from the shared folder, else made (one cut off is
        taken up)."""
        a = self.a

        def make(log):
            archive = lab.shared_chunk(a.nodes, seed)
            if os.path.isfile(archive) and not a.datagen_opts:
                ok, verdict = chunk_import.import_chunk(archive, a.data_dir, seed, a.chunk_games,
                                                        a.nodes)
                if not ok:
                    verdict += "; chunk-%d is made again from its seed" % seed
                log.write(verdict + "\n")
                print(verdict, flush=True)
                if ok:
                    return
                shutil.rmtree(os.path.join(a.data_dir, "chunk-%d" % seed), ignore_errors=True)
            # Three tries: on a loaded machine a niced teacher can miss its start-up deadline.
            # The first takes up what a run cut off left (datagen plays only the games still
            # missing); the others start over, in case what was left is what fails.
            out = os.path.join(a.data_dir, "chunk-%d" % seed)
            argv = [a.zhbot, "datagen", "--out", out, "--nodes", str(a.nodes), "--games",
                    str(a.chunk_games), "--workers", str(a.workers), "--seed", str(seed),
                    "--teacher", a.teacher, "--progress", "60",
                    *recipe.split_opts(a.datagen_opts)]
            for attempt in (1, 2, 3):
                if attempt > 1:
                    shutil.rmtree(out, ignore_errors=True)
                if subprocess.run(argv, stdout=log, stderr=subprocess.STDOUT).returncode == 0:
                    return
                log.write("chunk %d: try %d failed\n" % (seed, attempt))
                if attempt < 3:
                    time.sleep(30)
            raise StepFailed("chunk %d: three tries failed" % seed)
        return make

    def test_set(self, log):
        a = self.a
        shards = os.path.join(a.test_set, "shards")
        shutil.rmtree(shards, ignore_errors=True)
        subprocess.run([a.zhbot, "datagen", "--out", shards, "--nodes", str(a.test_nodes),
                        "--games", str(a.test_games), "--workers", str(a.workers), "--seed",
                        str(a.test_nodes), "--teacher", a.teacher, "--progress", "60"], stdout=log,
                       stderr=subprocess.STDOUT, check=True)

    # ---- network ----
    def train(self, log):
        a = self.a
        resume = ["--resume"] if os.path.exists(os.path.join(a.dir, "run", "last.ckpt")) else []
        data = [self.formatted(d) for d in
                ([a.base_data] if a.base_data else []) + self.chunks + a.extra_data]
        argv = self.python("training.train", "--data", *data, "--out", os.path.join(a.dir, "run"),
                           "--arch", a.arch, "--time-budget-minutes", "%g" % a.train_minutes,
                           "--threads", a.workers) + recipe.split_opts(a.train_opts) + resume
        subprocess.run(self.quiet(argv), stdout=log, stderr=subprocess.STDOUT, check=True)

    def evaluate(self, net, out, fmt):
        """Held-out metrics of `net` (of input format `fmt`) as JSON: OUT.test.json (the test
        set) and OUT.json (the base set's held-out games), in that format: the same positions
        whatever the format (a re-encoded copy keeps every record in its place)."""
        a = self.a

        def measure(log):
            test = self.formatted(os.path.join(a.test_set, "shards"), fmt)
            runs = [(out + ".test.json", ["--data", test, "--test-set", "--positions", 0])]
            if a.base_data:
                runs.append((out + ".json", ["--data", self.formatted(a.base_data, fmt),
                                             "--positions", a.eval_positions,
                                             "--validation-permille", a.eval_permille]))
            for path, opts in runs:
                with open(path + ".tmp", "w") as f:
                    subprocess.run(self.python("training.evaluate", net, *opts, "--threads",
                                               a.workers), stdout=f, stderr=log, check=True)
                os.replace(path + ".tmp", path)
        return measure

    def network(self):
        """The run's exported network."""
        return os.path.join(self.a.dir, self.a.name + ".pt")

    @staticmethod
    def spec(model, spec_opts):
        """The engine spec of zhbot playing `model` (tools.measure.strength)."""
        return "zhbot:model=%s%s" % (model, spec_opts)

    def match(self, games, out, spec_opts, tc):
        a = self.a
        return self.python("tools.measure.strength", "match", "--zhbot", a.zhbot,
                           "--a", self.spec(self.network(), spec_opts),
                           "--b", self.spec(a.previous, spec_opts),
                           "--games", games, "--max-plies", a.match_max_plies, "--out", out,
                           "--concurrency", a.match_concurrency, "--tc", tc)

    def sprt_gate(self, spec_opts):
        """The SPRT gate: pairs at --gate-nodes until a verdict or --gate-max-pairs pairs, from
        the SPRT queue's openings (tools/lab/sprt-queue.toml). The games stay in gate-sprt.jsonl,
        so a run with a larger --gate-max-pairs goes on with them (a step of its own); returns
        "H1", "H0" or None (no verdict yet)."""
        from tools.lab import sprt_queue
        from tools.measure.strength import sprt, sprt_match
        a = self.a
        verdict_file = os.path.join(a.dir, "gate-sprt.verdict")
        test = sprt.Sprt(0, a.gate_elo1)

        def play(log):
            first, more, _ = sprt_queue.test_openings(sprt_queue.load_queue()[0])
            _, tally = sprt_match.run_sprt(
                self.spec(self.network(), spec_opts), self.spec(a.previous, spec_opts), test,
                FIXED_NODE_CLOCK, os.path.join(a.dir, "gate-sprt.jsonl"), a.zhbot, first,
                a.match_max_plies, a.gate_max_pairs, a.match_concurrency,
                log=lambda line: log.write(line + "\n"), more_openings=more)
            with open(verdict_file + ".tmp", "w") as f:
                f.write("%s\n%s\n" % (tally.verdict or "none", tally.line()))
            os.replace(verdict_file + ".tmp", verdict_file)

        what = "%s at %d nodes a move, up to %d pairs" % (test, a.gate_nodes, a.gate_max_pairs)
        step(a.dir, "gate-sprt-%d" % a.gate_max_pairs, play, what=what)
        with open(verdict_file) as f:
            verdict, line = f.read().splitlines()[:2]
        print("== gate: %s, %s at %d nodes a move: %s"
              % (a.name, test, a.gate_nodes, line))
        return None if verdict == "none" else verdict

    def gate_score(self, spec_opts):
        from tools.measure.strength import runner, stats
        results = runner.load_results(os.path.join(self.a.dir, "gate.jsonl"))
        return stats.summarize(results, self.spec(self.network(), spec_opts))[1], len(results)

    def run(self):
        a = self.a
        for seed in recipe.seeds(vars(a)):
            step(a.data_dir, "chunk-%d" % seed, self.chunk(seed),
                 what="%d games at %d nodes from seed %d" % (a.chunk_games, a.nodes, seed))
        step(a.test_set, "test-set", self.test_set,
             what="%d games at %d nodes" % (a.test_games, a.test_nodes))
        if a.data_only:
            print("== data only: %d chunks of %d games at %d nodes in %s"
                  % (a.chunks, a.chunk_games, a.nodes, a.data_dir))
            return
        best = os.path.join(a.dir, "run", "best.ckpt")
        net = self.network()
        check_data = self.formatted(a.base_data or self.chunks[0])
        step(a.dir, "train", self.train, what="training.train (input format %s)" % a.input_format)
        step(a.dir, "eval", self.evaluate(best, os.path.join(a.dir, "eval"), a.input_format),
             what="training.evaluate " + best)
        step(a.dir, "eval-previous",
             self.evaluate(a.previous, os.path.join(a.dir, "eval-previous"),
                           input_format.network_format(a.previous)),
             what="training.evaluate " + a.previous)
        step(a.dir, "export", self.python("training.export", best, net, "--data", check_data,
                                          "--zhbot", a.zhbot, "--check-positions", 256,
                                          "--name", a.name))
        step(a.dir, "quantize", self.python("training.quantize", net,
                                            shipped.int8_twin(net), "--data",
                                            check_data, "--zhbot", a.zhbot))
        match_games = a.match_games
        gate_spec = ",nodes=%d" % a.gate_nodes
        if match_games and a.gate == "sprt":
            verdict = self.sprt_gate(gate_spec)
            if verdict != "H1":
                print("== %s: no timed match" % (
                    "H0 accepted (no stronger)" if verdict == "H0" else
                    "no verdict within %d pairs (a larger --gate-max-pairs goes on)"
                    % a.gate_max_pairs))
                match_games = 0
        elif match_games and a.gate_games:
            step(a.dir, "gate", self.match(a.gate_games, os.path.join(a.dir, "gate.jsonl"),
                                           gate_spec, FIXED_NODE_CLOCK))
            score, games = self.gate_score(gate_spec)
            print("== gate: %s scored %.1f%% in %d games at %d nodes a move"
                  % (a.name, 100 * score, games, a.gate_nodes))
            if score < a.gate_min:
                print("== under --gate-min %g: no timed match (--gate-min 0 plays it)" % a.gate_min)
                match_games = 0
        if match_games:
            step(a.dir, "match", self.quiet(self.match(match_games,
                                                       os.path.join(a.dir, "match.jsonl"), "",
                                                       a.match_tc)))
        self.summary()

    def summary(self):
        from training import data
        a = self.a
        d = data.Dataset(self.chunks)
        print("== %s: %d new positions from %d games" % (a.name, len(d), d.games))
        for f in ("eval.test", "eval", "eval-previous.test", "eval-previous"):
            path = os.path.join(a.dir, f + ".json")
            if os.path.exists(path):
                print("%s: %s" % (f, metrics_line(path)))
        if os.path.exists(os.path.join(a.dir, "match.done")):
            with open(os.path.join(a.dir, "match.log")) as f:
                print(f.read().splitlines()[-1])


def metrics_line(path):
    """The held-out figures of training.evaluate's JSON output, in one line."""
    import json
    with open(path) as f:
        m = json.load(f)

    def pct(x):
        return "n/a" if x is None else "%.1f%%" % (100 * x)
    return ("top-1 %s, top-5 %s, value MSE %.3f, sign %s, mate-in-one %s (%d positions)"
            % (pct(m["top1"]), pct(m["top5"]), m["value_mse"], pct(m["value_sign_accuracy"]),
               pct(m["mate_in_one_top1"]), m["positions"]))


def prepare(args):
    """Checks the inputs before any work; the starter set imported when it is the base."""
    if not os.access(args.zhbot, os.X_OK):
        raise SystemExit("--zhbot %s: not built (make build)" % args.zhbot)
    if not os.path.isfile(args.previous):
        raise SystemExit("--previous %s: no such file" % args.previous)
    input_format.network_format(args.previous)  # a file zhbot cannot read is named before any work
    starter = os.path.join(lab.lab_dir(), "data", "starter")
    if args.base_data is None or os.path.abspath(args.base_data) == starter:
        try:
            found = chunk_import.import_starter(starter, os.environ.get("ZHBOT_TEACHER_SET"),
                                                args.zhbot)
        except chunk_import.StarterError as e:
            raise SystemExit(str(e))
        if found:
            args.base_data = starter
        else:
            print("no starter set (set ZHBOT_TEACHER_SET to import it): training on the lab's "
                  "chunks only")
            args.base_data = ""
    elif args.base_data:
        args.base_data = os.path.abspath(args.base_data)
        if not os.path.isdir(args.base_data):
            raise SystemExit("--base-data %s: no such directory" % args.base_data)
    for folder in (args.dir, args.data_dir, args.test_set):
        os.makedirs(folder, exist_ok=True)


def main(argv=None):
    args = parse_args(argv)
    os.environ["OPENBLAS_NUM_THREADS"] = "1"
    prepare(args)
    try:
        Pipeline(args).run()
    except StepFailed as e:
        raise SystemExit(str(e))


if __name__ == "__main__":
    main()
