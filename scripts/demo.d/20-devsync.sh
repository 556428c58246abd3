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
# Several ids at once, in the one date grammar; an export read back changes nothing.
run "$bin/devsync" install CWM-0012-62 CWM-1244-65 --at 'yesterday'
run "$bin/devsync" discard --all --yes
"$bin/devsync" export > "$scratch/export.csv"
run "$bin/devsync" import "$scratch/export.csv"
run "$bin/devsync" config
say "devsync export | head -n 3"
"$bin/devsync" export | head -n 3
# The full screen, captured: tmux runs devsync ui at 80x24, sets a date on a device's screen,
# then syncs it from the Sync screen.
say "devsync ui    # / filters, Enter opens, i sets the date, Tab and S sync"
screen_start "env DEVSYNC_STORE=$DEVSYNC_STORE TOOLBOX_SERVER=$TOOLBOX_SERVER $bin/devsync ui"
if screen_wait "devices"; then
  screen_keys / && screen_keys -l CWM-1244-65 && screen_keys Enter Enter
  screen_wait "history (" && screen_keys i && screen_wait "installed at:"
  screen_keys C-u && screen_keys -l "2024-10-01 09:15" && screen_keys Enter
  screen_wait "pending sync" && screen_show
  screen_keys S
  screen_wait "synced ·\|[0-9] synced$\|kept for later" && screen_show
fi
screen_stop
