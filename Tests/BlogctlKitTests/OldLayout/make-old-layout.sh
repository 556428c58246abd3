#!/usr/bin/env bash
# Makes OldLayout/home: what blogctl kept before the library (issue 63), written by the
# previous release's own binaries (commit 4f1c26f), for LibraryTests' take-in test. Run from
# the checkout with OLD=<a build of 4f1c26f's bin folder>. Fixed ports: the folders are named
# from the URLs, which the test names again.
#   API:   http://127.0.0.1:18900      (mockd: list, read two posts, mark one unread again)
#   feeds: http://127.0.0.1:18900/feeds/1.xml and /feeds/2.xml (listed, entries read)
#          http://127.0.0.1:18901/feed.xml  (refused: its last error)
#          http://127.0.0.1:18902/feed.xml  (410 Gone: gone)
set -euo pipefail
old=${OLD:?set OLD to the folder of the previous release binaries}
out=Tests/BlogctlKitTests/OldLayout/home
work=$(mktemp -d)
pids=()
trap 'kill "${pids[@]}" 2>/dev/null || true; rm -rf "$work"' EXIT
"$old/mockd" --data data --port 18900 --latency 0 --failure-rate 0 --quiet --feeds 2 --feed-items 4 > "$work/mockd.out" &
pids+=($!)
python3 -c '
import http.server
class Gone(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        self.send_response(410); self.send_header("Content-Length", "0"); self.end_headers()
    def log_message(self, *a): pass
http.server.HTTPServer(("127.0.0.1", 18902), Gone).serve_forever()' &
pids+=($!)
until grep -q listening "$work/mockd.out"; do sleep 0.1; done
export HOME="$work/home" XDG_CONFIG_HOME="$work/home/config" XDG_CACHE_HOME="$work/home/cache" XDG_DATA_HOME="$work/home/data"
unset BLOGCTL_SERVER TOOLBOX_SERVER
blog() { "$old/blogctl" "$@"; }
# The API's server.
blog list --server http://127.0.0.1:18900 > /dev/null
blog read 4 --no-pager --server http://127.0.0.1:18900 > /dev/null
blog read 7 --no-pager --server http://127.0.0.1:18900 > /dev/null
blog mark --unread 7 --server http://127.0.0.1:18900
# Subscriptions.
blog feeds add http://127.0.0.1:18900/feeds/1.xml http://127.0.0.1:18900/feeds/2.xml http://127.0.0.1:18901/feed.xml \
  http://127.0.0.1:18902/feed.xml
blog list > /dev/null || true
blog read feed-1-item-2 --no-pager > /dev/null
blog mark feed-2-item-1 feed-2-item-3
rm -rf "$out"
mkdir -p "$out"
# What the take-in reads: listings, feed state, health, marks, the urls file (bodies and
# search indexes are a cache, fetched and built again).
(cd "$HOME" && find . -name listing.tsv -o -name feed.json -o -name last-error -o -name gone -o -name read.json -o -name urls) |
  while read -r file; do mkdir -p "$out/$(dirname "$file")"; cp "$HOME/$file" "$out/$file"; done
find "$out" -type f | sort
