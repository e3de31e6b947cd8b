#!/usr/bin/env bash
# Validates docker/compose.yaml alone and with docker/compose.gpu.yaml through `docker-compose
# config` (v1, Debian's) and `docker compose config` (v2) where they exist, and checks what the
# merged files must say: the image, the healthcheck, the token as a secret and not in the
# environment, the GPU reservation and the CUDA config. Exit 77 (skipped) when neither tool exists.
set -euo pipefail
docker_dir=${1:?usage: compose_config_test.sh DOCKER_DIR}
cd "$docker_dir"

tools=()
command -v docker-compose >/dev/null && tools+=("docker-compose")
docker compose version >/dev/null 2>&1 && tools+=("docker compose")
if [[ ${#tools[@]} -eq 0 ]]; then
  echo "SKIP: neither docker-compose (v1) nor docker compose (v2) is installed"
  exit 77
fi

failures=0
expect() {  # description, merged config, pattern (grep -E), [absent]
  if grep -Eq -- "$3" <<<"$2"; then found=1; else found=0; fi
  if [[ ${4:-} == absent ]]; then found=$((1 - found)); fi
  if [[ $found -eq 1 ]]; then echo "ok: $1"; else echo "FAIL: $1 (pattern $3)"; failures=$((failures + 1)); fi
}
count() { grep -Ec -- "$2" <<<"$1" || true; }

for tool in "${tools[@]}"; do
  echo "== $tool: $($tool version 2>/dev/null | head -n1)"
  # shellcheck disable=SC2086  # "docker compose" is two words
  cpu=$($tool -f compose.yaml config)
  # shellcheck disable=SC2086
  gpu=$($tool -f compose.yaml -f compose.gpu.yaml config)
  for kind in cpu gpu; do
    merged=${!kind}
    # v1 prints the command as a list (- zhbot-healthcheck), v2 likewise.
    expect "$kind: healthcheck runs zhbot-healthcheck (no LibTorch)" "$merged" "zhbot-healthcheck"
    expect "$kind: the token is a secret" "$merged" "source: lichess_token|- lichess_token"
    expect "$kind: no token in the environment" "$merged" "LICHESS_BOT_TOKEN|env_file" absent
    expect "$kind: state volume" "$merged" "zhbot-state"
    expect "$kind: drain time 660 s" "$merged" "stop_grace_period: (660s|11m0s)"
    # v1 prints volumes short (src:/etc/zhbot/zhbot.yaml:ro), v2 long (target: ...).
    mounts=$(count "$merged" "(:|target: )/etc/zhbot/zhbot\.yaml")
    if [[ $mounts -eq 1 ]]; then echo "ok: $kind: one config mount"; else
      echo "FAIL: $kind: $mounts config mounts"; failures=$((failures + 1)); fi
  done
  expect "cpu: CPU image" "$cpu" "image: zhbot:cpu"
  expect "cpu: CPU Dockerfile" "$cpu" "dockerfile: docker/Dockerfile$"
  expect "cpu: CPU config" "$cpu" "/docker/zhbot\.yaml(:|$)"
  expect "cpu: no GPU reservation" "$cpu" "capabilities" absent
  expect "gpu: CUDA image" "$gpu" "image: zhbot:cuda"
  expect "gpu: CUDA Dockerfile" "$gpu" "dockerfile: docker/Dockerfile\.cuda"
  expect "gpu: CUDA config (evaluator.device: cuda)" "$gpu" "/docker/zhbot-cuda\.yaml(:|$)"
  expect "gpu: not the CPU config" "$gpu" "/docker/zhbot\.yaml(:|$)" absent
  expect "gpu: GPU device reservation" "$gpu" "capabilities:"
  expect "gpu: capability gpu" "$gpu" "- gpu$|\[gpu\]"
  expect "gpu: nvidia driver" "$gpu" "driver: nvidia"
  # shellcheck disable=SC2086
  monitoring=$($tool -f compose.yaml --profile monitoring config)
  expect "monitoring: Prometheus" "$monitoring" "image: prom/prometheus"
  expect "monitoring: Grafana" "$monitoring" "image: grafana/grafana"
  expect "monitoring: both in zhbot's network (loopback metrics)" "$monitoring" \
    "network_mode: service:zhbot"
  expect "monitoring: the dashboard provisioned" "$monitoring" "grafana/zhbot-dashboard\.json"
  expect "monitoring: Grafana only on the host's loopback" "$monitoring" "127\.0\.0\.1.*3000"
done
if grep -q 'device: "cuda"' zhbot-cuda.yaml; then echo "ok: zhbot-cuda.yaml sets evaluator.device cuda"
else echo "FAIL: zhbot-cuda.yaml has no device: \"cuda\""; failures=$((failures + 1)); fi
[[ $failures -eq 0 ]] || { echo "$failures check(s) failed"; exit 1; }
