#!/bin/sh
# Every long option that a binary's --help (and each subcommand's) shows must appear in
# its man page. Usage: man-options.sh BIN_DIR BINARY...
bindir=$1; shift
status=0
for b in "$@"; do
  page=$(mandoc -Tascii "man/$b.1" 2>/dev/null | sed -e 's/.\x08//g')
  helps=$("$bindir/$b" --help 2>&1)
  # Subcommands are listed under SUBCOMMANDS:, one per line, indented.
  subs=$(printf '%s\n' "$helps" | awk '/^SUBCOMMANDS:/{f=1;next} /^[A-Z]/{f=0} f && /^  [a-z]/{print $1}')
  for s in $subs; do helps="$helps
$("$bindir/$b" $s --help 2>&1)"; done
  for opt in $(printf '%s\n' "$helps" | grep -oE -- '--[a-z][a-z0-9-]*' | sort -u); do
    case "$opt" in --generate-completion-script) continue;; esac
    if ! printf '%s\n' "$page" | grep -qF -- "$opt"; then
      echo "man-options: $b: $opt is in --help but not in man/$b.1" >&2
      status=1
    fi
  done
done
[ $status -eq 0 ] && echo "man-options: every --help option is documented"
exit $status
