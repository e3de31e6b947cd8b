"""The GPU check's stages (tools/gpu/measure.py): each runs zhbot or PyTorch on the machine and
writes its section of the report, DIR/sections/NN-NAME.md. A stage returns None, or what
failed (the report is still written)."""
import os
import re
import shlex
import shutil
import subprocess
import sys
import time

from tools.zhtools.steps import StepFailed, step


def section(args, name, lines):
    with open(os.path.join(args.dir, "sections", name + ".md"), "w") as f:
        f.write("\n".join(lines) + "\n")


def tool(*names):
    """The first of the names found: on PATH or beside this Python (pip's cmake and ninja)."""
    for name in names:
        found = shutil.which(name) or shutil.which(name, path=os.path.dirname(sys.executable))
        if found:
            return found
    return None


def output(argv, **kw):
    """(status, stdout and stderr together) of a command; a command that cannot start is 127."""
    try:
        done = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                              **kw)
    except OSError as e:
        return 127, str(e)
    return done.returncode, done.stdout


def need_zhbot(args):
    if not os.access(args.zhbot, os.X_OK):
        raise SystemExit("gpu_check: no zhbot at %s: run the build stage first (or --zhbot)"
                         % args.zhbot)


def torch_line(code):
    status, said = output([sys.executable, "-c", "import torch\n" + code])
    return said.strip() if status == 0 else "(%s)" % (said.strip().splitlines() or ["?"])[-1]


def build(args):
    log = os.path.join(args.dir, "build.log")
    cmake, ninja = tool("cmake"), tool("ninja")
    if not cmake:
        raise SystemExit("gpu_check: no cmake (pip install cmake, or apt-get install cmake)")
    torch_dir = torch_line("print(torch.utils.cmake_prefix_path)")
    # A LibTorch built with the old C++ ABI needs every object built with it.
    abi = torch_line("print(int(torch.compiled_with_cxx11_abi()))")
    prefix = os.path.join(args.carry, "prefix")
    if not os.path.isdir(prefix):
        print("gpu_check: no %s (prepare stage): using the system's headers" % prefix)
    configure = [cmake, "-S", ".", "-B", os.path.join(args.dir, "build")]
    configure += ["-G", "Ninja", "-DCMAKE_MAKE_PROGRAM=" + ninja] if ninja else []
    configure += ["-DCMAKE_BUILD_TYPE=Release", "-DZH_BUILD_BOT=OFF", "-DZH_BUILD_TESTS=OFF",
                  "-DZH_CCACHE=OFF", "-DZH_WERROR=OFF",
                  "-DCMAKE_PREFIX_PATH=%s;%s" % (prefix, torch_dir),
                  "-DCMAKE_CXX_STANDARD_INCLUDE_DIRECTORIES=" + os.path.join(prefix, "include"),
                  "-DCMAKE_CXX_FLAGS=-D_GLIBCXX_USE_CXX11_ABI=" + abi]
    configure += shlex.split(args.cmake_args)
    with open(log, "w") as f:
        ok = subprocess.run(configure, stdout=f, stderr=subprocess.STDOUT).returncode == 0
        if ok and not args.configure_only:
            ok = subprocess.run([cmake, "--build", os.path.join(args.dir, "build"), "--target",
                                 "zhbot", "-j", str(len(os.sched_getaffinity(0)))], stdout=f,
                                stderr=subprocess.STDOUT).returncode == 0
    if not ok:
        status = "FAILED (the last lines of %s below)" % log
    elif args.configure_only:
        status = "configured (--configure-only: not compiled)"
    else:
        status = "built: " + output([args.zhbot, "--version"])[1].strip().split("\n")[0]
    lines = ["## Build", "", "Engine-only zhbot (-DZH_BUILD_BOT=OFF) against PyTorch %s's LibTorch "
             "(%s, C++11 ABI %s): %s" % (torch_line("print(torch.__version__)"), torch_dir, abi,
                                         status), ""]
    lines += versions()
    if not ok:
        with open(log) as f:
            lines += ["", "```"] + f.read().splitlines()[-25:] + ["```"]
    cache = os.path.join(args.dir, "build", "CMakeCache.txt")
    found = ""
    if os.path.exists(cache):
        with open(cache) as f:
            hit = re.search(r"^nlohmann_json_DIR:[^=]*=(.*)$", f.read(), re.M)
        found = hit.group(1) if hit else ""
    # Paths inside the checkout are shown relative to it: the report goes into the docs.
    root = os.getcwd() + os.sep
    lines.append("- header-only libraries: %s/include (nlohmann_json from %s)"
                 % (prefix.replace(root, ""), found.replace(root, "")))
    section(args, "10-build", lines)
    return None if ok else "build failed (log: %s)" % log


