#!/usr/bin/env bash
# Style kept by checks (`make lint`, a CI stage): every C++ source the repository tracks must be
# formatted as .clang-format says, and the Python of training/, tools/, tests/tools and tests/bot
# must pass flake8 (settings in .flake8: line length 100). Changes nothing; prints what is wrong
# and exits 1. Fix C++ with `clang-format -i FILE`.
#
#   tools/ci/check_style.sh            both checks
#   tools/ci/check_style.sh cpp|python one of them
set -uo pipefail
cd "$(dirname "$0")/../.."

what=${1:-all}
case "$what" in
  all | cpp | python) ;;
  *) echo "usage: $0 [cpp|python]" >&2; exit 2 ;;
esac

need() {
  if ! command -v "$1" >/dev/null; then
    echo "check_style: $1 is missing; bash deploy/install-deps.sh installs it" >&2
    exit 2
  fi
}

failed=0

if [[ $what != python ]]; then
  need clang-format
  # The tracked sources (a build tree or a stray file is not ours to judge).
  mapfile -t sources < <(git ls-files -- '*.cpp' '*.cc' '*.h' '*.hpp')
  # One clang-format run for all of them: it reports every unformatted place as
  # FILE:LINE:COL: error: ..., and the files are what we list. A run that fails without naming
  # a file (a bad .clang-format, a crash) fails the check too.
  report=$(clang-format --dry-run -Werror --style=file "${sources[@]}" 2>&1)
  status=$?
  mapfile -t bad < <(sed -n 's/^\(.*\):[0-9]*:[0-9]*: error: .*/\1/p' <<<"$report" | sort -u)
  if [[ $status -ne 0 && ${#bad[@]} -eq 0 ]]; then
    echo "$report" >&2
    echo "check_style: clang-format failed (exit $status)" >&2
    exit 2
  fi
  if [[ ${#bad[@]} -gt 0 ]]; then
    printf '  %s\n' "${bad[@]}" >&2
    echo "check_style: ${#bad[@]} of ${#sources[@]} C++ files are not clang-formatted" \
      "(clang-format -i FILE; clang-format --dry-run FILE shows where)" >&2
    failed=1
  else
    echo "check_style: ${#sources[@]} C++ files clang-formatted"
  fi
fi

if [[ $what != cpp ]]; then
  need flake8
  if flake8 training tools tests/tools tests/bot; then
    echo "check_style: flake8 clean (training/, tools/, tests/tools/, tests/bot/)"
  else
    echo "check_style: flake8 found the problems above" >&2
    failed=1
  fi
fi

exit $failed
