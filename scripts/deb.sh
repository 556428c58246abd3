#!/usr/bin/env bash
# make deb's packaging, run in its clone (scripts/deb-build.sh): dist/toolbox_VERSION_ARCH.deb
# from the release binaries in $1, with dpkg-deb alone (no network, no toolchain on the machine
# that installs it). Reproducible from any folder: every input comes from the commit
# (SOURCE_DATE_EPOCH is its time), the build maps its folder away, runs in a folder whose path
# is always as long, and leaves out the one optimizer pass whose result followed the compiler's
# memory (Makefile: RELEASE_FLAGS), the compiler's random module hash is zeroed, files are added
# in a fixed order with fixed owners, modes and times, man pages and the changelog are gzipped
# without names or times.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$1
shift
binaries=("$@")

version=$(sh scripts/version.sh)
debversion="$version-1"
arch=$(dpkg --print-architecture)
SOURCE_DATE_EPOCH=$(sh scripts/version.sh --epoch)
export SOURCE_DATE_EPOCH TZ=UTC LC_ALL=C.UTF-8
umask 022

# The binaries must be the ones this commit builds: their --version says so.
for b in "${binaries[@]}"; do
  said=$("$bin/$b" --version)
  [ "$said" = "$b $version" ] || { echo "make deb: $bin/$b says '$said', not '$b $version'; run make all" >&2; exit 1; }
done