def versions():
    """One line per tool, or "missing"."""
    lines = []
    for name in ("g++", "c++", "cmake", "ninja", "nvcc", "nvidia-smi"):
        path = tool(name)
        if not path:
            lines.append("- %s: missing" % name)
            continue
        said = output([path, "--version"])[1]
        first = next((x for x in said.splitlines() if re.search(r"\d+\.\d+", x)), "")
        lines.append("- %s: %s (%s)" % (name, first, path))
    return lines


FACTS = """import torch
print("- PyTorch %s, CUDA %s, cuDNN %s" % (torch.__version__, torch.version.cuda,
      torch.backends.cudnn.version() if torch.backends.cudnn.is_available() else "none"))
if torch.cuda.is_available():
    for i in range(torch.cuda.device_count()):
        p = torch.cuda.get_device_properties(i)
        print("- cuda:%d %s, sm_%d%d, %d SMs, %.1f GiB" % (i, p.name, p.major, p.minor,
              p.multi_processor_count, p.total_memory / 2**30))
    print("- architectures this PyTorch carries code for: %s"
          % " ".join(torch.cuda.get_arch_list()))
else:
    print("- torch.cuda.is_available(): False")
"""


def facts(args):
    need_zhbot(args)
    lines = ["## Device", ""]
    smi = tool("nvidia-smi")
    if smi:
        lines += ["```", output([smi, "--query-gpu=name,driver_version,memory.total,compute_cap,"
                                 "power.limit,clocks.max.sm", "--format=csv"])[1].strip(), "```"]
    else:
        lines.append("nvidia-smi: not found")
    lines += output([sys.executable, "-c", FACTS])[1].strip().splitlines()
    with open("/proc/cpuinfo") as f:
        cpu = re.search(r"^model name\s*: (.*)$", f.read(), re.M)
    with open("/proc/meminfo") as f:
        memory = int(re.search(r"^MemTotal:\s*(\d+)", f.read(), re.M).group(1))
    lines += ["- CPU: %s, %d cores" % (cpu.group(1) if cpu else "?", len(os.sched_getaffinity(0))),
              "- memory: %.0f GiB" % (memory / 1048576),
              "- zhbot: %s" % output([args.zhbot, "--version"])[1].strip()]
    section(args, "20-facts", lines)


def nnbench(args):
    need_zhbot(args)
    random = os.path.join(args.dir, "random-%s.pt" % args.random_arch)
    if not os.path.exists(random):
        subprocess.run([sys.executable, "-m", "training.make_random_net", random, "--arch",
                        args.random_arch, "--seed", "1"], stdout=subprocess.DEVNULL, check=True)
    lines = ["## nnbench (%s)" % args.device, "",
             "Positions/s at each batch size: (a) the raw forward pass, (b) evaluate() with "
             "encoding", "and priors, (c) the InferenceService fed by producer threads (zhbot "
             "nnbench)."]
    # Every precision in the backend's default layout (`auto`: NCHW on CUDA), then the shipped
    # network in the layout runs (PRECISION:LAYOUT, the torch backend's `layout` option): a GPU
    # measures there whether channels-last, which bf16 on a CPU runs 1.5-1.9x as fast, pays.
    runs = [(net, precision, None) for net in (args.shipped_net, random)
            for precision in args.precisions.split()]
    for run in args.layout_runs.split():
        if run.count(":") != 1:
            raise SystemExit("gpu_check: a layout run is PRECISION:LAYOUT, not '%s'" % run)
        runs.append((args.shipped_net,) + tuple(run.split(":")))
    for net, precision, layout in runs:
        opts = "--precision %s%s %s" % (precision, " --backend-options layout=" + layout
                                        if layout else "", args.nnbench_opts)
        argv = [args.zhbot, "nnbench", "--model", net, "--batch", args.batches, "--device",
                args.device] + shlex.split(opts)
        status, said = output(argv)
        lines += ["", "### %s, %s%s" % (os.path.basename(net)[:-len(".pt")], precision,
                                        ", layout " + layout if layout else ""), "",
                  "`zhbot nnbench --model %s --batch %s --device %s %s`"
                  % (net, args.batches, args.device, opts), "",
                  "```", said.rstrip("\n") + ("\n(nnbench failed)" if status else ""), "```"]
    section(args, "30-nnbench", lines)


