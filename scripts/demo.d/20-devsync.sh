# devsync's part of the tour: record offline, then sync to a slow, flaky server.
export DEVSYNC_STORE="$scratch/devsync.sqlite"
run "$bin/devsync" pull
say "devsync list --type heating | head -n 4"
"$bin/devsync" list --type heating | head -n 4
run "$bin/devsync" install WWM-0001-12 --at '2024-03-04 09:15'
run "$bin/devsync" uninstall HEA-8127-29
run "$bin/devsync" pending
run "$bin/devsync" sync --dry-run
run "$bin/devsync" sync --wait
run "$bin/devsync" status
run "$bin/devsync" log WWM-0001-12
say "devsync export | head -n 3"
"$bin/devsync" export | head -n 3
