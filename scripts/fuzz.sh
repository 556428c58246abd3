#!/usr/bin/env bash
# make fuzz: builds each libFuzzer harness in fuzz/ with AddressSanitizer and runs it for
# FUZZ_SECONDS (default 60), or for FUZZ_RUNS executions when that is set, from a corpus seeded with data/ and the tests' inputs. A run that
# takes longer than 10 s on one input is a finding too (-timeout=10). Findings (crash-*,
# timeout-*, leak-*) land in .build-fuzz/findings/NAME/; each becomes a regression test, and
# the exit status is 1 while any are there.
# Usage: fuzz.sh [NAME...]
#        fuzz.sh --check   type-checks every harness with its sources, without running it
#                          (part of make check: keeps the harnesses building as the Kits change)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${FUZZ_SECONDS:-60}
out=.build-fuzz

# The sources each harness is compiled with, as one module with the harness itself (so that
# it may call internal functions): CoreKit, the core without the network stack or the argument
# parser, and the Kit files a harness exercises, each of which imports CoreKit alone.
toolbox=$(find Sources/CoreKit -name '*.swift' -print0 | sort -z | xargs -0)
# CondtestKit without the files that talk to the server (they need ToolboxKit's network client).
condtest=$(grep -L -E '\bAPIClient\b|\bShellCompletion\b' Sources/CondtestKit/*.swift Sources/CondtestKit/Operators/*.swift)
blogctl="$(ls Sources/BlogctlEngines/HTML/*.swift)
  Sources/BlogctlKit/PostBody.swift Sources/BlogctlKit/PostMetadata.swift Sources/BlogctlEngines/Feeds/Enclosure.swift Sources/BlogctlKit/PostPage.swift"
declare -A sources=(
  [condition-json]="$condtest"
  [condition-text]="$condtest"
  [batch-lines]="$condtest"
  [sse]="Sources/PasscodeKit/ServerSentEvents.swift"
  [netrc]="Sources/PasscodeKit/Netrc.swift"
  [html-render]="$blogctl"
  [gzip]="$blogctl"
  [date-input]=""  # CoreKit's DateInput
  [feed-date]=""  # CoreKit's FeedDate
  # Feeds/ holds the parsers alone (no network, no cache): FeedReading/ is what uses them.
  [feed-parse]="$(ls Sources/BlogctlEngines/Feeds/*.swift) $(ls Sources/BlogctlEngines/HTML/*.swift)"
  [models-json]="$blogctl $condtest Sources/DevsyncKit/Device.swift Sources/DevsyncKit/PendingChange.swift"
  [csv]="Sources/DevsyncKit/CSV.swift Sources/DevsyncKit/DeviceExport.swift Sources/DevsyncKit/Device.swift Sources/DevsyncKit/PendingChange.swift"
  [case-positions]="$condtest"
  [file-stem]=""  # CoreKit's own files only
  [url-redaction]=""
  [search-query]="Sources/BlogctlKit/SearchQuery.swift"
  [canvas-table]="Sources/ScreenKit/Canvas.swift Sources/ScreenKit/Style.swift"
  [config-file]=""  # CoreKit's ConfigFile
  [post-stream]="Sources/BlogctlKit/PostStream.swift"
  [listing-file]="Sources/BlogctlKit/ListingFile.swift Tests/BlogctlKitTests/ListingFileEncoder.swift Sources/BlogctlKit/PostMetadata.swift Sources/BlogctlEngines/Feeds/Enclosure.swift"
  [post-list]="Sources/BlogctlKit/PostListDecoder.swift Sources/BlogctlKit/PostMetadata.swift Sources/BlogctlEngines/Feeds/Enclosure.swift"
)
# Flags a harness needs beyond the shared ones. search-query asks SQLite's own FTS5 parser:
# the toolbox's one SQLite (vendor/sqlite), compiled here with FTS5, as module FuzzSQLite.
sqlite_c=vendor/sqlite/sqlite_nio_sqlite3.c
sqlite_dir="$PWD/$out/sqlite"
declare -A flags=(
  [search-query]="-I $sqlite_dir"
)
declare -A objects=(
  [search-query]="$sqlite_dir/sqlite3.o"
)
sqlite_module() {
  mkdir -p "$sqlite_dir"
  printf 'module FuzzSQLite [system] {\n  header "%s"\n  export *\n}\n' \
    "$PWD/$(dirname "$sqlite_c")/include/sqlite_nio_sqlite3.h" > "$sqlite_dir/module.modulemap"
  if [ "${1:-}" = object ] && [ ! -f "$sqlite_dir/sqlite3.o" ]; then
    clang -c -O1 -DSQLITE_ENABLE_FTS5 -DSQLITE_THREADSAFE=0 -DSQLITE_OMIT_LOAD_EXTENSION \
      -I "$(dirname "$sqlite_c")/include" "$sqlite_c" -o "$sqlite_dir/sqlite3.o"
  fi
}
# Seeds: files from data/ and inputs the unit tests use.
declare -A seeds=(
  [condition-json]="data/conditions"
  [models-json]="data/blog/posts.json data/blog/massive.json data/devices/devices.json"
  [html-render]="data/blog/bodies"
  [gzip]="data/blog/bodies"
  [post-list]="fuzz/seeds/post-list.json"
  [feed-date]="fuzz/seeds/feed-date"
  [feed-parse]="fuzz/seeds/feed-parse"
)

all=(condition-json condition-text batch-lines sse netrc html-render gzip date-input models-json
  csv case-positions file-stem url-redaction search-query canvas-table config-file post-stream listing-file post-list
  feed-date feed-parse)
# The engines (Sources/BlogctlEngines) are compiled into the harness's one module with the
# rest: the `import BlogctlEngines` of an app file a harness takes finds an empty module of
# that name, and its types in the harness's own.
engines_stub="$PWD/$out/engines-stub"
mkdir -p "$engines_stub"
[ -f "$engines_stub/BlogctlEngines.swiftmodule" ] || { : > "$engines_stub/empty.swift"
  swiftc -emit-module -parse-as-library -module-name BlogctlEngines -package-name toolbox \
    -o "$engines_stub/BlogctlEngines.swiftmodule" "$engines_stub/empty.swift"; }
compile=(swiftc -parse-as-library -module-name CoreKit -package-name toolbox -swift-version 6
  -I Sources/CToolboxVersion -I Sources/CLibXML2 -I Sources/CZlib -Xcc -I/usr/include/libxml2 -I "$engines_stub")

if [ "${1:-}" = --check ]; then
  sqlite_module
  for name in "${all[@]}"; do
    # shellcheck disable=SC2086
    if ! errors=$("${compile[@]}" -typecheck ${flags[$name]:-} $toolbox ${sources[$name]} "fuzz/$name.swift" 2>&1); then
      grep -E '^[^ ].*error:' <<<"$errors" >&2 || printf '%s\n' "$errors" >&2
      echo "fuzz: the $name harness does not build (scripts/fuzz.sh lists the sources each harness needs)" >&2
      exit 1
    fi
  done
  echo "fuzz: all ${#all[@]} harnesses type-check"
  exit 0
fi

names=("$@")
[ ${#names[@]} -gt 0 ] || names=("${all[@]}")
for name in "${names[@]}"; do
  [ -n "${sources[$name]+set}" ] || { echo "fuzz: no harness named '$name' (harnesses: ${all[*]})" >&2; exit 2; }
done
mkdir -p "$out"
summary=()
for name in "${names[@]}"; do
  binary="$out/$name"
  # shellcheck disable=SC2086
  if [ -x "$binary" ] && [ -z "$(find $toolbox ${sources[$name]} "fuzz/$name.swift" -newer "$binary")" ]; then
    echo "== $name: up to date"
  else
    echo "== $name: building"
    rm -f "$binary"  # a failed build must not leave the old binary to be fuzzed as if it were new
    [ -z "${objects[$name]:-}" ] || sqlite_module object
    # shellcheck disable=SC2086
    "${compile[@]}" -sanitize=fuzzer,address -O -g ${flags[$name]:-} ${objects[$name]:-} $toolbox ${sources[$name]} "fuzz/$name.swift" -o "$binary" 2>&1 |
      grep -v -E 'ignoring import|^ *[0-9]* *\||^\[#|Cannot export local symbol .__asan|^$' || true
    [ -x "$binary" ] || { echo "fuzz: $name did not build" >&2; exit 1; }
  fi
  corpus="$out/corpus/$name"
  findings="$out/findings/$name"
  mkdir -p "$corpus" "$findings"
  for seed in ${seeds[$name]:-}; do
    if [ -d "$seed" ]; then cp "$seed"/* "$corpus"/ 2>/dev/null || true; else cp "$seed" "$corpus"/; fi
  done
  if [ -n "${FUZZ_RUNS:-}" ]; then
    echo "== $name: fuzzing for $FUZZ_RUNS executions"; limit=(-runs="$FUZZ_RUNS")
  else
    echo "== $name: fuzzing for ${seconds}s"; limit=(-max_total_time="$seconds")
  fi
  log="$out/$name.log"
  # A small quarantine keeps AddressSanitizer from spending the time in recycling memory; a
  # finding is replayed with full reports by running the binary on the crash file.
  ASAN_OPTIONS=detect_leaks=0:quarantine_size_mb=16 SWIFT_BACKTRACE=enable=no "$binary" "$corpus" "${limit[@]}" -timeout=10 -rss_limit_mb=4096 -max_len=65536 \
    -detect_leaks=0 -artifact_prefix="$findings/" -print_final_stats=1 >"$log" 2>&1 || true
  runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo 0)
  found=$(find "$findings" -type f | wc -l)
  summary+=("$name	${runs:-0} executions	$found findings")
  tail -n 3 "$log"
done
echo
echo "fuzz summary (findings in $out/findings/):"
printf '%s\n' "${summary[@]}" | column -t -s $'\t'
[ -z "$(find "$out/findings" -type f)" ] || { echo "fuzz: findings to turn into tests in $out/findings/" >&2; exit 1; }