SEARCH_LINE = re.compile(r"^nodes +(\d+) in (\d+) ms \((\d+) nodes/s\), (\d+) network", re.M)


def search(args):
    need_zhbot(args)
    lines = ["## One game's search (%s, shipped network)" % args.device, "",
             "`zhbot analyse --fen '%s' --nodes %d -o threads=T -o device=%s`;"
             % (args.search_fen, args.search_nodes, args.device),
             "the other search options are the device's defaults. A middlegame with drops: from "
             "the", "start position the network's prior is almost all on one move, and a tree "
             "that narrow", "leaves the threads' mini-batches little to spread over.", "",
             "| search threads | nodes/s | network evaluations | time |",
             "| ---: | ---: | ---: | ---: |"]
    for threads in args.search_threads.split():
        status, said = output([args.zhbot, "analyse", "--fen", args.search_fen, "--nodes",
                               str(args.search_nodes), "-o", "threads=" + threads, "-o",
                               "device=" + args.device, "-o", "model=" + args.shipped_net])
        found = SEARCH_LINE.search(said) if status == 0 else None
        if found:
            lines.append("| %s | %s | %s | %s ms |"
                         % (threads, found.group(3), found.group(4), found.group(2)))
        else:
            lines.append("| %s | failed | | |" % threads)
    section(args, "40-search", lines)


def games(args):
    need_zhbot(args)
    lines = ["## Games at once (%s)" % args.device, "",
             "`zhbot selfplay --games N --threads T --nodes %d -o device=%s` for each N x T"
             % (args.game_nodes, args.device),
             "of %s: one game alone shows what a single game's search leaves of the device"
             % args.game_runs,
             "(batch fill, queue wait), more games what the device gives when batches are full."]
    for run in args.game_runs.split():
        n, _, t = run.partition("x")
        status, said = output([args.zhbot, "selfplay", "--games", n, "--threads", t, "--nodes",
                               str(args.game_nodes), "-o", "device=" + args.device, "-o",
                               "model=" + args.shipped_net])
        kept = [x for x in said.splitlines() if not x.startswith("[info]")]
        kept += ["(selfplay failed)"] if status else []
        lines += ["", "### %s game(s), %s search thread(s) each" % (n, t), "", "```"]
        lines += kept[-12:] + ["```"]
    section(args, "50-games", lines)


