#!/bin/sh
# The five tools' names in a build's folder, each a link to the one binary that runs them
# (Sources/toolbox runs the tool it is called as): scripts, tests and benches run
# $BIN/blogctl as they would an installed tool. A file of that name (a tool binary of an
# older build) is replaced, atomically.
#
#   scripts/tool-links.sh BIN_DIR
set -eu
dir=$1
[ -x "$dir/toolbox" ] || { echo "tool-links: no toolbox binary in $dir" >&2; exit 1; }
for tool in blogctl condtest devsync mockd passcode; do
  if [ "$(readlink "$dir/$tool" 2>/dev/null)" != toolbox ]; then
    ln -s toolbox "$dir/.$tool.link.$$"
    mv -Tf "$dir/.$tool.link.$$" "$dir/$tool"
  fi
done
