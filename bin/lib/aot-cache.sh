# Sourced by bin/stator after JAVA_HOME, JVM_OPTS, CLASSPATH and TARGET are set.

# Prints the JVM options that use the AOT cache $1, making it first when it is missing or older
# than the jars; prints nothing where there is no cache (JDK < 25, STATOR_AOT=off, or a training
# start that failed: the server then starts as it would without one).
stator_aot_options() {
  [ "${STATOR_JAVA_MAJOR:-0}" -ge 25 ] && [ "${STATOR_AOT:-on}" != off ] || return 0
  if [ ! -f "$1" ] || [ -n "$(find "$TARGET/stator-server.jar" "$TARGET/lib" -newer "$1" 2>/dev/null | head -n 1)" ]; then
    stator_aot_train "$1" >/dev/null 2>&1 || true
  fi
  # Quiet: a cache the JVM cannot use (other options in STATOR_JAVA_OPTS, say) is skipped, not reported.
  [ -f "$1" ] && echo "-XX:AOTCache=$1 -Xlog:aot=off -Xlog:cds=off"
  return 0
}

# The training run (AotTraining): a durable server started as bin/stator starts one, answering
# the requests a first client makes; the JVM writes the cache as it exits (to a name of its own,
# renamed whole, so that a start at the same moment never reads half of one).
stator_aot_train() {
  partial="$1.$$"
  dir=$(mktemp -d)
  "$JAVA_HOME/bin/java" $JVM_OPTS -XX:AOTCacheOutput="$partial" -Xlog:aot=off -Xlog:cds=off -cp "$CLASSPATH" \
    io.stator.server.cli.AotTraining "$dir/data" >"$dir/out" 2>&1 &
  pid=$!
  tries=0
  while kill -0 "$pid" 2>/dev/null; do
    tries=$((tries + 1))
    if [ "$tries" -gt 600 ]; then kill -KILL "$pid" 2>/dev/null || true; break; fi
    sleep 0.1
  done
  wait "$pid" 2>/dev/null || true
  rm -rf "$dir"
  [ -f "$partial" ] && mv -f "$partial" "$1"
  rm -f "$partial" "$partial.config"
}
