#!/usr/bin/env bash
# Launcher of a project built by svc ${version}. Usage (from this directory):
#   ./svc serve            serve model.bin (flags: ./svc serve --help)
# Needs a JDK or JRE 25+: found in $SVC_JAVA_HOME, $JAVA_HOME, /usr/lib/jvm, /opt/java or PATH.
# JVM flags can be added with SVC_JAVA_OPTS.
# Start-up time counts: this script runs no other program on its usual path (bash built-ins only).
set -euo pipefail
launched=${EPOCHREALTIME:-}
launched=${launched/[.,]/}
launched=${launched:0:13}

self=${BASH_SOURCE[0]}
if [ -L "$self" ]; then
  self=$(readlink -f "$self")
fi
case "$self" in
  */*) here=$(cd "${self%/*}" && pwd) ;;
  *) here=$PWD ;;
esac

# usable_java DIR: true when DIR holds a java of version 25 or newer
usable_java() {
  local dir=$1 line major=""
  [ -x "$dir/bin/java" ] || return 1
  if [ -r "$dir/release" ]; then
    while IFS= read -r line; do
      case "$line" in
        JAVA_VERSION=*)
          line=${line#JAVA_VERSION=}
          line=${line#\"}
          major=${line%%[!0-9]*}
          break
          ;;
      esac
    done <"$dir/release"
  else
    major=$("$dir/bin/java" -version 2>&1 | sed -n 's/.*version "\([0-9]*\).*/\1/p' | head -1)
  fi
  [ -n "$major" ] && [ "$major" -ge 25 ] 2>/dev/null
}
java_home=""
for dir in "${SVC_JAVA_HOME:-}" "${JAVA_HOME:-}" /usr/lib/jvm/* /opt/java/* /opt/jdk* \
  "$HOME"/.sdkman/candidates/java/*; do
  if [ -n "$dir" ] && [ -d "$dir" ] && usable_java "$dir"; then
    java_home=$dir
    break
  fi
done
if [ -z "$java_home" ] && command -v java >/dev/null 2>&1; then
  dir=$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")
  if usable_java "$dir"; then
    java_home=$dir
  fi
fi
if [ -z "$java_home" ]; then
  echo "svc needs Java 25 or newer, and none was found (set JAVA_HOME to a JDK or JRE 25)." >&2
  exit 1
fi

# -Djava.locale.providers=HOST: svc formats nothing by locale, and the default provider's list
# of ~1100 locales, which Jetty and Jackson enumerate in static initialisers, costs ~100 ms of
# CPU at start (docs/serving.md, "Start-up"). The heap: 512 MiB (half of MaxRAM), the flags of
# the start-up cache's training run; -Xmx in SVC_JAVA_OPTS or JAVA_TOOL_OPTIONS changes it.
jvm=(-XX:+UseSerialGC -Xms32m -Xmn16m -XX:MaxRAM=1g -XX:MaxRAMPercentage=50
  -XX:+ExitOnOutOfMemoryError -XX:TrimNativeHeapInterval=1000 -XX:CompileCommand=quiet
  '-XX:CompileCommand=MemLimit,*.*,12M' -XX:Tier4InvocationThreshold=15000
  -XX:Tier4MinInvocationThreshold=1800 -XX:Tier4CompileThreshold=45000
  -XX:Tier4BackEdgeThreshold=120000 -XX:-UsePerfData
  -Dorg.eclipse.jetty.util.referencesPerCacheLine=16 -Djdk.console=java.base
  -Djava.locale.providers=HOST --enable-native-access=ALL-UNNAMED "-Dsvc.cwd=$PWD")
if [ -n "$launched" ]; then
  jvm+=("-Dsvc.launched=$launched")
fi
if [ -f "$here/lib/svc.aot" ]; then
  # the start-up cache made by `svc build`; a JVM that cannot use it starts without it
  jvm+=(-XX:AOTCache=lib/svc.aot -Xlog:aot=off -Xlog:cds=off)
else
  jvm+=(-Xshare:auto)
fi
if [ -f "$here/lib/native/libsqlitejdbc.so" ]; then
  jvm+=("-Dorg.sqlite.lib.path=$here/lib/native" -Dorg.sqlite.lib.name=libsqlitejdbc.so)
fi
# two malloc arenas instead of up to 8 per core: the native heap of a serving process is mostly
# the JIT's and V8's, and more arenas only hold more freed memory (docs/serving.md, "Memory")
export MALLOC_ARENA_MAX=${MALLOC_ARENA_MAX:-2}
# The class path is relative to this directory, so the start-up cache stays valid when the
# directory is moved; the user's directory travels as -Dsvc.cwd.
cd "$here"
# shellcheck disable=SC2086
exec "$java_home/bin/java" "${jvm[@]}" ${SVC_JAVA_OPTS:-} -jar lib/svc.jar "$@"
