package io.stator.storage.cassandra;

import static io.stator.storage.cassandra.CassandraCluster.CLUSTER_NAME;
import static io.stator.storage.cassandra.CassandraCluster.DATACENTER;
import static io.stator.storage.cassandra.CassandraCluster.JAVA_ENV;
import static io.stator.storage.cassandra.CassandraCluster.NATIVE_PORT;
import static io.stator.storage.cassandra.CassandraCluster.STORAGE_PORT;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.ResultSet;
import com.datastax.oss.driver.api.core.loadbalancing.NodeDistance;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * One node of a {@link CassandraCluster}: its directory and configuration, its JDK 17 process
 * (whose pid it writes to {@code pid} in its directory), and the waits for it to take CQL
 * requests.
 */
final class CassandraNode {
    final int index;
    final InetAddress address;
    final Path dir;
    final Path javaExe;
    final Path lib;
    final Path jamm;
    private Process process;

    /** The file in a node's directory that holds the pid of its process while it runs. */
    static final String PID_FILE = "pid";
    /** On a node's command line: marks the process as this harness's (ps, jps -v). */
    static final String MARK = "-Dstator.cassandra.node=";

    CassandraNode(int index, Path dir, Path java, Path lib, Path jamm) {
        this.index = index;
        this.address = address(index);
        this.dir = dir;
        this.javaExe = java;
        this.lib = lib;
        this.jamm = jamm;
    }

