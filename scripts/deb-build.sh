#!/usr/bin/env bash
# make deb: the package of this checkout's commit, built in one fixed folder whatever folder
# the checkout is in, so that every build of a commit gives the same bytes. Swift's optimizer
# emits a function or two otherwise when the build's folder differs (its memory layout
# follows the lengths of the paths it handles; mapping the folder away in the output is not
# enough); in one folder, two builds agreed at different times and under different loads.
# Debian's own builders do the same (/build/reproducible-path). One make deb at a time.
# Its stdout is the package's path.
set -euo pipefail
cd "$(dirname "$0")/.."
fixed=/tmp/toolbox-reproducible-path

if [ -n "$(git status --porcelain 2>/dev/null)" ]; then
  if [ -z "${DEB_ALLOW_DIRTY:-}" ]; then
    echo "make deb: the checkout has uncommitted changes; a package is built from a commit (DEB_ALLOW_DIRTY=1 packages the commit without them)" >&2
    exit 1
  fi
  echo "make deb: warning: uncommitted changes are left out: the package is built from $(git rev-parse --short HEAD)" >&2
fi

# The folder is made anew and is ours alone: one an earlier run of ours left is removed;
# anything else there (another user's folder, a symlink, a file) is refused, never followed.
if [ -e "$fixed" ] || [ -L "$fixed" ]; then
  if [ -L "$fixed" ] || [ ! -d "$fixed" ] || [ "$(stat -c %u "$fixed")" != "$(id -u)" ]; then
    echo "make deb: $fixed is in the way and is not a folder of yours: remove it" >&2
    exit 1
  fi
  rm -rf "$fixed"
fi
mkdir -m 700 "$fixed"
trap 'rm -rf "$fixed"' EXIT
git clone -q --no-hardlinks . "$fixed"
git -C "$fixed" checkout -q --detach "$(git rev-parse HEAD)"
# The build's own output goes to stderr: stdout is the package's path alone.
make --no-print-directory -s -C "$fixed" deb-in-place >&2
package=$(ls "$fixed"/dist/toolbox_*.deb)
mkdir -p dist
cp "$package" dist/
echo "dist/$(basename "$package")"
