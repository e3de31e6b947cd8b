#!/usr/bin/env bash
# The GPU session's entry point on a server (docs/gpu-training.md): python3 -m tools.gpu.session
#   tools/gpu/gpu_session.sh prepare|check [OPTIONS]   tools/gpu/gpu_session.sh run OUT [OPTIONS]
cd "$(dirname "$0")/../.." || exit 2
exec python3 -m tools.gpu.session "$@"