# Every Swift package linked into a binary is named in the copyright file: the modules each
# binary links, and the checkout each module's sources come from.
linked_packages() {
  local module dir
  sed -E 's|.*/([^/]+)\.build/.*|\1|' "$bin/toolbox.product/Objects.LinkFileList" | sort -u |
    while read -r module; do
      dir=$(ls -d .build/checkouts/*/Sources/"$module" 2> /dev/null | head -1)
      [ -n "$dir" ] || dir=$(head -1 "$bin/$module.build/sources" 2> /dev/null || true)
      case $dir in */.build/checkouts/*|.build/checkouts/*) dir=${dir#*.build/checkouts/}; echo "${dir%%/*}" ;; esac
    done | sort -u
}
missing=$(linked_packages | while read -r package; do
  grep -q "^Files: .build/checkouts/$package/\*" packaging/deb/copyright || echo "$package"
done)
[ -z "$missing" ] || { echo "make deb: packaging/deb/copyright does not name the linked package(s):" $missing >&2; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/toolbox-deb.XXXXXX")
trap 'rm -rf "$work"' EXIT
# dpkg-shlibdeps' layout: debian/control beside the package's tree, debian/toolbox.
root=$work/debian/toolbox
doc=$root/usr/share/doc/toolbox
install -d "$root/DEBIAN" "$root/usr/bin" "$root/usr/libexec/toolbox" "$root/usr/share/man/man1" \
  "$root/usr/share/bash-completion/completions" "$root/usr/share/zsh/vendor-completions" \
  "$root/usr/share/fish/vendor_completions.d" "$root/usr/share/toolbox" "$doc" \
  "$root/usr/share/lintian/overrides"

# The one binary (Sources/toolbox), run by the name it is called by: each tool is a link to it.
program=$root/usr/libexec/toolbox/toolbox
install -m 755 "$bin/toolbox" "$program"
# The module hash swiftc stamps into every object (a random nonce per compile, read by
# nothing at run time) alone would make two builds of one commit differ: it is zeroed in
# place. Removed, the section's absence moved what follows it, and strip dropped the
# GNU_RELRO segment (lintian: hardening-no-relro).
objcopy --dump-section .swift_modhash="$work/modhash" "$program"
head -c "$(stat -c %s "$work/modhash")" /dev/zero > "$work/modhash"
objcopy --update-section .swift_modhash="$work/modhash" "$program"
# As dh_strip strips an executable.
strip --remove-section=.comment --remove-section=.note "$program"
readelf -lW "$program" | grep -q GNU_RELRO || { echo "make deb: toolbox lost its GNU_RELRO segment" >&2; exit 1; }
# The linker's build id hashed the nonce too: it is computed again from what is left, as
# rpm's builds do (debugedit, seeded with the package's version).
debugedit --build-id --build-id-seed "toolbox $debversion" "$program" > /dev/null

for b in "${binaries[@]}"; do
  ln -s ../libexec/toolbox/toolbox "$root/usr/bin/$b"
  sh scripts/man-page.sh "man/$b.1" | gzip -9n > "$root/usr/share/man/man1/$b.1.gz"
  "$bin/$b" --generate-completion-script bash > "$root/usr/share/bash-completion/completions/$b"
  "$bin/$b" --generate-completion-script zsh > "$root/usr/share/zsh/vendor-completions/_$b"
  "$bin/$b" --generate-completion-script fish > "$root/usr/share/fish/vendor_completions.d/$b.fish"
done
cp -R data "$root/usr/share/toolbox/data"
cp packaging/deb/copyright "$doc/copyright"
cp packaging/deb/lintian-overrides "$root/usr/share/lintian/overrides/toolbox"
bash scripts/deb-changelog.sh "$debversion" | gzip -9n > "$doc/changelog.Debian.gz"

# Depends, as dpkg-shlibdeps works it out from the libraries each binary needs, and from the
# ones it opens when first used (libxml2, ncursesw: dlopen, so not in the binaries' headers).
# A stub that links them and names every symbol the toolbox looks up stands for those.
printf 'Source: toolbox\n\nPackage: toolbox\nArchitecture: any\n' > "$work/debian/control"
bash scripts/dlopen-stub.sh "$root/dlopened"
depends=$(cd "$work" && dpkg-shlibdeps -O debian/toolbox/usr/libexec/toolbox/toolbox debian/toolbox/dlopened)
rm "$root/dlopened"
depends=${depends#shlibs:Depends=}
# blogctl's own reading of markup (MarkupScanner, HTMLStream) follows libxml2 2.9's tokenizer,
# as its tests check against the installed library: the package states that series, as
# blogctl says at run time on any other (its pages stay bounded either way).
depends=$(printf '%s' "$depends" | sed -E 's/libxml2 \(>= [^)]*\)/libxml2 (>= 2.9.0), libxml2 (<< 2.10)/')
# The binary's relative relocations are packed (DT_RELR), which glibc's loader reads from 2.36
# on and refuses before (the binary needs version GLIBC_ABI_DT_RELR). dpkg-shlibdeps goes by
# the symbols a binary imports, and that version names none, so it asks too little of libc6.
if readelf -VW "$program" | grep -q GLIBC_ABI_DT_RELR; then
  libc=$(printf '%s' "$depends" | sed -nE 's/.*libc6 \(>= ([^)]*)\).*/\1/p')
  [ -n "$libc" ] || { echo "make deb: dpkg-shlibdeps named no libc6 version: $depends" >&2; exit 1; }
  if dpkg --compare-versions "$libc" lt 2.36; then
    depends=$(printf '%s' "$depends" | sed -E 's/libc6 \(>= [^)]*\)/libc6 (>= 2.36)/')
  fi
fi

# Fixed modes (no group or other write), then the commit's time on everything.
find "$root" -type d -exec chmod 755 {} +
find "$root" -type f -exec chmod 644 {} +
chmod 755 "$program"
(cd "$root" && find usr -type f -print0 | LC_ALL=C sort -z | xargs -0 md5sum) > "$root/DEBIAN/md5sums"
size=$(du -sk --apparent-size "$root/usr" | cut -f1)
sed -e "s/@VERSION@/$debversion/" -e "s/@ARCH@/$arch/" -e "s/@SIZE@/$size/" -e "s/@DEPENDS@/$depends/" \
  packaging/deb/control > "$root/DEBIAN/control"
chmod 644 "$root/DEBIAN/control" "$root/DEBIAN/md5sums"
find "$root" -exec touch -h -d "@$SOURCE_DATE_EPOCH" {} +

mkdir -p dist
out="dist/toolbox_${debversion}_${arch}.deb"
dpkg-deb --root-owner-group -Zxz --build "$root" "$out" > /dev/null
echo "$out"
