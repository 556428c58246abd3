#!/usr/bin/env bash
# Runs every benchmark in bench/ against the release build. Usage: bench.sh BIN_DIR
set -euo pipefail
bin=${1:?usage: bench.sh BIN_DIR}
cd "$(dirname "$0")/.."
sh scripts/deps.sh jq curl gh lynx w3m html2text libxml2-utils hyperfine gawk bsdextrautils time bc htop newsboat tig python3-feedparser
export BIN="$bin"
for script in bench/*; do
  [ -f "$script" ] && [ -x "$script" ] || continue
  echo "== $(basename "$script")"
  "$script"
  echo
done
