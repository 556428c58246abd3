# The toolbox: condtest, passcode, blogctl, devsync and mockd.
# `make check` is the test command CI runs; `make demo` is the guided tour.

PREFIX  ?= /usr/local
DESTDIR ?=
SWIFT   ?= swift

# The tools: each a name of the one binary, toolbox (Sources/toolbox), which runs the tool it
# is called as; each has its commands in Sources/NAME, a man page, completion and --version.
BINARIES := blogctl condtest devsync mockd passcode
# What make deb and make release-check need beyond the build's packages.
RELEASE_PACKAGES := dpkg-dev binutils debugedit lintian bash-completion man-db
DEBIAN_PACKAGES := libxml2-dev libxml2-utils zlib1g-dev libncurses-dev pkg-config mandoc tmux tinyproxy openssl python3 python3-tap python3-yaml python3-more-itertools perl time zsh fish newsboat

# The version script keeps every symbol local: no dynamic symbol table (3 MB a binary).
# lld packs the relative relocations of these position-independent binaries (DT_RELR, glibc
# 2.36 and later): 2 MB less each, and less work for the dynamic loader at every start. No
# run path ($ORIGIN): the static Swift runtime needs none, and ncursesw and libxml2, opened
# when first used, are then never looked for beside the binary.
# -z now: every symbol bound at start, so the whole GOT is read-only (full RELRO, as
# Debian's hardening asks); the few the static Swift runtime leaves cost nothing measurable.
# The checkout's folder is mapped away (#filePath in a precondition's message, C's __FILE__),
# so that two clones in two folders build the same bytes (make deb is reproducible).
# The SIL optimizer's BoundsCheckOpts pass is left out: its result follows where the compiler's
# memory lies (the same module compiled twice kept a bounds check in one build and not the other,
# swiftlang/swift#77168); the bounds checks it removes are the checks every debug build makes.
# libstdc++ is linked in too, as the Swift runtime is: loading the shared one (its relocations
# and its own start-up) took a third of a millisecond of every start, more than a tenth of a
# tool's --version (bench/size). The Swift driver asks for -lstdc++ itself, so a linker script
# of that name, found first, stands for the archive (written by make all).
STATIC_CXX    := $(CURDIR)/.build/static-libstdc++
RELEASE_FLAGS := -c release --static-swift-stdlib -Xswiftc -gnone -Xlinker --version-script=$(CURDIR)/scripts/executable.exports \
                 -Xswiftc -use-ld=lld -Xlinker -z -Xlinker pack-relative-relocs -Xlinker -z -Xlinker now --disable-local-rpath \
                 -Xswiftc -file-prefix-map -Xswiftc $(CURDIR)=. -Xcc -ffile-prefix-map=$(CURDIR)=. \
                 -Xswiftc -Xllvm -Xswiftc -sil-disable-pass=bcopts -Xswiftc -L$(STATIC_CXX)
DEBUG_BIN     = $(shell $(SWIFT) build --show-bin-path)
RELEASE_BIN   = $(shell $(SWIFT) build $(RELEASE_FLAGS) --show-bin-path)

BINDIR  := $(DESTDIR)$(PREFIX)/bin
# The one binary the tools' names in BINDIR link to.
LIBEXECDIR := $(DESTDIR)$(PREFIX)/libexec/toolbox
MANDIR  := $(DESTDIR)$(PREFIX)/share/man/man1
BASHDIR := $(DESTDIR)$(PREFIX)/share/bash-completion/completions
ZSHDIR  := $(DESTDIR)$(PREFIX)/share/zsh/site-functions
FISHDIR := $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d
# mockd's data, found beside the binary (bin/../share/toolbox/data) when installed.
DATADIR := $(DESTDIR)$(PREFIX)/share/toolbox/data

.PHONY: all deb deb-in-place release-check build deps test test-tsan markup-replay check man-lint man-options character-lint demo install uninstall bench fuzz fuzz-check clean

## all: release build of the one binary (each tool a link to it), Swift runtime linked statically
all:
	@sh scripts/version.sh --header
	@archive=$$(clang -print-file-name=libstdc++.a) && [ -f "$$archive" ] || \
	  { echo "make: no libstdc++.a to link (Debian: libstdc++-12-dev)" >&2; exit 1; }; \
	  mkdir -p "$(STATIC_CXX)" && printf 'INPUT(%s)\n' "$$archive" > "$(STATIC_CXX)/libstdc++.so"
	$(SWIFT) build $(RELEASE_FLAGS)
	@sh scripts/tool-links.sh "$(RELEASE_BIN)"

## deps: the Debian packages the build and tests need
deps:
	@sh scripts/deps.sh $(DEBIAN_PACKAGES)

## build: debug build of every target and test
build: deps
	@SWIFT="$(SWIFT)" bash scripts/build.sh

## test: unit and end-to-end tests against the debug build
# In two processes: the end-to-end tests wait for real processes and terminals on the shared
# threads for minutes, and an async unit test sharing them could see its deadline pass before
# it ever ran (the "no answer within 300s" flake).
test: build
	TOOLBOX_BIN_DIR="$(DEBUG_BIN)" $(SWIFT) test --skip-build --skip '^EndToEndTests\.'
	TOOLBOX_BIN_DIR="$(DEBUG_BIN)" $(SWIFT) test --skip-build --filter '^EndToEndTests\.'

