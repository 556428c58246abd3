#!/bin/sh
# The toolbox's one version, from the tree: packaging/deb/changelog's top entry (X.Y.Z-1 is
# release X.Y.Z). In the commit that wrote that entry it is X.Y.Z; N commits after it,
# X.Y.Z+N.gHASH (sorts after X.Y.Z and before the next release, for dpkg as for people); where
# git cannot see that commit (a shallow clone), X.Y.Z+gHASH; outside git, X.Y.Z. A tag vX.Y.Z,
# where there is one, names the commit whose changelog says X.Y.Z (--check). Every binary's
# --version, the package's Version and the man pages' footer come from here.
#
#   scripts/version.sh            print the version
#   scripts/version.sh --header   write it for the build (Sources/CToolboxVersion), if changed
#   scripts/version.sh --epoch    print SOURCE_DATE_EPOCH: the last commit's time
#   scripts/version.sh --check    fail unless every tag vX.Y.Z agrees with its changelog
set -eu
cd "$(dirname "$0")/.."
changelog=packaging/deb/changelog

# The upstream version of a changelog's top entry (from standard input).
released() { sed -n '1s/^[a-z0-9.+-]* (\([^)]*\)).*/\1/p' | sed 's/-[^-]*$//'; }

version() {
  base=$(released < "$changelog")
  if [ -z "$base" ]; then
    echo "scripts/version.sh: no version in $changelog's first line" >&2
    exit 1
  fi
  if hash=$(git rev-parse --short=12 HEAD 2>/dev/null); then
    # The commit that wrote the top entry: the last to change how often its heading occurs.
    written=$(git log -1 --format=%H -S"($base-" -- "$changelog" 2>/dev/null || true)
    # In a shallow clone the oldest commit there seems to write the whole file: not known.
    if [ -n "$written" ] && [ "$(git rev-parse --is-shallow-repository)" = true ] &&
       ! git rev-parse -q --verify "$written^" > /dev/null; then
      written=
    fi
    if [ -z "$written" ]; then
      echo "$base+g$hash"
    else
      count=$(git rev-list --count "$written..HEAD")
      if [ "$count" = 0 ]; then echo "$base"; else echo "$base+$count.g$hash"; fi
    fi
  else
    echo "$base"
  fi
}

case "${1:-}" in
  "") version ;;
  --epoch)
    # The last commit's time, or the build's if there is no git (then nothing is reproducible).
    git log -1 --format=%ct 2>/dev/null || date +%s ;;
  --check)
    status=0
    for tag in $(git tag --list 'v[0-9]*'); do
      said=$(git show "$tag:$changelog" 2>/dev/null | released)
      if [ "$said" != "${tag#v}" ]; then
        echo "scripts/version.sh: tag $tag names a commit whose $changelog says '${said:-nothing}'" >&2
        status=1
      fi
    done
    exit "$status" ;;
  --header)
    header=Sources/CToolboxVersion/ToolboxVersion.generated.h
    line="#define TOOLBOX_VERSION \"$(version)\""
    # Rewritten only when it changes, so that a build with nothing new recompiles nothing.
    # A build sees no header change on its own: clang's module of the header may have been
    # made before this file existed (so it is not among the module's inputs), and the Swift
    # driver compares the reading file's content, not its time. Both products are removed,
    # and the next build makes them again with the new version.
    if [ "$(cat "$header" 2>/dev/null)" != "$line" ]; then
      printf '%s\n' "$line" > "$header"
      find .build* -name 'CToolboxVersion-*.pcm' -delete 2> /dev/null || true
      find .build* -path '*CoreKit.build/ToolboxVersion.swift.o' -delete 2> /dev/null || true
    fi ;;
  *) echo "usage: scripts/version.sh [--header | --epoch | --check]" >&2; exit 2 ;;
esac
