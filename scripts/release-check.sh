#!/usr/bin/env bash
# make release-check: what a release must pass before its tag is pushed, as Debian and its
# users see the package (one release build per clone: too long for make check).
#   1. make deb in a fresh clone, lintian passes it (errors and warnings fail), and it
#      installs within 60 MB;
#   2. a second clone, in a folder of another length, built later, gives the same bytes; both
#      are built while a third clone's debug build runs beside them, over and over (LOAD=0
#      leaves it out);
#   3. apt-get installs it; every tool runs from / (--version, man, bash completion loaded by
#      bash-completion itself, mockd serving its installed data);
#   4. apt-get purge leaves no file behind.
# Needs root (apt-get) on a Debian machine; REPRO=0 skips step 2.
set -euo pipefail
cd "$(dirname "$0")/.."
step() { printf '\nrelease-check: %s\n' "$*"; }
fail() { echo "release-check: $*" >&2; exit 1; }

# Both packages are built in fresh clones of this commit, in two folders, one after the other:
# what a user and a build machine would do (a checkout's own .build may hold objects of an
# earlier build).
[ -z "$(git status --porcelain)" ] || fail "the checkout has uncommitted changes; commit them first"
work=$(mktemp -d "${TMPDIR:-/tmp}/toolbox-release.XXXXXX")
trap 'rm -rf "$work"' EXIT
# The commit checked, and its version, fixed at the start: a commit made while the builds run
# is not it.
commit=$(git rev-parse HEAD)
version=$(sh scripts/version.sh)
build() {  # FOLDER [NAME=VALUE...]: clone the commit there and make deb (in that environment); prints the package's path
  local folder=$1
  shift
  git clone -q . "$folder"
  git -C "$folder" checkout -q "$commit"
  echo "$folder/$(cd "$folder" && env "$@" make -s deb | tail -1)"
}

# The load beside both builds: a third clone's debug build, again and again, until both are made.
if [ "${REPRO:-1}" != 0 ] && [ "${LOAD:-1}" != 0 ]; then
  git clone -q . "$work/load"
  # In a session of its own, so that it stops whole (the loop and the build it is in).
  setsid bash -c 'cd "$1" && while :; do swift build > /dev/null 2>&1; rm -rf .build/debug .build/*/debug; done' _ "$work/load" &
  load=$!
fi
# Stops the load and waits until every process of its session is gone (a compiler still
# writing into the clone would leave files behind the folder's removal).
stop_load() {
  [ -n "${load:-}" ] || return 0
  pkill -TERM -s "$load" 2> /dev/null || true
  wait "$load" 2> /dev/null || true
  for _ in $(seq 1 300); do pgrep -s "$load" > /dev/null || break; sleep 0.1; done
  pkill -KILL -s "$load" 2> /dev/null || true
  load=
}
trap 'stop_load; rm -rf "$work"' EXIT

step "1. make deb in a fresh clone, and lintian"
first=$(build "$work/first")
[ -f "$first" ] || fail "make deb made no package"
mkdir -p dist
deb=dist/$(basename "$first")
cp "$first" "$deb"
lintian --fail-on error,warning --tag-display-limit 0 "$deb" || fail "lintian: $deb (above)"
echo "lintian: $deb clean"
# The size a Debian user sees: one binary for the five tools keeps it within 60 MB.
installed=$(dpkg-deb -f "$deb" Installed-Size)
[ "$installed" -le 60000 ] || fail "Installed-Size $installed kB, over 60,000 (bench/size says what takes it)"
echo "installed size: $installed kB"

if [ "${REPRO:-1}" != 0 ]; then
  step "2. the same bytes from a second clone in another folder, built later, in another environment"
  second=$(build "$work/second/in-another-folder" "RELEASE_CHECK_PADDING=$(printf '%03000d' 0)" "OLDPWD=$work")
  if cmp "$deb" "$second"; then
    echo "reproducible: $(sha256sum < "$deb" | cut -d' ' -f1)"
  else
    command -v diffoscope > /dev/null && diffoscope "$deb" "$second" | head -100
    fail "$deb differs from the one built in $(dirname "$second")"
  fi
fi

stop_load

step "3. install with apt-get and use from /"
snapshot() { find /usr /etc /opt -xdev \( -path /etc/ld.so.cache -o -path '/usr/lib/python3*' \) -prune -o -print | LC_ALL=C sort; }
before=$(mktemp); after=$(mktemp)
snapshot > "$before"
export DEBIAN_FRONTEND=noninteractive
apt-get install -y -qq "./$deb" > /dev/null
cd /
binaries=$(dpkg -L toolbox | sed -n 's|^/usr/bin/||p')
for b in $binaries; do
  [ "$("$b" --version)" = "$b $version" ] || fail "$b --version says '$("$b" --version)', not '$b $version'"
  [ "$(man -w "$b")" = "/usr/share/man/man1/$b.1.gz" ] || fail "man -w $b: $(man -w "$b" 2>&1)"
  man "$b" 2> /dev/null | grep -q "toolbox $version" || fail "man $b does not name toolbox $version"
  # bash-completion loads a command's completion from its folder on the first Tab.
  loaded=$(bash --norc -c ". /usr/share/bash-completion/bash_completion; __load_completion $b && complete -p $b")
  [ -n "$loaded" ] || fail "bash-completion does not load $b's completion"
  echo "$b: --version, man and bash completion ($loaded)"
done
# mockd from /, with no --data: the installed copy, which condtest then lists.
coproc MOCKD { exec mockd --port 0 --quiet; }
read -r line <&"${MOCKD[0]}" || fail "mockd did not start"
url=${line#mockd: listening on }
count=$(condtest list --server "$url" | wc -l)
kill "$MOCKD_PID"; wait "$MOCKD_PID" || true
[ "$count" -gt 0 ] || fail "condtest listed nothing from mockd's installed data"
echo "mockd: served $count conditions from /usr/share/toolbox/data"

step "4. apt-get purge leaves nothing"
apt-get purge -y -qq toolbox > /dev/null
snapshot > "$after"
if ! diff "$before" "$after"; then fail "files left or changed by install and purge (above)"; fi
rm -f "$before" "$after"
echo "release-check: passed ($deb)"
