#!/bin/sh
# The images' entrypoint: runs `zhbot "$@"` and decides what a restart policy gets to see.
#
# A command that is not a zhbot subcommand but a program of the image runs as it is:
#   docker run --rm --gpus all zhbot:cuda nvidia-smi      docker run --rm -it zhbot:cpu bash
# (`zhbot ARGS` works too: the leading "zhbot" is dropped.)
#
# zhbot run exits 78 when the configuration, the token or the account is wrong (no restart can
# fix that), 69 when lichess is unreachable at start and 1 on any other failure. Docker's restart
# policies cannot tell exit codes apart, so:
#   78   the container stays up, parked: the error is in the log, the HEALTHCHECK reports
#        unhealthy, and nothing restarts until the operator fixes it and recreates it.
#   127  the loader could not start zhbot (a shared library is missing, e.g. the driver's
#        libcuda.so.1 for a LibTorch that links it; Debian's loads it only when CUDA is first
#        used, so there the GPU probe below is what finds it missing): parked, with the fix.
#   69,1 exit after a 30 s pause, so `restart: unless-stopped` retries at most twice a minute
#        (Docker's own backoff resets after 10 s of uptime and would start again at 100 ms).
#   0    exit at once (a clean drain after `docker stop`).
# ZHBOT_GPU_PROBE (the CUDA image sets it to zhbot-gpu-probe): run it first; when it finds no
# usable GPU, park with its one line and the fix, and do not start zhbot at all.
# SIGTERM/SIGINT go to zhbot (a second one makes it leave at once, as without this script), and
# end a pause or a parked container immediately.
set -u

# The fix for a container without a usable GPU, said once.
gpu_fix="give the container a GPU: install the NVIDIA Container Toolkit on the host, then \
docker run --gpus all, or compose with -f docker/compose.gpu.yaml, and recreate the container"

status=0
sleeper=
# From here on SIGTERM/SIGINT end the script with $status (and the pause's sleep, if any).
stop_on_signal() { trap 'kill "$sleeper" 2>/dev/null; exit "$status"' TERM INT; }
pause() {  # seconds; returns at once on SIGTERM/SIGINT, leaving no sleep behind
  stop_on_signal
  sleep "$1" &
  sleeper=$!
  wait "$sleeper"
}
park() {  # exit status for when it is stopped, the one line that says why and what to do
  status=$1
  # Before the line: whoever waits for it to stop the container finds the signal handled.
  stop_on_signal
  echo "zhbot: $2. Not restarting." >&2
  while :; do pause 3600; done
}

# Not a zhbot subcommand: a program on PATH (a path, not a shell builtin) is run instead.
if [ $# -gt 0 ]; then
  case "$1" in
    zhbot) shift ;;
    -*) ;;
    *)
      case "$(command -v -- "$1" 2>/dev/null)" in
        /*) exec "$@" ;;
      esac
      ;;
  esac
fi

if [ -n "${ZHBOT_GPU_PROBE:-}" ]; then
  if gpu=$("$ZHBOT_GPU_PROBE" 2>&1); then
    echo "zhbot: $gpu" >&2
  else
    park 78 "no usable GPU ($gpu); $gpu_fix"
  fi
fi

# In the background so this shell can act on its exit code. A background job's stdin is
# /dev/null, so hand it this shell's stdin through fd 3: `docker run -i zhbot:cpu uci` works.
exec 3<&0
zhbot "$@" <&3 3<&- &
child=$!
trap 'kill -TERM "$child" 2>/dev/null' TERM
trap 'kill -INT "$child" 2>/dev/null' INT
# `wait` returns early when a trapped signal arrives; wait again until zhbot itself has ended.
while :; do
  wait "$child"
  status=$?
  kill -0 "$child" 2>/dev/null || break
done

case "$status" in
  0) ;;
  78)
    park 78 "configuration error (exit 78, see above). Fix the configuration or the token \
secret, then: docker compose up -d --force-recreate"
    ;;
  127)
    missing=$(ldd "$(command -v zhbot)" 2>/dev/null | awk '/not found/ {printf " %s", $1}')
    case "$missing" in
      *libcuda.so.1*) park 127 "no NVIDIA driver in the container (libcuda.so.1 not found); $gpu_fix" ;;
      *) park 127 "the loader could not start it (exit 127; missing:${missing:- see above}); \
the image is incomplete: rebuild it" ;;
    esac
    ;;
  *)
    echo "zhbot: exited with status $status; leaving in 30 s for the restart policy" >&2
    pause 30
    ;;
esac
exit "$status"
