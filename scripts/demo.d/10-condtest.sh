# condtest's part of the tour (sourced by demo.sh, with run() and $TOOLBOX_SERVER set).
run "$bin/condtest" list
run "$bin/condtest" show 5b8f1c3e9d1a4c0012a3b009
# The start of an id will do, as git takes a short hash; a miss suggests the nearest.
run "$bin/condtest" show 5b8f1c3e9d1a4c0012a3b00
run "$bin/condtest" show 5b8f1c3e9d1a4c0012a3b0ff
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
screen_start "env TOOLBOX_SERVER=$TOOLBOX_SERVER $bin/condtest ui --cases $scratch/ui.cases"
if screen_wait "Domain is rollout.io"; then
  screen_keys j j Enter
  screen_wait "\[ Test \]" && screen_keys -l rollout.io
  screen_keys Enter Tab a
  screen_wait "appended" && screen_show
fi
screen_stop
run cat "$scratch/ui.cases"
