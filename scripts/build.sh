#!/usr/bin/env bash
# make build: the debug build of every target and test. Compiler warnings in our own targets
# are errors already (Package.swift); this adds the package's own warnings, which are not the
# compiler's (a file in a target that is neither source, resource nor excluded), so that the
# build prints no warning of ours at all. Dependencies' warnings are theirs and pass.
set -uo pipefail
cd "$(dirname "$0")/.."
sh scripts/version.sh --header
log=$(mktemp)
trap 'rm -f "$log"' EXIT
${SWIFT:-swift} build --build-tests 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
[ "$status" -eq 0 ] || exit "$status"
# SwiftPM names the root package by its folder, lower-cased.
root=$(basename "$PWD" | tr '[:upper:]' '[:lower:]')
if grep -E "^warning: '$root'" "$log" >&2; then
  echo "build: the package itself warns (above); declare the file as a resource or exclude it in Package.swift" >&2
  exit 1
fi
sh scripts/tool-links.sh "$(${SWIFT:-swift} build --show-bin-path)"
