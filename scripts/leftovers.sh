#!/bin/sh
# make check's last step: nothing the tests started may outlive them.
#   leftovers.sh mark   notes the time the tests start
#   leftovers.sh check  lists processes started since then that belong to the tests (their
#                       command line names a test sandbox, or a toolbox binary of this tree)
#                       and the tests' temporary folders made since then; kills and removes
#                       them, and fails if there were any.
set -u
mark=.build/tests-started
case "${1:-}" in
  # The mark holds the time since boot, the clock process start times are given in.
  mark) mkdir -p .build && cut -d' ' -f1 /proc/uptime > "$mark"; exit 0 ;;
  check) ;;
  *) echo "usage: leftovers.sh mark|check" >&2; exit 2 ;;
esac
[ -f "$mark" ] || { echo "leftovers: run 'leftovers.sh mark' first" >&2; exit 2; }
tree=$(pwd)
found=0
since=$(cat "$mark")
ticks=$(getconf CLK_TCK)
for dir in /proc/[0-9]*; do
  pid=${dir#/proc/}
  [ "$pid" = "$$" ] && continue
  # Field 22 of stat, counted after the command name (which may hold spaces): start time.
  started=$(sed 's/.*) //' "$dir/stat" 2>/dev/null | awk -v t="$ticks" '{ printf "%.2f", $20 / t }') || continue
  [ -n "$started" ] && awk -v a="$started" -v b="$since" 'BEGIN { exit !(a + 0.01 >= b) }' || continue
  args=$(tr '\0' ' ' < "$dir/cmdline" 2>/dev/null) || continue
  case "$args" in
    *toolbox-e2e-*|*"$tree"/.build*/toolbox*|*"$tree"/.build*/mockd*|*"$tree"/.build*/condtest*|*"$tree"/.build*/passcode*|*"$tree"/.build*/blogctl*|*"$tree"/.build*/devsync*)
      echo "leftovers: process $pid still running: $args" >&2
      kill -9 "$pid" 2>/dev/null
      found=1 ;;
  esac
done
for path in $(find "${TMPDIR:-/tmp}" -maxdepth 1 -newer "$mark" \( -name 'toolbox-tests-*' -o -name 'toolbox-e2e-*' -o -name 'devsync-tests-*' \
    -o -name 'blogctl-cache-*' -o -name 'gzip-test-*' \) 2>/dev/null); do
  echo "leftovers: temporary file or folder left: $path" >&2
  rm -rf "$path"
  found=1
done
[ "$found" -eq 0 ] && echo "leftovers: none: every process and temporary folder of the tests is gone"
exit "$found"
