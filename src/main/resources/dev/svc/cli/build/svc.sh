#!/usr/bin/env bash
# Launcher of a project built by svc ${version}. Usage (from this directory):
#   ./svc serve            serve model.bin (flags: ./svc serve --help)
# Needs a JDK or JRE 25+: found in $SVC_JAVA_HOME, $JAVA_HOME, /usr/lib/jvm, /opt/java or PATH.
# JVM flags can be added with SVC_JAVA_OPTS.
set -euo pipefail
here="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")" && pwd)"

java_major() {
  if [ -r "$1/release" ]; then
    sed -n 's/^JAVA_VERSION="\([0-9]*\).*/\1/p' "$1/release"
  elif [ -x "$1/bin/java" ]; then
    "$1/bin/java" -version 2>&1 | sed -n 's/.*version "\([0-9]*\).*/\1/p' | head -1
  fi
}
java_home=""
candidates=()
[ -n "${SVC_JAVA_HOME:-}" ] && candidates+=("$SVC_JAVA_HOME")
[ -n "${JAVA_HOME:-}" ] && candidates+=("$JAVA_HOME")
for dir in /usr/lib/jvm/* /opt/java/* /opt/jdk* "$HOME"/.sdkman/candidates/java/*; do
  [ -d "$dir" ] && candidates+=("$dir")
done
if command -v java >/dev/null 2>&1; then
  candidates+=("$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")")
fi
for dir in "${candidates[@]}"; do
  major=$(java_major "$dir")
  if [ -n "$major" ] && [ "$major" -ge 25 ] 2>/dev/null && [ -x "$dir/bin/java" ]; then
    java_home="$dir"
    break
  fi
done
if [ -z "$java_home" ]; then
  echo "svc needs Java 25 or newer, and none was found (set JAVA_HOME to a JDK or JRE 25)." >&2
  exit 1
fi

launched=$(date +%s%3N 2>/dev/null || echo 0)
jvm=("-Dsvc.launched=$launched" -XX:+UseSerialGC -Xms64m -Xmx512m -XX:+ExitOnOutOfMemoryError
  -Dorg.eclipse.jetty.util.referencesPerCacheLine=16 -Djdk.console=java.base
  --enable-native-access=ALL-UNNAMED "-Dsvc.cwd=$(pwd)")
if [ -f "$here/lib/svc.aot" ]; then
  # the start-up cache made by `svc build`; a JVM that cannot use it starts without it
  jvm+=(-XX:AOTCache=lib/svc.aot -Xlog:aot=off -Xlog:cds=off)
else
  jvm+=(-Xshare:auto)
fi
if [ -f "$here/lib/native/libsqlitejdbc.so" ]; then
  jvm+=("-Dorg.sqlite.lib.path=$here/lib/native" -Dorg.sqlite.lib.name=libsqlitejdbc.so)
fi
# The class path is relative to this directory, so the start-up cache stays valid when the
# directory is moved; the user's directory travels as -Dsvc.cwd.
cd "$here"
# shellcheck disable=SC2086
exec "$java_home/bin/java" "${jvm[@]}" ${SVC_JAVA_OPTS:-} -jar lib/svc.jar "$@"
