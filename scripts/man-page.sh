#!/bin/sh
# A man page as installed: its date is the last commit's and its footer names the toolbox's
# version (scripts/version.sh), so the page, --version and the package agree. The pages in
# man/ say `.Dd $Mdocdate$` (today's date when read from a checkout) and a bare `.Os`.
#
#   scripts/man-page.sh man/blogctl.1 > blogctl.1
set -eu
page=$1
here=$(dirname "$0")
epoch=$(sh "$here/version.sh" --epoch)
date=$(LC_ALL=C date -u -d "@$epoch" '+%B %-d, %Y')
version=$(sh "$here/version.sh")
sed -e "s/^\.Dd .*/.Dd $date/" -e "s/^\.Os\$/.Os toolbox $version/" "$page"
