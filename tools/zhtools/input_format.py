"""Training records in the input format a network takes. Every teacher chunk is made and shared
in format 1.0; a network of another format (the recipe's input_format) trains, and is checked, on
copies re-encoded once by `zhbot datagen --reencode` into LAB/data/format-F/, which mirrors
LAB/data/ so that the copies never mix into the folders the chunk tools list."""
import json
import os
import shutil
import subprocess
import zipfile

from tools.zhtools import lab
from tools.zhtools.steps import StepFailed, step


def encoded_copy(folder, fmt):
    """Where the format `fmt` copy of the record folder `folder` lives: LAB/data/format-FMT/ and
    the folder's path below LAB/data (a folder elsewhere: its whole path below "elsewhere")."""
    data = os.path.join(lab.lab_dir(), "data")
    rel = os.path.relpath(os.path.abspath(folder), data)
    if rel == os.curdir or rel.split(os.sep)[0] == os.pardir:
        rel = os.path.join("elsewhere", os.path.abspath(folder).lstrip(os.sep))
    return os.path.join(data, "format-" + fmt, rel)


def reencode(zhbot, folder, copy, fmt, log):
    """`zhbot datagen --reencode` of `folder` into `copy` in format `fmt`, its output to `log`;
    whether it succeeded. What a cut-off try left in `copy` is removed first."""
    shutil.rmtree(copy, ignore_errors=True)
    return subprocess.run([zhbot, "datagen", "--reencode", folder, "--out", copy, "--format",
                           fmt], stdout=log, stderr=subprocess.STDOUT).returncode == 0


def formatted(folder, fmt, zhbot):
    """`folder`'s records in format `fmt`: the folder itself in 1.0, else its copy, re-encoded
    by `zhbot` as a step of its own (made once; a copy cut off is made again)."""
    if fmt == "1.0" or not folder:
        return folder
    copy = encoded_copy(folder, fmt)

    def make(log):
        if not reencode(zhbot, folder, copy, fmt, log):
            raise StepFailed("re-encoding %s failed" % folder)
    step(os.path.dirname(copy), os.path.basename(copy), make,
         what="%s re-encoded into format %s" % (folder, fmt))
    return copy


def network_format(path):
    """The input format a model file of training.export takes: its zhbot.json's input_version
    (a file without one takes 1.0, as zhbot reads it); SystemExit for a file zhbot cannot read."""
    try:
        with zipfile.ZipFile(path) as archive:
            for name in archive.namelist():
                if name.endswith("/extra/zhbot.json"):
                    meta = json.loads(archive.read(name) or b"{}")
                    return str(meta.get("input_version", "1.0"))
    except (zipfile.BadZipFile, OSError, ValueError) as e:
        raise SystemExit("%s: not a model file zhbot reads (%s)" % (path, e))
    return "1.0"
