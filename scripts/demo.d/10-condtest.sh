# condtest's part of the tour (sourced by demo.sh, with run() and $TOOLBOX_SERVER set).
run "$bin/condtest" list
run "$bin/condtest" show 5b8f1c3e9d1a4c0012a3b009
run "$bin/condtest" eval 5b8f1c3e9d1a4c0012a3b003 robot
run "$bin/condtest" explain 5b8f1c3e9d1a4c0012a3b003 rollout.io
run "$bin/condtest" eval --all rollout.io beta
say "printf 'rollout.io\\trollout.io\\nrobot\\tx\\n' | condtest eval -e 'eq(arg1, arg2)' --batch"
printf 'rollout.io\trollout.io\nrobot\tx\n' | "$bin/condtest" eval -e 'eq(arg1, arg2)' --batch
run "$bin/condtest" eval -e 'startWith(arg1, "ro")' robot
# A table of cases, with coverage: the last case expects the wrong answer, on purpose.
printf '# condition\texpect\targ1\n5b8f1c3e9d1a4c0012a3b003\ttrue\trobot\n5b8f1c3e9d1a4c0012a3b003\tfalse\trollout.io\n=startsWith(arg1, "ro")\tfalse\trocket\n' > "$scratch/cases.tsv"
run cat "$scratch/cases.tsv"
run "$bin/condtest" test --coverage "$scratch/cases.tsv"
run "$bin/condtest" test --format tap "$scratch/cases.tsv"
# The full screen, captured: tmux runs condtest ui at 80x24, types, and prints the pane.
say "condtest ui --cases cases.tsv    # Enter opens, type an argument, Enter tests, Tab + a appends"
ui_sock="$scratch/ui.sock"
tmux -f /dev/null -S "$ui_sock" new-session -d -s ui -x 80 -y 24 \
  "env TOOLBOX_SERVER=$TOOLBOX_SERVER $bin/condtest ui --cases $scratch/ui.cases"
ui_wait() {
  for _ in $(seq 1 300); do tmux -S "$ui_sock" capture-pane -p -t ui | grep -q "$1" && return 0; sleep 0.02; done
  return 1
}
if ui_wait "Domain is rollout.io"; then
  tmux -S "$ui_sock" send-keys -t ui j j Enter
  ui_wait "\[ Test \]" && tmux -S "$ui_sock" send-keys -t ui -l rollout.io
  tmux -S "$ui_sock" send-keys -t ui Enter Tab a
  ui_wait "appended" && tmux -S "$ui_sock" capture-pane -p -t ui | sed -e :a -e '/^\n*$/{$d;N;ba' -e '}'
fi
tmux -S "$ui_sock" kill-server 2>/dev/null || true
run cat "$scratch/ui.cases"
