# Sourced by ./svc and ./run-tests: sets SVC_JAVA_HOME to a JDK >= 25 or explains what is missing.
# Order: $SVC_JAVA_HOME, $JAVA_HOME, /usr/lib/jvm/*, /opt/java/*, ~/.sdkman, the `java` on PATH.

svc_java_major() { # prints the major version of the JDK at $1
  local release="$1/release"
  if [ -r "$release" ]; then
    sed -n 's/^JAVA_VERSION="\([0-9]*\).*/\1/p' "$release"
  elif [ -x "$1/bin/java" ]; then
    "$1/bin/java" -version 2>&1 | sed -n 's/.*version "\([0-9]*\).*/\1/p' | head -1
  fi
}

svc_find_java() {
  local candidates=() dir major
  [ -n "${SVC_JAVA_HOME:-}" ] && candidates+=("$SVC_JAVA_HOME")
  [ -n "${JAVA_HOME:-}" ] && candidates+=("$JAVA_HOME")
  for dir in /usr/lib/jvm/* /opt/java/* /opt/jdk* "$HOME"/.sdkman/candidates/java/* /Library/Java/JavaVirtualMachines/*/Contents/Home; do
    [ -d "$dir" ] && candidates+=("$dir")
  done
  if command -v java >/dev/null 2>&1; then
    candidates+=("$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")")
  fi
  for dir in "${candidates[@]}"; do
    major=$(svc_java_major "$dir")
    if [ -n "$major" ] && [ "$major" -ge 25 ] 2>/dev/null && [ -x "$dir/bin/java" ] && [ -x "$dir/bin/javac" ]; then
      SVC_JAVA_HOME="$dir"
      export SVC_JAVA_HOME
      return 0
    fi
  done
  {
    echo "svc needs a JDK 25 or newer, and none was found."
    echo "  looked in: \$SVC_JAVA_HOME, \$JAVA_HOME, /usr/lib/jvm, /opt/java, ~/.sdkman and the java on PATH"
    echo "  install one (e.g. Temurin 25 from https://adoptium.net) and set JAVA_HOME to it"
  } >&2
  return 1
}
