#!/bin/sh
# Flags Character-level string operations in the files that quote, escape or parse text for
# a shell, SQL, a URL, YAML, CSV or JSON (issue 46): there a quote, a colon or a slash
# followed by a combining mark is one Swift Character but still that byte to the parser, so
# `replacing`, `split`, `firstIndex`, `contains`, `hasPrefix`... with a text literal must work
# on `utf8` or `unicodeScalars`. A line that means Characters says why with a
# `// character-level:` comment.
set -eu
cd "$(dirname "$0")/.."
files="Sources/ToolboxKit/CommandLine/ShellCompletion.swift
Sources/CoreKit/URLs/ServerURL.swift
Sources/CoreKit/URLs/URLReference.swift
Sources/CoreKit/URLs/URLUserInfo.swift
Sources/CoreKit/URLs/PercentEncoding.swift
Sources/CoreKit/URLs/ProxyChoice.swift
Sources/CoreKit/URLs/ResourceID.swift
Sources/ToolboxKit/Network/AbsoluteFormProxy.swift
Sources/CoreKit/Configuration/ConfigFile.swift
Sources/CoreKit/Text/JSONCoding.swift
Sources/CoreKit/Text/JSONScanner.swift
Sources/BlogctlEngines/HTML/LinkResolver.swift
Sources/BlogctlKit/SearchQuery.swift
Sources/BlogctlKit/SearchGrams.swift
Sources/BlogctlKit/PostStream.swift
Sources/DevsyncKit/CSV.swift
Sources/PasscodeKit/Netrc.swift"
pattern='\.(replacing|replacingOccurrences|split|firstIndex|lastIndex|firstRange|contains|hasPrefix|hasSuffix|components|trimmingCharacters)\((of: |separator: |with: )?"'
found=$(for f in $files; do
  grep -nE "$pattern" "$f" | grep -vE '\.(utf8|unicodeScalars)\.[a-zA-Z]+\(' | grep -v 'character-level:' | sed "s|^|$f:|"
done)
if [ -n "$found" ]; then
  printf "%s\n" "$found" >&2
  echo "character-lint: Character-level operations on parsed text (above): use utf8 or unicodeScalars, or say why with // character-level:" >&2
  exit 1
fi
