"""The lab: one folder outside the checkout for long jobs (teacher data, checkpoints, match
results), so they outlive a checkout laid anew. `$ZHBOT_LAB`, else /var/tmp/zhbot-lab (kept
across reboots, unlike /tmp). Folders are created when first used."""
import os

DEFAULT_LAB = "/var/tmp/zhbot-lab"


def lab_dir():
    """The lab folder (not created)."""
    return os.path.abspath(os.environ.get("ZHBOT_LAB") or DEFAULT_LAB)


def lab_path(*parts):
    """A folder under the lab, created (with the lab) when missing."""
    path = os.path.join(lab_dir(), *parts)
    os.makedirs(path, exist_ok=True)
    return path
