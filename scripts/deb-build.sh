#!/usr/bin/env bash
# make deb: the package of this checkout's commit, built in a fresh clone in a new private
# folder whose path is always as long (/var/tmp/toolbox-deb.XXXXXXXXXX: the name is random, its
# length is not), so that every build of a commit gives the same bytes whatever folder the
# checkout is in. Why the length: swiftc puts the length of a source file's full path, not
# mapped by -file-prefix-map, into the code that checks a withoutActuallyEscaping closure (the
# string itself it leaves empty), and Hummingbird, a dependency, has one; a folder 5 bytes
# longer made 6 bytes of the binary differ. Nothing else of the folder, the environment or the
# machine's load reaches the output (README: Reproducible). Its stdout is the package's path.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ -n "$(git status --porcelain 2>/dev/null)" ]; then
  if [ -z "${DEB_ALLOW_DIRTY:-}" ]; then
    echo "make deb: the checkout has uncommitted changes; a package is built from a commit (DEB_ALLOW_DIRTY=1 packages the commit without them)" >&2
    exit 1
  fi
  echo "make deb: warning: uncommitted changes are left out: the package is built from $(git rev-parse --short HEAD)" >&2
fi

# mktemp makes the folder anew, the user's alone (mode 700), never one that was there.
work=$(mktemp -d /var/tmp/toolbox-deb.XXXXXXXXXX)
trap 'rm -rf "$work"' EXIT
git clone -q --no-hardlinks . "$work/src"
git -C "$work/src" checkout -q --detach "$(git rev-parse HEAD)"
# The build's own output goes to stderr: stdout is the package's path alone.
make --no-print-directory -s -C "$work/src" deb-in-place >&2
package=$(ls "$work"/src/dist/toolbox_*.deb)
mkdir -p dist
cp "$package" dist/
echo "dist/$(basename "$package")"
