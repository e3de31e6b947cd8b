#!/bin/sh
# The images' entrypoint: runs `zhbot "$@"` and decides what a restart policy gets to see.
#
# zhbot run exits 78 when the configuration, the token or the account is wrong (no restart can
# fix that), 69 when lichess is unreachable at start and 1 on any other failure. Docker's restart
# policies cannot tell exit codes apart, so:
#   78   the container stays up, parked: the error is in the log, the HEALTHCHECK reports
#        unhealthy, and nothing restarts until the operator fixes it and recreates it.
#   69,1 exit after a 30 s pause, so `restart: unless-stopped` retries at most twice a minute
#        (Docker's own backoff resets after 10 s of uptime and would start again at 100 ms).
#   0    exit at once (a clean drain after `docker stop`).
# SIGTERM/SIGINT go to zhbot (a second one makes it leave at once, as without this script), and
# end a pause or a parked container immediately.
set -u

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

pause() {  # seconds; returns at once on SIGTERM/SIGINT, leaving no sleep behind
  sleep "$1" &
  sleeper=$!
  trap 'kill "$sleeper" 2>/dev/null; exit "$status"' TERM INT
  wait "$sleeper"
}

case "$status" in
  0) ;;
  78)
    echo "zhbot: configuration error (exit 78, see above): not restarting." \
      "Fix the configuration or the token secret, then: docker compose up -d --force-recreate" >&2
    while :; do pause 3600; done
    ;;
  *)
    echo "zhbot: exited with status $status; leaving in 30 s for the restart policy" >&2
    pause 30
    ;;
esac
exit "$status"