## markup-replay: MarkupScanner replayed against the libxml2 installed here (it follows 2.9's
## tokenizer: a library that reads markup otherwise fails here first, naming where)
markup-replay: build
	@xmllint --version 2>&1 | head -n 1
	$(SWIFT) test --skip-build --filter 'MarkupReplayTests|LibXML2VersionTests'

## test-tsan: PasscodeKit's tests (the concurrent session) and a big feed's two threads
## (FeedHandoffTests, HandoffQueueTests) under ThreadSanitizer
test-tsan: deps
	$(SWIFT) test --sanitize=thread --scratch-path .build-tsan --filter 'PasscodeKitTests|FeedHandoffTests|HandoffQueueTests'

## check: build, the Character-level lint, every test, ThreadSanitizer run, man page lint and
## option coverage, the fuzz harnesses still type-check, and nothing the tests started left
## behind (what CI runs)
check: build
	@sh scripts/leftovers.sh mark
	@sh scripts/version.sh --check
	$(MAKE) character-lint markup-replay test test-tsan man-lint man-options fuzz-check
	@sh scripts/leftovers.sh check

## character-lint: no Character-level operation on text that a shell, SQL, a URL, YAML, CSV or
## JSON parses (scripts/character-lint.sh lists the files)
character-lint:
	@sh scripts/character-lint.sh

man-lint: deps
	@sh scripts/man-lint.sh $(BINARIES)

man-options: build
	@sh scripts/man-options.sh "$(DEBUG_BIN)" $(BINARIES)

## demo: start mockd on a free port and tour every binary
demo: build
	@bash scripts/demo.sh "$(DEBUG_BIN)"

## install: the one stripped static binary and a link to it for each tool, man pages,
## bash/zsh/fish completions, mockd's data
install: all
	@set -e; bin="$(RELEASE_BIN)"; \
	install -d "$(BINDIR)" "$(LIBEXECDIR)" "$(MANDIR)" "$(BASHDIR)" "$(ZSHDIR)" "$(FISHDIR)"; \
	install -m 755 -s "$$bin/toolbox" "$(LIBEXECDIR)/toolbox"; \
	for b in $(BINARIES); do \
	  ln -sfn ../libexec/toolbox/toolbox "$(BINDIR)/$$b"; \
	  sh scripts/man-page.sh "man/$$b.1" > "$(MANDIR)/$$b.1"; chmod 644 "$(MANDIR)/$$b.1"; \
	  "$$bin/$$b" --generate-completion-script bash > "$(BASHDIR)/$$b"; \
	  "$$bin/$$b" --generate-completion-script zsh  > "$(ZSHDIR)/_$$b"; \
	  "$$bin/$$b" --generate-completion-script fish > "$(FISHDIR)/$$b.fish"; \
	  echo "installed $$b"; \
	done; \
	(cd data && find . -type d) | while read -r d; do install -d "$(DATADIR)/$$d"; done; \
	(cd data && find . -type f) | while read -r f; do install -m 644 "data/$$f" "$(DATADIR)/$$f"; done; \
	echo "installed mockd's data in $(DATADIR)"

## deb: dist/toolbox_VERSION_ARCH.deb of the checkout's commit, the same bytes from any folder
deb:
	@sh scripts/deps.sh $(RELEASE_PACKAGES)
	@bash scripts/deb-build.sh

# What make deb runs in its clone (scripts/deb-build.sh): the release build, then the package.
deb-in-place: all
	@bash scripts/deb.sh "$(RELEASE_BIN)" $(BINARIES)

## release-check: make deb, lintian, the same bytes from a second clone, apt-get install and
## use from /, apt-get purge leaves nothing (root, Debian; two release builds: not in check)
release-check:
	@sh scripts/deps.sh $(RELEASE_PACKAGES)
	@bash scripts/release-check.sh

## uninstall: remove exactly what install put there
uninstall:
	@for b in $(BINARIES); do \
	  rm -f "$(BINDIR)/$$b" "$(MANDIR)/$$b.1" "$(BASHDIR)/$$b" "$(ZSHDIR)/_$$b" "$(FISHDIR)/$$b.fish"; \
	done
	@rm -f "$(LIBEXECDIR)/toolbox"
	@rm -rf "$(DATADIR)"
	@# Folders install created, only if nothing else lives in them.
	@rmdir -p "$(BINDIR)" "$(LIBEXECDIR)" "$(MANDIR)" "$(BASHDIR)" "$(ZSHDIR)" "$(FISHDIR)" "$(dir $(DATADIR))" 2>/dev/null || true

## bench: side-by-side benchmarks against peer tools (never part of check)
bench: deps all
	@bash scripts/bench.sh "$(RELEASE_BIN)"

## fuzz: libFuzzer harnesses for every parser, FUZZ_SECONDS each (default 60); never part of check
fuzz: deps
	@bash scripts/fuzz.sh

## fuzz-check: every fuzz harness type-checks with the sources it is compiled with (no run)
fuzz-check: deps
	@bash scripts/fuzz.sh --check

clean:
	$(SWIFT) package clean
	rm -rf .build .build-fuzz
