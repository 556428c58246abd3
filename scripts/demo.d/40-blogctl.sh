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
screen_start "env XDG_CACHE_HOME=$XDG_CACHE_HOME XDG_DATA_HOME=$XDG_DATA_HOME XDG_STATE_HOME=$XDG_STATE_HOME TOOLBOX_SERVER=$TOOLBOX_SERVER $bin/blogctl ui"
if screen_wait "posts ·"; then
  screen_keys o && screen_wait "Group by author" && screen_keys -l "group by a"
  screen_keys Enter
  screen_wait "by author" && screen_show
  screen_keys g j Enter
  screen_wait "has no pretensions" && screen_show
fi
screen_stop
