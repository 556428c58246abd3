#!/usr/bin/env bash
# A short guided tour: start mockd on a free port, run each binary against it, stop mockd
# (also on Ctrl-C). Usage: demo.sh BIN_DIR
set -euo pipefail
bin=${1:?usage: demo.sh BIN_DIR}
cd "$(dirname "$0")/.."

# Each demo gets its own XDG folders so the tour never touches the user's cache or store.
scratch=$(mktemp -d)
export XDG_CACHE_HOME="$scratch/cache" XDG_DATA_HOME="$scratch/data" XDG_CONFIG_HOME="$scratch/config" XDG_STATE_HOME="$scratch/state"

# A fixed passcode, so the passcode tour can type it.
exec 3< <(exec "$bin/mockd" --port 0 --quiet --data data --passcode-codes 1234)
mockd_pid=$!
cleanup() { kill "$mockd_pid" 2>/dev/null || true; wait "$mockd_pid" 2>/dev/null || true; tmux -S "$scratch/screen.sock" kill-server 2>/dev/null || true; rm -rf "$scratch"; }
trap cleanup EXIT
trap 'exit 130' INT TERM

read -r line <&3
export TOOLBOX_SERVER=${line#mockd: listening on }
say() { printf '\n\033[1m$ %s\033[0m\n' "$*"; }
run() { say "${1##*/} ${*:2}"; "$@" || echo "(exit $?)"; }
# A full screen in tmux at 80x24, for the parts that capture one: start it, wait for text, print it.
screen_sock="$scratch/screen.sock"
screen_start() { tmux -f /dev/null -S "$screen_sock" new-session -d -s ui -x 80 -y 24 "$*"; }
screen_keys() { tmux -S "$screen_sock" send-keys -t ui "$@"; }
screen_wait() {
  for _ in $(seq 1 300); do tmux -S "$screen_sock" capture-pane -p -t ui | grep -q "$1" && return 0; sleep 0.02; done
  return 1
}
screen_show() { tmux -S "$screen_sock" capture-pane -p -t ui | sed -e :a -e '/^\n*$/{$d;N;ba' -e '}'; }
screen_stop() { tmux -S "$screen_sock" kill-server 2>/dev/null || true; }
echo "mockd is serving $TOOLBOX_SERVER"

run curl -s "$TOOLBOX_SERVER/health"
echo

for part in scripts/demo.d/*.sh; do
  [ -e "$part" ] || continue
  # shellcheck source=/dev/null
  . "$part"
done
echo
echo "demo finished"
