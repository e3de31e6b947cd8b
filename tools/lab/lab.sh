# The lab folder for the shell tools (sourced by tools/measure/tactics_matrix.sh and
# tools/measure/settings_check.sh): one folder outside the checkout for the long jobs' teacher
# data, checkpoints and match results (training/README.md, "The lab"). tools/zhtools/lab.py
# reads its default from the line below, so the Python tools and the shell never differ.
ZHBOT_LAB=${ZHBOT_LAB:-/var/tmp/zhbot-lab}
export ZHBOT_LAB
mkdir -p "$ZHBOT_LAB"
