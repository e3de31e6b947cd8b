#!/usr/bin/env bash
# The GPU check's entry point on a GPU machine (docs/gpu-deployment.md): python3 -m tools.gpu.measure
#   tools/gpu/gpu_check.sh STAGE... [OPTIONS]   (prepare, build, facts, nnbench, search, games, ...)
cd "$(dirname "$0")/../.." || exit 2
exec python3 -m tools.gpu.measure "$@"
