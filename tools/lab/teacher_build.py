"""The lab's teacher build: Fairy-Stockfish from Debian's source package of the installed version,
compiled for 8x8 boards and this CPU, installed as LAB/bin/fairy-stockfish, which the lab's data
jobs then label with (tools.zhtools.lab.teacher_path).

Why: Debian compiles Fairy-Stockfish for boards up to 12x10 (128-bit bitboards, `largeboards=yes`)
and for the oldest x86-64 CPU. Crazyhouse needs 64 bits; the same source for 8x8 labels 1.5 times
the positions a CPU second at the same nodes a position, and plays at least as well at equal
nodes (training/README.md, "The teacher build"). Debian's binary stays the referee and the
opponent of every match, so that the figures in docs/ keep one yardstick.

  python3 -m tools.lab.teacher_build [--out PATH] [--arch ARCH] [--jobs N] [--if-missing]
"""
import argparse
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

from tools.zhtools import lab
from tools.zhtools.fairy import FAIRY, FairyStockfish

PACKAGE = "fairy-stockfish"

# Positions whose perft counts the new build must give exactly as Debian's binary does: the
# start, and a middlegame with pieces in both pockets (drops among the moves).
PERFT_CHECKS = (
    ("position startpos", 3),
    ("position fen r1b1k2r/ppp2ppp/2n5/3np3/1bB5/2N2N2/PPPP1PPP/R1BQK2R[QPpn] w KQkq - 0 8", 2),
)


def choose_arch(cpuinfo):
    """Fairy-Stockfish's ARCH for a CPU (/proc/cpuinfo's text): popcnt where it has it
    (x86-64-modern), else the plain x86-64 build. Not pext (x86-64-bmi2): on 8x8 it labelled no
    faster than popcnt alone on an Intel Xeon with fast pext (training/README.md, "The teacher
    build"), AMD's Zen 1 and 2 run it in microcode, and a popcnt build also runs on the GPU
    servers a session carries it to (tools/gpu/prepare.py)."""
    flags = re.search(r"^flags\s*:(.*)$", cpuinfo, re.M)
    return "x86-64-modern" if flags and "popcnt" in flags.group(1).split() else "x86-64"


def source_lists(work):
    """deb-src twins of the system's Debian sources in `work`, so that `apt-get source` reads
    them without touching the system's own lists."""
    parts = os.path.join(work, "sources.list.d")
    os.makedirs(parts)
    for path in glob.glob("/etc/apt/sources.list.d/*.sources"):
        with open(path) as f:
            text = re.sub(r"^Types:.*$", "Types: deb-src", f.read(), flags=re.M)
        with open(os.path.join(parts, os.path.basename(path)), "w") as f:
            f.write(text)
    lines = []
    if os.path.exists("/etc/apt/sources.list"):
        with open("/etc/apt/sources.list") as f:
            lines = [re.sub(r"^deb\s", "deb-src ", line) for line in f
                     if re.match(r"^deb\s", line)]
    with open(os.path.join(work, "sources.list"), "w") as f:
        f.writelines(lines)
    return ["-o", "Dir::Etc::SourceList=" + os.path.join(work, "sources.list"),
            "-o", "Dir::Etc::SourceParts=" + parts,
            "-o", "Dir::State::Lists=" + os.path.join(work, "lists"),
            "-o", "Dir::Cache=" + os.path.join(work, "cache"),
            "-o", "Debug::NoLocking=1", "-o", "APT::Sandbox::User=root"]


def fetch_source(work):
    """Debian's source of the installed fairy-stockfish, unpacked; its folder."""
    version = subprocess.run(["dpkg-query", "-W", "-f", "${source:Version}", PACKAGE],
                             capture_output=True, text=True)
    if version.returncode != 0 or not version.stdout:
        raise SystemExit("teacher_build: the %s package is not installed "
                         "(deploy/install-deps.sh installs it)" % PACKAGE)
    for d in ("lists/partial", "cache/archives/partial"):
        os.makedirs(os.path.join(work, d))
    opts = source_lists(work)
    for what in (["update"], ["source", "%s=%s" % (PACKAGE, version.stdout)]):
        got = subprocess.run(["apt-get", *opts, *what], cwd=work, stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, text=True)
        if got.returncode != 0:
            raise SystemExit("teacher_build: apt-get %s failed (Debian's source packages "
                             "unreachable?):\n%s" % (what[0], got.stdout[-2000:]))
    trees = [d for d in glob.glob(os.path.join(work, PACKAGE + "-*")) if os.path.isdir(d)]
    if len(trees) != 1:
        raise SystemExit("teacher_build: no unpacked source of %s %s in the download"
                         % (PACKAGE, version.stdout))
    return trees[0], version.stdout


def check_against_debian(binary):
    """Raises SystemExit unless `binary` counts every PERFT_CHECKS position as Debian's does."""
    engines = [FairyStockfish(name=n, path=p)  # the handshake sets crazyhouse
               for n, p in (("debian", FAIRY), ("teacher build", binary))]
    try:
        for position, depth in PERFT_CHECKS:
            counts = [e.perft(position, depth)[1] for e in engines]
            if counts[0] != counts[1]:
                raise SystemExit("teacher_build: %s counts %d at depth %d where Debian's binary "
                                 "counts %d (%s); not installed"
                                 % (binary, counts[1], depth, counts[0], position))
    finally:
        for e in engines:
            e.quit()


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", default=os.path.join(lab.lab_dir(), "bin", "fairy-stockfish"))
    p.add_argument("--arch", help="Fairy-Stockfish's ARCH (default: chosen from /proc/cpuinfo)")
    p.add_argument("--jobs", type=int, default=1)
    p.add_argument("--if-missing", action="store_true",
                   help="do nothing when --out is there already (tools/lab/lab_chunks.sh)")
    a = p.parse_args(argv)
    if a.if_missing and os.access(a.out, os.X_OK):
        print("teacher_build: %s is there" % a.out)
        return 0
    if not a.arch:
        with open("/proc/cpuinfo") as f:
            a.arch = choose_arch(f.read())
    with tempfile.TemporaryDirectory(prefix="teacher-build-") as work:
        tree, version = fetch_source(work)
        print("teacher_build: %s %s, ARCH=%s largeboards=no (profile build, minutes)"
              % (PACKAGE, version, a.arch), flush=True)
        made = subprocess.run(["make", "-C", os.path.join(tree, "src"), "-j%d" % a.jobs,
                               "profile-build", "ARCH=" + a.arch, "largeboards=no"],
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if made.returncode != 0:
            raise SystemExit("teacher_build: the build failed:\n" + made.stdout[-4000:])
        built = os.path.join(tree, "src", "stockfish")
        check_against_debian(built)
        os.makedirs(os.path.dirname(os.path.abspath(a.out)), exist_ok=True)
        shutil.copy2(built, a.out + ".new")
        os.replace(a.out + ".new", a.out)
    print("teacher_build: %s (%s %s, ARCH=%s, 8x8 boards), perft as Debian's binary"
          % (a.out, PACKAGE, version, a.arch))
    return 0


if __name__ == "__main__":
    sys.exit(main())
