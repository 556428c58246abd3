#!/usr/bin/env bash
# The package's changelog.Debian: packaging/deb/changelog, the tree's own, as it is. Between
# releases (a DEBIAN-VERSION after the file's top entry, X.Y.Z+N.gHASH-1), an entry for this
# snapshot comes first: the subjects of the commits since the release (the newest 20, cut at
# a word to fit 80 columns), dated at the last commit.
#
#   scripts/deb-changelog.sh DEBIAN-VERSION
set -euo pipefail
cd "$(dirname "$0")/.."
debversion=$1
changelog=packaging/deb/changelog
maintainer=$(sed -n 's/^Maintainer: //p' packaging/deb/control)
top=$(sed -n '1s/^[a-z0-9.+-]* (\([^)]*\)).*/\1/p' "$changelog")

if [ "$debversion" != "$top" ]; then
  base=${top%-*}
  written=$(git log -1 --format=%H -S"($base-" -- "$changelog" 2>/dev/null || true)
  range=${written:+$written..}HEAD
  printf 'toolbox (%s) unstable; urgency=medium\n\n' "$debversion"
  if git rev-parse -q --verify HEAD > /dev/null 2>&1; then
    total=$(git rev-list --no-merges --count "$range")
    git log --no-merges -20 --format='%s' "$range" |
      awk '{ if (length($0) > 74) { $0 = substr($0, 1, 71); sub(/ [^ ]*$/, ""); $0 = $0 "..." } print "  * " $0 }'
    [ "$total" -le 20 ] || echo "  * And $((total - 20)) earlier changes."
    when=$(git log -1 --format=%ct)
  else
    echo "  * Built outside git."
    when=${SOURCE_DATE_EPOCH:-$(date +%s)}
  fi
  printf '\n -- %s  %s\n\n' "$maintainer" "$(LC_ALL=C date -u -R -d "@$when")"
fi
cat "$changelog"
