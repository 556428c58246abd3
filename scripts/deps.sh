#!/bin/sh
# Installs the Debian packages named on the command line when any is missing.
# As root it runs apt-get; otherwise it prints the exact command and fails.
missing=""
for p in "$@"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
cmd="apt-get install -y --no-install-recommends$missing"
if [ "$(id -u)" -ne 0 ]; then
  echo "deps: missing Debian packages:$missing" >&2
  echo "deps: run: sudo apt-get update && sudo $cmd" >&2
  exit 1
fi
echo "deps: installing$missing" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq && $cmd >/dev/null
