#!/usr/bin/env bash
# make deb: the package of this checkout's commit, built in one fixed folder whatever folder
# the checkout is in, so that every build of a commit gives the same bytes. Swift's optimizer
# emits a function or two otherwise when the build's folder differs (its memory layout
# follows the lengths of the paths it handles; mapping the folder away in the output is not
# enough); in one folder, two builds agreed at different times and under different loads.
# Debian's own builders do the same (/build/reproducible-path). The folder is the user's own
# (under their cache folder, not a shared /tmp another user could take first), and one make
# deb of theirs at a time holds it: a second waits for the first (flock), never replacing its
# tree mid-build. Its stdout is the package's path.
set -euo pipefail
cd "$(dirname "$0")/.."
home=${XDG_CACHE_HOME:-$HOME/.cache}/toolbox-deb
fixed=$home/reproducible-path
mkdir -p -m 700 "$home"
if [ -L "$home" ] || [ "$(stat -c %u "$home")" != "$(id -u)" ]; then
  echo "make deb: $home is not a folder of yours: remove it" >&2
  exit 1
fi
exec 9>"$home/lock"
if ! flock -n 9; then
  echo "make deb: waiting for another make deb of yours to finish" >&2
  flock 9
fi

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
# The build sees one environment, whoever runs it and from wherever: with addresses fixed
# (setarch -R), the size of the environment moves the compiler's stack, and its optimizer
# follows the order of pointers (two clones built from two folders differed in a function
# while the caller's OLDPWD and the rest of its environment reached the compiler). Only what
# the build needs passes, each the same for one user on one machine (no PWD or OLDPWD to
# tell where the caller was: make starts in the folder with neither).
swift_dir=$(dirname "$(command -v "${SWIFT:-swift}")")
clean=(env -i "HOME=$HOME" "PATH=$swift_dir:/usr/local/bin:/usr/bin:/bin" "LANG=C.UTF-8" "TERM=dumb")
[ -z "${XDG_CACHE_HOME:-}" ] || clean+=("XDG_CACHE_HOME=$XDG_CACHE_HOME")
# The build's own output goes to stderr: stdout is the package's path alone.
(cd "$fixed" && exec "${clean[@]}" make --no-print-directory -s deb-in-place) >&2
package=$(ls "$fixed"/dist/toolbox_*.deb)
mkdir -p dist
cp "$package" dist/
echo "dist/$(basename "$package")"
