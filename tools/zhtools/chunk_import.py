"""Teacher data that the lab takes in rather than makes: a packed chunk (the shared folder's, a
GPU server's) checked before it counts, and the starter set imported once as shards."""
import glob
import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile


def _sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


MISSING_MODULE = re.compile(r"ModuleNotFoundError: No module named '([^']+)'")


def run_check_chunk(path, seed, games):
    """(passed, its last line) of training.check_chunk on the chunk folder `path`. Exits with the
    reason when this Python cannot import what the check needs (numpy, torch): every chunk would
    read as damaged, and an importer would throw good chunks away and make them again."""
    run = subprocess.run([sys.executable, "-m", "training.check_chunk", path, "--seed", str(seed),
                          "--games", str(games)], capture_output=True, text=True)
    output = (run.stdout + run.stderr).strip()
    missing = MISSING_MODULE.search(output)
    if run.returncode and missing:
        raise SystemExit("training.check_chunk cannot run: this Python (%s) has no module %r; "
                         "run the lab's tools with the Python the training uses "
                         "(/usr/bin/python3, deploy/install-deps.sh)"
                         % (sys.executable, missing.group(1)))
    lines = output.splitlines()
    return run.returncode == 0, lines[-1] if lines else "training.check_chunk said nothing"


def _refusal(tmp, seed, games, nodes):
    """Why the unpacked archive in `tmp` is refused, or None when it passes: it holds the
    folder chunk-SEED/ and at most the log of the run that made it, that log (when there)
    names the same node count and games, and training.check_chunk passes (the record format's
    checks, positions counted, every game one of the seed's). Returns (why, verdict)."""
    name = "chunk-%d" % seed
    extra = sorted(set(os.listdir(tmp)) - {name, name + ".log"})
    if extra:
        return "holds more than %s/ and its log: %s" % (name, " ".join(extra)), None
    if not os.path.isdir(os.path.join(tmp, name)):
        return "holds no folder %s/" % name, None
    log = os.path.join(tmp, name + ".log")
    if os.path.isfile(log):
        with open(log, errors="replace") as f:
            text = f.read()
        for flag, value in (("--nodes", nodes), ("--games", games)):
            if not re.search(r"%s %d( |$)" % (flag, value), text, re.M):
                return "its log does not name %s %d" % (flag, value), None
    passed, verdict = run_check_chunk(os.path.join(tmp, name), seed, games)
    verdict = verdict.replace(tmp + os.sep, "")
    verdict = verdict[len("chunk "):] if verdict.startswith("chunk ") else verdict
    return (None if passed else verdict), verdict


def import_chunk(archive, data, seed, games, nodes):
    """The packed chunk `archive` unpacked into DATA/chunk-SEED once it passes the checks (xz's
    checksums catch a damaged file; then _refusal's). Returns (True, "imported ARCHIVE: ...")
    with its source recorded in DATA/chunk-SEED.source, or (False, "refused ARCHIVE: why")
    leaving DATA as it was. The caller marks the chunk done (its step)."""
    os.makedirs(data, exist_ok=True)
    tmp = tempfile.mkdtemp(prefix=".import-chunk-%d." % seed, dir=data)
    try:
        # GNU tar: it keeps every member inside tmp (no absolute paths, no "..").
        unpack = subprocess.run(["tar", "-xJf", archive, "-C", tmp], capture_output=True,
                                text=True)
        if unpack.returncode:
            why = " ".join(unpack.stderr.splitlines()[:2])
            return False, "refused %s: does not unpack (%s)" % (archive, why)
        why, verdict = _refusal(tmp, seed, games, nodes)
        if why:
            return False, "refused %s: %s" % (archive, why)
        name = "chunk-%d" % seed
        target = os.path.join(data, name)
        shutil.rmtree(target, ignore_errors=True)
        os.rename(os.path.join(tmp, name), target)
        if os.path.isfile(os.path.join(tmp, name + ".log")):
            os.rename(os.path.join(tmp, name + ".log"), target + ".made.log")
        message = "imported %s: %s" % (archive, verdict)
        with open(target + ".source", "w") as f:
            f.write("%s\nsha256 %s\n" % (message, _sha256(archive)))
        return True, message
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


class StarterError(RuntimeError):
    """The starter set's folder holds no set, or a file of it does not import."""


def import_starter(folder, teacher_set, zhbot):
    """The starter teacher set imported into `folder` as shards, once (FOLDER/.imported marks
    it). Its source `teacher_set` is a folder of the set's *.jsonl.gz files (data, not part of
    the repository). Returns False, changing nothing, when `teacher_set` is empty and nothing
    was imported before. A folder without such files, or a file that does not import, raises
    StarterError and marks nothing: a mistyped path must not pass for an empty set."""
    if os.path.exists(os.path.join(folder, ".imported")):
        return True
    if not teacher_set:
        return False
    files = sorted(glob.glob(os.path.join(teacher_set, "*.jsonl.gz")))
    if not files:
        raise StarterError("ZHBOT_TEACHER_SET %s: no *.jsonl.gz files there" % teacher_set)
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)
    for path in files:
        if subprocess.run([zhbot, "datagen", "--import", path, "--out", folder]).returncode:
            raise StarterError("ZHBOT_TEACHER_SET: %s did not import" % path)
    open(os.path.join(folder, ".imported"), "a").close()
    return True
