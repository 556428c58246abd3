#!/usr/bin/env bash
# The package's changelog.Debian: one entry for this version, dated at the last commit, with
# the subjects of the commits since the previous tag as its lines (the newest 20, each cut at
# a word to fit 80 columns).
set -euo pipefail
cd "$(dirname "$0")/.."
debversion=$1
maintainer=$(sed -n 's/^Maintainer: //p' packaging/deb/control)
epoch=$(sh scripts/version.sh --epoch)
printf 'toolbox (%s) unstable; urgency=medium\n\n' "$debversion"
if git rev-parse -q --verify HEAD > /dev/null 2>&1; then
  previous=$(git describe --tags --abbrev=0 --match 'v[0-9]*' HEAD^ 2>/dev/null || true)
  git log --no-merges -20 --format='%s' "${previous:+$previous..}HEAD" |
    awk '{ if (length($0) > 74) { $0 = substr($0, 1, 71); sub(/ [^ ]*$/, ""); $0 = $0 "..." } print "  * " $0 }'
else
  echo "  * Built outside git."
fi
printf '\n -- %s  %s\n' "$maintainer" "$(LC_ALL=C date -u -R -d "@$epoch")"