def datagen(args):
    """Teacher games on every core, chunk by chunk (--datagen-seeds, default 30000 up); a chunk
    is not started when the last one's time would carry it past --datagen-minutes (a chunk cut
    off by a deadline is lost). With --out-dir, each finished chunk goes back packed."""
    need_zhbot(args)
    teacher = os.path.join(args.carry, "bin", "fairy-stockfish")
    if not os.access(teacher, os.X_OK):
        teacher = "/usr/games/fairy-stockfish"
    if not os.access(teacher, os.X_OK):
        raise SystemExit("gpu_check: no teacher engine: run the prepare stage (it carries "
                         "Fairy-Stockfish)")
    gen = os.path.join(args.dir, "datagen")
    os.makedirs(gen, exist_ok=True)
    seeds = args.datagen_seeds or range(30000, 30000 + args.datagen_chunks)
    started, last, made = time.monotonic(), 0, 0
    deadline = started + args.datagen_minutes * 60
    for seed in seeds:
        if made >= args.datagen_chunks or time.monotonic() + last >= deadline:
            break
        t = time.monotonic()
        out = os.path.join(gen, "chunk-%d" % seed)

        def make(log, out=out, seed=seed):  # a chunk cut off is made again from its seed
            shutil.rmtree(out, ignore_errors=True)
            subprocess.run([args.zhbot, "datagen", "--out", out, "--teacher", teacher,
                            "--workers", str(args.workers), "--games", str(args.chunk_games),
                            "--seed", str(seed)] + shlex.split(args.datagen_opts), stdout=log,
                           stderr=subprocess.STDOUT, check=True)
        try:
            step(gen, "chunk-%d" % seed, make)
        except StepFailed as e:
            return str(e)
        last, made = time.monotonic() - t, made + 1
        packed = os.path.join(args.out_dir or "", "chunk-%d.tar.xz" % seed)
        if args.out_dir and not os.path.exists(packed):
            subprocess.run(["tar", "-cJf", packed, "-C", gen, "chunk-%d" % seed,
                            "chunk-%d.log" % seed], env=dict(os.environ, XZ_OPT="-T0"),
                           check=True)
    done = sorted(f for f in os.listdir(gen) if f.startswith("chunk-") and f.endswith(".done"))
    logs = []
    for name in sorted(os.listdir(gen)):
        if name.endswith(".log"):
            with open(os.path.join(gen, name), errors="replace") as f:
                logs += [x for x in f.read().splitlines() if x.startswith(("time", "throughput"))]
    throughput = [x for x in logs if x.startswith("throughput")]
    section(args, "60-datagen", [
        "## Teacher data (optional)", "",
        "%d chunk(s) of %d games (%s, %d workers, Fairy-Stockfish" % (
            len(done), args.chunk_games, args.datagen_opts, args.workers),
        "carried with the tree); the last: `%s`" % (throughput[-1] if throughput else ""), ""]
        + ["    " + x for x in logs])


def train(args):
    need_zhbot(args)
    run = os.path.join(args.dir, "train")
    data = args.train_data or [d for d in (os.path.join(args.carry, "data"),
                                           os.path.join(args.dir, "datagen")) if os.path.isdir(d)]
    if not data:
        raise SystemExit("gpu_check: no training data: carry some (--carry-data at prepare) or "
                         "run datagen")
    resume = ["--resume"] if os.path.exists(os.path.join(run, "last.ckpt")) else []
    log, export_log = os.path.join(args.dir, "train.log"), os.path.join(args.dir, "export.log")
    net = os.path.join(args.dir, "gpu-%s.pt" % args.train_arch)
    with open(log, "a") as f:
        trained = subprocess.run(
            [sys.executable, "-m", "training.train", "--data", *data, "--out", run, "--arch",
             args.train_arch, "--device", "cuda" if args.device.startswith("cuda") else "cpu",
             "--time-budget-minutes", "%g" % args.train_minutes]
            + shlex.split(args.train_opts) + resume, stdout=f, stderr=subprocess.STDOUT)
    if trained.returncode:
        return "training failed (log: %s)" % log
    with open(export_log, "w") as f:
        exported = subprocess.run(
            [sys.executable, "-m", "training.export", os.path.join(run, "best.ckpt"), net,
             "--data", *data, "--zhbot", args.zhbot, "--name", "gpu-check-" + args.train_arch],
            stdout=f, stderr=subprocess.STDOUT)
    if exported.returncode:
        return "export failed (log: %s)" % export_log
    with open(log) as f:
        tail = f.read().splitlines()[-5:]
    with open(export_log) as f:
        tail += f.read().splitlines()[-3:]
    section(args, "70-train", [
        "## A %s network trained here (optional)" % args.train_arch, "",
        "Data: %s. The checkpoint (best.ckpt, a plain state dict) re-exports for" % " ".join(data),
        "LibTorch 1.13 on the CPU machine: `python3 -m training.export best.ckpt OUT.pt --data "
        "DIR`.", "", "```"] + tail + ["```"])
    if args.out_dir:
        shutil.copy(os.path.join(run, "best.ckpt"),
                    os.path.join(args.out_dir, "gpu-%s.ckpt" % args.train_arch))
