#!/bin/sh
# The toolbox's one version, from the last tag: at a tag vX.Y.Z it is X.Y.Z; N commits after
# it, X.Y.Z+N.gHASH (sorts after the tag and before the next one, for dpkg as for people);
# with no tag reachable (a shallow clone), 0.0.0+gHASH; outside git, 0.0.0+unknown.
# Every binary's --version, the package's Version and the man pages' dates come from here.
#
#   scripts/version.sh            print the version
#   scripts/version.sh --header   write it for the build (Sources/CToolboxVersion), if changed
#   scripts/version.sh --epoch    print SOURCE_DATE_EPOCH: the last commit's time
set -eu
cd "$(dirname "$0")/.."

version() {
  if described=$(git describe --tags --long --abbrev=12 --match 'v[0-9]*' 2>/dev/null); then
    # v1.2.3-N-gHASH: the tag, the commits since, the commit.
    hash=${described##*-}
    rest=${described%-*}
    count=${rest##*-}
    tag=${rest%-*}
    tag=${tag#v}
    if [ "$count" = 0 ]; then echo "$tag"; else echo "$tag+$count.$hash"; fi
  elif hash=$(git rev-parse --short=12 HEAD 2>/dev/null); then
    echo "0.0.0+g$hash"
  else
    echo "0.0.0+unknown"
  fi
}

case "${1:-}" in
  "") version ;;
  --epoch)
    # The last commit's time, or the build's if there is no git (then nothing is reproducible).
    git log -1 --format=%ct 2>/dev/null || date +%s ;;
  --header)
    header=Sources/CToolboxVersion/ToolboxVersion.generated.h
    line="#define TOOLBOX_VERSION \"$(version)\""
    # Rewritten only when it changes, so that a build with nothing new recompiles nothing;
    # the Swift file that reads it is touched too, as SwiftPM does not see a header change.
    if [ "$(cat "$header" 2>/dev/null)" != "$line" ]; then
      printf '%s\n' "$line" > "$header"
      touch Sources/CoreKit/CommandLine/ToolboxVersion.swift
    fi ;;
  *) echo "usage: scripts/version.sh [--header | --epoch]" >&2; exit 2 ;;
esac
