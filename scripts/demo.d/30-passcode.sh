# passcode's part of the tour: script mode (mockd's code is 1234 here), then one raw call.
export PASSCODE_USER=Runloop PASSCODE_PASSWORD='Run!@0p'
say "printf '9\\n9\\n9\\n9\\n1\\n2\\n3\\n4\\n' | passcode    # a wrong code, then the right one"
printf '9\n9\n9\n9\n1\n2\n3\n4\n' | "$bin/passcode" || echo "(exit $?)"
run "$bin/passcode" fetch
echo "(run passcode in a terminal for the keypad screen; it draws with ScreenKit, as condtest ui)"
# As a gate: the first unlock exits 0 and prints nothing.
say "printf '1\\n2\\n3\\n4\\n' | passcode --once && echo unlocked, deploying"
printf '1\n2\n3\n4\n' | "$bin/passcode" --once && echo "unlocked, deploying"
