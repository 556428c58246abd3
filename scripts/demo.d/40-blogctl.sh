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
