# Sourced by bin/stator, mvnw and .ci/run: points JAVA_HOME at a JDK >= 21.
# Looks at $JAVA_HOME, then the javac on PATH, then the JDKs under the directories
# in $STATOR_JVM_DIRS (space-separated; default /usr/lib/jvm), newest first.
# Prints one line and returns 1 when there is none.

stator_java_major() {
  # Prints the feature version of the java binary $1 (17, 21, 25, ...). The JDK's release file
  # says it without starting a JVM (which costs 0.1 to 1 s, paid at every start of the server);
  # a JDK without one is asked.
  local release="${1%/bin/java}/release" version
  if [ -r "$release" ]; then
    version=$(sed -n 's/^JAVA_VERSION="\([0-9.]*\).*/\1/p' "$release" | sed 's/^1\.//' | cut -d. -f1)
    if [ -n "$version" ]; then echo "$version"; return 0; fi
  fi
  "$1" -XshowSettings:properties -version 2>&1 \
    | sed -n 's/^ *java\.specification\.version = \([0-9.]*\).*/\1/p' | sed 's/^1\.//' | cut -d. -f1
}

stator_find_java_home() {
  local candidate major
  if [ -n "${JAVA_HOME:-}" ] && [ -x "$JAVA_HOME/bin/java" ] && [ -x "$JAVA_HOME/bin/javac" ]; then
    major=$(stator_java_major "$JAVA_HOME/bin/java")
    if [ "${major:-0}" -ge 21 ]; then echo "$JAVA_HOME"; return 0; fi
  fi
  if command -v javac >/dev/null 2>&1; then
    candidate=$(dirname "$(dirname "$(readlink -f "$(command -v javac)")")")
    if [ -x "$candidate/bin/java" ]; then
      major=$(stator_java_major "$candidate/bin/java")
      if [ "${major:-0}" -ge 21 ]; then echo "$candidate"; return 0; fi
    fi
  fi
  for candidate in $(for root in ${STATOR_JVM_DIRS:-/usr/lib/jvm}; do ls -d "$root"/*/ 2>/dev/null; done | sort -rV); do
    candidate=${candidate%/}
    [ -x "$candidate/bin/java" ] && [ -x "$candidate/bin/javac" ] || continue
    major=$(stator_java_major "$candidate/bin/java")
    if [ "${major:-0}" -ge 21 ]; then echo "$candidate"; return 0; fi
  done
  return 1
}

if STATOR_JAVA_HOME=$(stator_find_java_home); then
  export JAVA_HOME="$STATOR_JAVA_HOME"
  STATOR_JAVA_MAJOR=$(stator_java_major "$JAVA_HOME/bin/java")
  # JDK 24+ warn when a library uses sun.misc.Unsafe (Maven's Guice, Netty); allow it quietly.
  STATOR_JVM_COMPAT_OPTS=""
  if [ "${STATOR_JAVA_MAJOR:-0}" -ge 24 ]; then
    STATOR_JVM_COMPAT_OPTS="--sun-misc-unsafe-memory-access=allow"
  fi
else
  echo "stator: no JDK 21 or newer found (looked at JAVA_HOME, the javac on PATH and ${STATOR_JVM_DIRS:-/usr/lib/jvm}); install one or set JAVA_HOME" >&2
  return 1 2>/dev/null || exit 1
fi
