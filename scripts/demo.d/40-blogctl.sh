# blogctl's part of the tour: list without bodies, read one, the massive post with its progress bar.
run "$bin/blogctl" list --group-by author --sort-by title
say "blogctl list --group-by month | cut -f1,2,5"
"$bin/blogctl" list --group-by month | cut -f1,2,5
run "$bin/blogctl" show 7
run "$bin/blogctl" read 4 --no-pager
run "$bin/blogctl" read 4 -v --no-pager --format markdown
say "blogctl read massive | tail -n 3     # 8 MB at 2 MB/s: the progress bar is on stderr"
"$bin/blogctl" read massive | tail -n 3
run "$bin/blogctl" prefetch --jobs 4
run "$bin/blogctl" read 8 --offline --no-pager
run "$bin/blogctl" cache stats
# A daily reader: what is unread, a post's links, marks.
run "$bin/blogctl" list --unread --limit 3
run "$bin/blogctl" links 4
run "$bin/blogctl" mark --unread 3
run "$bin/blogctl" list --author ada --since 2018-08-01
run "$bin/blogctl" search dijkstra
# The full screen, captured: tmux runs blogctl ui at 80x24, arranges by author, opens a post.
say "blogctl ui    # o arranges (typing picks the entry), Enter reads, l lists links, / searches"
ui_sock="$scratch/blog-ui.sock"
tmux -f /dev/null -S "$ui_sock" new-session -d -s ui -x 80 -y 24 \
  "env XDG_CACHE_HOME=$XDG_CACHE_HOME XDG_DATA_HOME=$XDG_DATA_HOME XDG_STATE_HOME=$XDG_STATE_HOME TOOLBOX_SERVER=$TOOLBOX_SERVER $bin/blogctl ui"
blog_wait() {
  for _ in $(seq 1 300); do tmux -S "$ui_sock" capture-pane -p -t ui | grep -q "$1" && return 0; sleep 0.02; done
  return 1
}
show_pane() { tmux -S "$ui_sock" capture-pane -p -t ui | sed -e :a -e '/^\n*$/{$d;N;ba' -e '}'; }
if blog_wait "posts ·"; then
  tmux -S "$ui_sock" send-keys -t ui o && blog_wait "Group by author" && tmux -S "$ui_sock" send-keys -t ui -l "group by a"
  tmux -S "$ui_sock" send-keys -t ui Enter
  blog_wait "by author" && show_pane
  tmux -S "$ui_sock" send-keys -t ui g j Enter
  blog_wait "has no pretensions" && show_pane
fi
tmux -S "$ui_sock" kill-server 2>/dev/null || true
