"""What travels to a GPU machine so that it needs nothing of zhbot's dependencies: the
header-only libraries with their CMake package files, Fairy-Stockfish, and optionally training
shards. Made on a machine that has them (deploy/install-deps.sh)."""
import glob
import os
import shutil

from tools.zhtools.fairy import FAIRY

# (include folder, CMake package name) of each header-only library.
LIBRARIES = (("nlohmann", "nlohmann_json"), ("CLI", "CLI11"))
CMAKE_DIRS = ("/usr/share/cmake", "/usr/lib/cmake", "/usr/lib/x86_64-linux-gnu/cmake")


def carry_dependencies(carry, teacher=FAIRY, data=None, data_mb=32):
    """CARRY/prefix (include/, share/cmake/), CARRY/bin/fairy-stockfish and, from `data`, its
    .zhrec shards in name order up to `data_mb` MiB in CARRY/data. SystemExit naming what is
    missing."""
    prefix = os.path.join(carry, "prefix")
    shutil.rmtree(carry, ignore_errors=True)
    for folder in ("include", "share/cmake"):
        os.makedirs(os.path.join(prefix, folder))
    os.makedirs(os.path.join(carry, "bin"))
    for include, package in LIBRARIES:
        source = os.path.join("/usr/include", include)
        if not os.path.isdir(source):
            raise SystemExit("gpu_check: %s missing (deploy/install-deps.sh)" % source)
        shutil.copytree(source, os.path.join(prefix, "include", include), symlinks=True)
        found = next((d for d in CMAKE_DIRS if os.path.isdir(os.path.join(d, package))), None)
        if not found:
            raise SystemExit("gpu_check: no CMake package files for %s" % package)
        shutil.copytree(os.path.join(found, package), os.path.join(prefix, "share/cmake", package),
                        symlinks=True)
    if not os.access(teacher, os.X_OK):
        raise SystemExit("gpu_check: no teacher engine at %s (apt-get install fairy-stockfish)"
                         % teacher)
    shutil.copy(teacher, os.path.join(carry, "bin", "fairy-stockfish"))
    if data:
        os.makedirs(os.path.join(carry, "data"))
        used = 0
        for path in sorted(glob.glob(os.path.join(data, "**", "*.zhrec"), recursive=True)):
            size = os.path.getsize(path)
            if used + size > data_mb * 1024 * 1024:
                break
            shutil.copy(path, os.path.join(carry, "data"))
            used += size
