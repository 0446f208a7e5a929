#!/usr/bin/env bash
# Builds the release archive target/svc-<version>-linux-x64.tar.gz: svc with its own Java runtime
# (no JDK needed to run it). Needs a JDK 25 with jlink and Maven (as ./svc does).
#   scripts/release.sh            build the jar if sources changed, link the runtime, pack
# Layout inside the archive (one top directory, svc-<version>/):
#   svc, bin/svc          the launcher (bin/svc links to it)
#   lib/svc.jar, lib/lib/ svc and its dependencies
#   runtime/              the Java runtime, linked with jlink (modules: runtime-modules.txt)
#   install.sh            puts svc on the PATH (~/.local/bin by default; --prefix DIR)
#   README.md, LICENSE, docs/ (pages and images), examples/quickstart/
# The runtime is linked once per JDK version and module list and kept in the svc cache
# ($SVC_CACHE_DIR, else ~/.cache/svc), where `svc build --image` finds it too.
set -euo pipefail
repo="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)"
cd "$repo"
# shellcheck source=scripts/find-java.sh
. scripts/find-java.sh
svc_find_java || exit 1
export JAVA_HOME="$SVC_JAVA_HOME"
if [ ! -x "$JAVA_HOME/bin/jlink" ]; then
  echo "release: $JAVA_HOME has no jlink; set SVC_JAVA_HOME to a full JDK 25" >&2
  exit 1
fi
case "$(uname -s)-$(uname -m)" in
  Linux-x86_64) platform=linux-x64 ;;
  *) echo "release: only linux-x64 archives are made, and this is $(uname -s)-$(uname -m)" >&2; exit 1 ;;
esac

./svc --version >/dev/null # builds target/svc.jar when it is missing or older than the sources
version=$(unzip -p target/svc.jar META-INF/MANIFEST.MF | sed -n 's/^Implementation-Version: *//p' | tr -d '\r')
[ -n "$version" ] || { echo "release: no Implementation-Version in target/svc.jar" >&2; exit 1; }

modules=$(grep -v '^#' src/main/resources/dev/svc/cli/runtime-modules.txt | sed '/^[[:space:]]*$/d' | paste -sd, -)
java_version=$(sed -n 's/^JAVA_RUNTIME_VERSION="\(.*\)"/\1/p' "$JAVA_HOME/release" | sed 's/[^A-Za-z0-9.+-]/_/g')
key="$java_version-$(printf %s "$modules" | sha256sum | cut -c1-12)"
cache="${SVC_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/svc}"
runtime="$cache/runtime-$key"
if [ ! -x "$runtime/bin/java" ]; then
  echo "release: linking the Java runtime ($modules) ..." >&2
  mkdir -p "$cache"
  partial="$runtime.partial-$$"
  rm -rf "$partial"
  "$JAVA_HOME/bin/jlink" --add-modules "$modules" --strip-debug --no-man-pages --no-header-files \
    --generate-cds-archive --output "$partial" >/dev/null
  mv "$partial" "$runtime" 2>/dev/null || rm -rf "$partial"
fi

name="svc-$version"
stage="target/release/$name"
rm -rf target/release
mkdir -p "$stage/bin" "$stage/lib/lib" "$stage/docs" "$stage/examples"
cp -R "$runtime" "$stage/runtime"
cp target/svc.jar "$stage/lib/svc.jar"
for jar in $(unzip -p target/svc.jar META-INF/MANIFEST.MF | tr -d '\r' | sed -n '/^Class-Path:/,/^[A-Z][A-Za-z-]*:/p' \
  | sed -e 's/^Class-Path: //' -e '/^[A-Z][A-Za-z-]*:/d' -e 's/^ //' | tr -d '\n'); do
  cp "target/$jar" "$stage/lib/$jar"
done
cp scripts/release/svc "$stage/svc"
ln -s ../svc "$stage/bin/svc"
cp scripts/install.sh "$stage/install.sh"
cp README.md LICENSE "$stage/"
cp docs/*.md "$stage/docs/"
cp -R docs/images "$stage/docs/images"   # the pictures the pages show (console.md)
# the example as committed: not a .env, a database or a build someone left in the checkout
mkdir -p "$stage/examples/quickstart"
if git -C examples/quickstart rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  example_dest="$(cd "$stage/examples/quickstart" && pwd)"
  git -C examples/quickstart ls-files -z | (cd examples/quickstart && xargs -0 cp --parents -t "$example_dest")
else
  cp -R examples/quickstart/. "$stage/examples/quickstart"
  rm -rf "$stage"/examples/quickstart/.env* "$stage"/examples/quickstart/dist \
    "$stage"/examples/quickstart/*.db "$stage"/examples/quickstart/*.db-*
fi
chmod 755 "$stage/svc" "$stage/install.sh"

archive="target/$name-$platform.tar.gz"
tar --sort=name --mtime=@1 --owner=0 --group=0 --numeric-owner -C target/release -cf - "$name" \
  | gzip -n -6 >"$archive"
(cd target && sha256sum "$(basename "$archive")" >"$(basename "$archive").sha256")
echo "release: $archive ($(du -h "$archive" | cut -f1)), sha256 in $archive.sha256"
