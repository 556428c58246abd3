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
