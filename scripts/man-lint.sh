#!/bin/sh
# mandoc -Tlint on every binary's page; any warning fails.
status=0
for b in "$@"; do
  page="man/$b.1"
  if [ ! -f "$page" ]; then echo "man-lint: $page is missing" >&2; status=1; continue; fi
  # As committed, and as installed (dated, the version in its footer: scripts/man-page.sh).
  out=$(mandoc -Tlint -W warning "$page" 2>&1; sh scripts/man-page.sh "$page" | mandoc -Tlint -W warning 2>&1)
  if [ -n "$out" ]; then echo "$out" >&2; status=1; fi
done
[ $status -eq 0 ] && echo "man-lint: $# pages clean"
exit $status
