#!/usr/bin/env bash
# The package's changelog.Debian, from git: an entry for this version and one for each
# earlier tag, newest first. Each lists the subjects of the commits since the tag before it
# (the newest 20, cut at a word to fit 80 columns) and is dated at its last commit.
#
#   scripts/deb-changelog.sh DEBIAN-VERSION
set -euo pipefail
cd "$(dirname "$0")/.."
debversion=$1
maintainer=$(sed -n 's/^Maintainer: //p' packaging/deb/control)

entry() {  # VERSION COMMIT PREVIOUS-COMMIT-OR-EMPTY
  local range=${3:+$3..}$2 total
  total=$(git rev-list --no-merges --count "$range")
  printf 'toolbox (%s) unstable; urgency=medium\n\n' "$1"
  git log --no-merges -20 --format='%s' "$range" |
    awk '{ if (length($0) > 74) { $0 = substr($0, 1, 71); sub(/ [^ ]*$/, ""); $0 = $0 "..." } print "  * " $0 }'
  [ "$total" -le 20 ] || echo "  * And $((total - 20)) earlier changes."
  printf '\n -- %s  %s\n\n' "$maintainer" "$(LC_ALL=C date -u -R -d "@$(git log -1 --format=%ct "$2")")"
}

if ! git rev-parse -q --verify HEAD > /dev/null 2>&1; then
  printf 'toolbox (%s) unstable; urgency=medium\n\n  * Built outside git.\n\n -- %s  %s\n' \
    "$debversion" "$maintainer" "$(LC_ALL=C date -u -R)"
  exit 0
fi
# This version (HEAD), then every tag behind it, newest first.
commits=(HEAD) versions=("$debversion")
for tag in $(git tag --list 'v[0-9]*' --merged HEAD --sort=-creatordate); do
  [ "$(git rev-parse "$tag^{commit}")" = "$(git rev-parse HEAD)" ] && continue
  commits+=("$tag^{commit}") versions+=("${tag#v}-1")
done
for i in "${!commits[@]}"; do
  entry "${versions[$i]}" "${commits[$i]}" "${commits[$((i + 1))]:-}"
done | sed '$d'