    /**
     * Node {@code index}'s address (0-based): 127.0.0.1 for node 0, 127.0.0.2 for node 1, ...;
     * 127.0.B.1, ... with {@link CassandraCluster#ADDRESS_BLOCK_PROPERTY} B.
     */
    static InetAddress address(int index) {
        int block = Integer.getInteger(CassandraCluster.ADDRESS_BLOCK_PROPERTY, 0);
        if (block < 0 || block > 255) {
            throw new IllegalArgumentException(CassandraCluster.ADDRESS_BLOCK_PROPERTY + " must be 0 to 255: " + block);
        }
        try {
            return InetAddress.getByAddress(new byte[] {127, 0, (byte) block, (byte) (index + 1)});
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    InetSocketAddress nativeAddress() {
        return new InetSocketAddress(address, NATIVE_PORT);
    }

    String host() {
        return address.getHostAddress();
    }

    Path yaml() {
        return dir.resolve("conf/cassandra.yaml");
    }

    Path logback() {
        return dir.resolve("conf/logback.xml");
    }

    Path systemLog() {
        return dir.resolve("logs/system.log");
    }

    Path out() {
        return dir.resolve("node.out");
    }

    void writeConfiguration() {
        try {
            for (String d : List.of("conf", "data", "commitlog", "saved_caches", "hints", "cdc_raw", "logs")) {
                Files.createDirectories(dir.resolve(d));
            }
            Files.writeString(yaml(), yamlText());
            Files.writeString(logback(), logbackText());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private String yamlText() {
        String d = dir.toAbsolutePath().toString();
        return """
                # Written by CassandraCluster (stator-storage-cassandra) for node %1$d.
                cluster_name: %2$s
                num_tokens: 16
                partitioner: org.apache.cassandra.dht.Murmur3Partitioner
                auto_bootstrap: false
                data_file_directories:
                  - %3$s/data
                commitlog_directory: %3$s/commitlog
                saved_caches_directory: %3$s/saved_caches
                hints_directory: %3$s/hints
                cdc_raw_directory: %3$s/cdc_raw
                listen_address: %4$s
                rpc_address: %4$s
                seed_provider:
                  - class_name: org.apache.cassandra.locator.SimpleSeedProvider
                    parameters:
                      - seeds: "%7$s:%5$d"
                storage_port: %5$d
                native_transport_port: %6$d
                start_native_transport: true
                endpoint_snitch: SimpleSnitch
                authenticator: AllowAllAuthenticator
                authorizer: AllowAllAuthorizer
                commitlog_sync: periodic
                commitlog_sync_period: 10000ms
                commitlog_segment_size: 8MiB
                memtable_heap_space: 32MiB
                memtable_offheap_space: 32MiB
                concurrent_compactors: 1
                # Paxos v2 (Cassandra 4.1+): a lightweight transaction in two round trips rather
                # than four, a SERIAL read in one or two; gc_grace purges Paxos state at compaction
                # (repaired would need the regular Paxos repairs this harness does not run).
                paxos_variant: v2
                paxos_state_purging: gc_grace
                """.formatted(index, CLUSTER_NAME, d, host(), STORAGE_PORT, NATIVE_PORT, address(0).getHostAddress());
    }

    private static String logbackText() {
        return """
                <configuration scan="false">
                  <!-- Written by CassandraCluster: the node logs to logs/system.log only. -->
                  <appender name="FILE" class="ch.qos.logback.core.FileAppender">
                    <file>${cassandra.logdir}/system.log</file>
                    <encoder>
                      <pattern>%-5level [%thread] %date{ISO8601} %F:%L - %msg%n</pattern>
                    </encoder>
                  </appender>
                  <root level="INFO">
                    <appender-ref ref="FILE"/>
                  </root>
                </configuration>
                """;
    }

    List<String> command() {
        List<String> cmd = new ArrayList<>();
        cmd.add(javaExe.toString());
        cmd.addAll(List.of("-Xms256m", "-Xmx512m", "-XX:+UseG1GC", "-XX:+ExitOnOutOfMemoryError",
                "-XX:TieredStopAtLevel=1", "-Xss256k"));
        // Cassandra's conf/jvm17-server.options: without these it cannot reach the JDK's internals.
        for (String p : List.of("java.base/jdk.internal.misc", "java.base/jdk.internal.ref", "java.base/sun.nio.ch",
                "java.base/java.lang.ref", "java.management.rmi/com.sun.jmx.remote.internal.rmi",
                "java.rmi/sun.rmi.registry", "java.rmi/sun.rmi.server", "java.sql/java.sql",
                "jdk.unsupported/sun.misc")) {
            cmd.add("--add-exports=" + p + "=ALL-UNNAMED");
        }
        for (String p : List.of("java.lang.module", "jdk.internal.loader", "jdk.internal.ref", "jdk.internal.reflect",
                "jdk.internal.math", "jdk.internal.module", "jdk.internal.util.jar", "sun.nio.ch", "java.io", "java.nio",
                "java.util", "java.util.concurrent", "java.util.concurrent.atomic", "java.lang", "java.math",
                "java.lang.reflect", "java.net")) {
            cmd.add("--add-opens=java.base/" + p + "=ALL-UNNAMED");
        }
        cmd.add("--add-opens=jdk.management/com.sun.management.internal=ALL-UNNAMED");
        cmd.addAll(List.of(
                "-Djdk.attach.allowAttachSelf=true",
                "-javaagent:" + jamm,
                "-Djava.net.preferIPv4Stack=true",
                "-Dio.netty.tryReflectionSetAccessible=true",
                "-Dcassandra.config=" + yaml().toUri(),
                "-Dcassandra-foreground=yes",
                "-Dcassandra.storagedir=" + dir,
                "-Dcassandra.logdir=" + dir.resolve("logs"),
                "-Dlogback.configurationFile=" + logback().toUri(),
                // Faster start in tests: no waiting for gossip to settle, a short ring delay.
                "-Dcassandra.skip_wait_for_gossip_to_settle=0",
                "-Dcassandra.ring_delay_ms=1000",
                // Marks the process as this harness's (ps, jps -v).
                MARK + index,
                "-cp", lib + "/*",
                "org.apache.cassandra.service.CassandraDaemon"));
        return cmd;
    }

    synchronized void launch() {
        for (int port : List.of(NATIVE_PORT, STORAGE_PORT)) {
            if (accepts(new InetSocketAddress(address, port), Duration.ofMillis(500))) {
                throw new IllegalStateException(host() + ":" + port + " is taken already (a node left over from"
                        + " an earlier run? look for java processes with -Dstator.cassandra.node)");
            }
        }
        try {
            Files.writeString(out(), "--- launch " + java.time.Instant.now() + "\n", StandardCharsets.UTF_8,
                    java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.APPEND);
            ProcessBuilder pb = new ProcessBuilder(command())
                    .directory(dir.toFile())
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(out().toFile()))
                    .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
            pb.environment().put("JAVA_HOME", javaExe.getParent().getParent().toString());
            process = pb.start();
            Files.writeString(dir.resolve(PID_FILE), process.pid() + "\n");
        } catch (IOException e) {
            throw new UncheckedIOException("could not launch node " + index, e);
        }
    }

    /** The pid of the node's process (its last one, if it has ended). */
    synchronized long pid() {
        if (process == null) {
            throw new IllegalStateException("node " + index + " was never launched");
        }
        return process.pid();
    }

    synchronized boolean isAlive() {
        return process != null && process.isAlive();
    }

    synchronized void kill() {
        Process p = process;
        if (p == null) {
            return;
        }
        p.descendants().forEach(ProcessHandle::destroyForcibly);
        p.destroyForcibly();
        try {
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException("node " + index + " (pid " + p.pid() + ") did not die");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Waits until the node's CQL port takes connections and answers a query through the driver. */
    void awaitServing(Duration timeout) {
        long began = System.nanoTime();
        long deadline = began + timeout.toNanos();
        Throwable last = null;
        while (true) {
            if (!isAlive()) {
                throw failure("exited with status " + process.exitValue() + " while starting", last);
            }
            if (accepts(nativeAddress(), Duration.ofSeconds(1))) {
                try (CqlSession probe = CqlSession.builder()
                        .addContactPoint(nativeAddress())
                        .withLocalDatacenter(DATACENTER)
                        .withNodeDistanceEvaluator((n, dc) -> nativeAddress().equals(n.getEndPoint().resolve())
                                ? null : NodeDistance.IGNORED)
                        .withConfigLoader(CassandraCluster.sessionConfig(List.of()))
                        .build()) {
                    ResultSet rs = probe.execute("SELECT release_version FROM system.local");
                    String version = rs.one().getString(0);
                    System.out.printf(Locale.ROOT, "CassandraCluster: node %d (%s, Cassandra %s) serving CQL"
                            + " %.1f s after launch%n", index, host(), version, (System.nanoTime() - began) / 1e9);
                    return;
                } catch (RuntimeException e) {
                    last = e;
                }
            }
            if (System.nanoTime() - deadline > 0) {
                kill();
                throw failure("did not take CQL requests within " + timeout.toSeconds() + " s", last);
            }
            CassandraCluster.sleep(CassandraCluster.POLL);
        }
    }

    IllegalStateException failure(String what, Throwable cause) {
        return new IllegalStateException("Cassandra node " + index + " (" + host() + ", " + dir + ") " + what
                + "\n--- tail of " + systemLog() + ":\n" + tail(systemLog(), 60)
                + "\n--- tail of " + out() + ":\n" + tail(out(), 30), cause);
    }

    // --- Helpers ---------------------------------------------------------------------------------


    /** The JDK 17 for the nodes: {@value CassandraCluster#JAVA_ENV}, else the first JDK 17 under /usr/lib/jvm. */
    static Path findJava17() {
        String given = System.getenv(JAVA_ENV);
        if (given != null && !given.isBlank()) {
            Path p = Paths.get(given);
            Path java = Files.isDirectory(p) ? p.resolve("bin/java") : p;
            if (!Files.isExecutable(java)) {
                throw new IllegalStateException(JAVA_ENV + "=" + given + ": no executable java there");
            }
            return java;
        }
        Path jvms = Paths.get("/usr/lib/jvm");
        if (Files.isDirectory(jvms)) {
            try (Stream<Path> dirs = Files.list(jvms)) {
                Optional<Path> found = dirs.sorted()
                        .filter(d -> Files.isExecutable(d.resolve("bin/java")))
                        .filter(d -> javaVersion(d).startsWith("17"))
                        .map(d -> d.resolve("bin/java"))
                        .findFirst();
                if (found.isPresent()) {
                    return found.get();
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        throw new IllegalStateException("Cassandra 5 needs a JDK 17 (it dies on newer ones): none under /usr/lib/jvm;"
                + " set " + JAVA_ENV + " to one");
    }

    private static String javaVersion(Path jdk) {
        try {
            for (String line : Files.readAllLines(jdk.resolve("release"))) {
                if (line.startsWith("JAVA_VERSION=")) {
                    return line.substring("JAVA_VERSION=".length()).replace("\"", "");
                }
            }
        } catch (IOException e) {
            // Not a JDK with a release file.
        }
        return "";
    }

    static Path findJamm(Path lib) {
        try (Stream<Path> jars = Files.list(lib)) {
            return jars.filter(p -> p.getFileName().toString().matches("jamm-.*\\.jar"))
                    .findFirst()
                    .orElseThrow(() -> new IllegalStateException("no jamm jar in " + lib));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static boolean accepts(SocketAddress address, Duration timeout) {
        try (Socket s = new Socket()) {
            s.connect(address, (int) timeout.toMillis());
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** The last {@code lines} lines of a file (read from its last 64 KiB). */
    static String tail(Path file, int lines) {
        if (!Files.exists(file)) {
            return "(none)";
        }
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "r")) {
            long len = f.length();
            long from = Math.max(0, len - 64 * 1024);
            byte[] buf = new byte[(int) (len - from)];
            f.seek(from);
            f.readFully(buf);
            List<String> all = new String(buf, StandardCharsets.UTF_8).lines().toList();
            return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
        } catch (IOException e) {
            return "(unreadable: " + e + ")";
        }
    }
}
