package io.stator.storage.cassandra;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A {@link CassandraCluster} that outlives the command that starts it, for bin/stator-cluster:
 *
 * <pre>
 * start  --dir DIR [--nodes N]   starts N nodes (3 by default) in DIR/node1, DIR/node2, ... and leaves them running
 * stop   --dir DIR               stops them (SIGTERM, so that each drains; SIGKILL after a minute)
 * status --dir DIR               says which run and take CQL connections
 * </pre>
 *
 * Each node's pid is in its directory's {@code pid} file; a pid counts as the node's only while
 * its process is one of this harness's nodes of that directory (its command line says so), so a
 * pid reused by another process is never signalled. A second start on the same directory starts
 * the nodes on their data. Exit status: 0 when done (for status: every node runs and takes CQL
 * connections), 1 when not, 2 for a command line it does not understand, 3 from status when not
 * every node runs.
 */
public final class CassandraClusterLauncher {

    private static final String USAGE = "usage: cassandra-cluster start|stop|status --dir DIR [--nodes N]";
    private static final Duration DRAIN = Duration.ofSeconds(60);

    private CassandraClusterLauncher() {}

    public static void main(String[] args) {
        // The driver's probes while a node starts fail and retry by design; its warnings would be noise.
        if (System.getProperty("org.slf4j.simpleLogger.defaultLogLevel") == null) {
            System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "error");
        }
        System.exit(run(args, System.out, System.err));
    }

    static int run(String[] args, PrintStream out, PrintStream err) {
        String command = args.length > 0 ? args[0] : "";
        Path dir = null;
        int nodes = 3;
        for (int i = 1; i < args.length; i++) {
            String value = i + 1 < args.length ? args[i + 1] : null;
            switch (args[i]) {
                case "--dir" -> dir = value == null ? null : Path.of(value).toAbsolutePath().normalize();
                case "--nodes" -> nodes = value != null && value.matches("[0-9]{1,3}") ? Integer.parseInt(value) : -1;
                default -> {
                    err.println("cassandra-cluster: unknown option " + args[i] + "\n" + USAGE);
                    return 2;
                }
            }
            i++;
        }
        if (dir == null || nodes < 1 || nodes > 254) {
            err.println(USAGE);
            return 2;
        }
        try {
            return switch (command) {
                case "start" -> start(dir, nodes, out, err);
                case "stop" -> stop(dir, out);
                case "status" -> status(dir, out);
                default -> {
                    err.println(USAGE);
                    yield 2;
                }
            };
        } catch (RuntimeException e) {
            err.println("cassandra-cluster: " + e.getMessage());
            return 1;
        }
    }

    private static int start(Path dir, int nodes, PrintStream out, PrintStream err) {
        for (Path nodeDir : nodeDirectories(dir)) {
            Optional<ProcessHandle> running = process(nodeDir);
            if (running.isPresent()) {
                err.println("cassandra-cluster: " + nodeDir.getFileName() + " runs already (pid " + running.get().pid()
                        + "); bin/stator-cluster stop --dir " + dir + " first");
                return 1;
            }
        }
        CassandraCluster cluster = CassandraCluster.start(dir, nodes);
        List<String> addresses = new ArrayList<>();
        for (int i = 0; i < nodes; i++) {
            InetSocketAddress a = cluster.nativeAddress(i);
            addresses.add(a.getAddress().getHostAddress() + ":" + a.getPort());
        }
        cluster.detach();
        out.println("cassandra-cluster: " + nodes + " nodes running, CQL on " + String.join(",", addresses));
        return 0;
    }

    private static int stop(Path dir, PrintStream out) {
        List<Path> stopping = new ArrayList<>();
        for (Path nodeDir : nodeDirectories(dir)) {
            process(nodeDir).ifPresent(p -> {
                p.destroy();
                stopping.add(nodeDir);
            });
        }
        for (Path nodeDir : stopping) {
            process(nodeDir).ifPresent(p -> {
                if (!awaitExit(p, DRAIN)) {
                    p.destroyForcibly();
                    if (!awaitExit(p, Duration.ofSeconds(30))) {
                        throw new IllegalStateException(nodeDir.getFileName() + " (pid " + p.pid() + ") did not die");
                    }
                }
            });
            out.println("cassandra-cluster: stopped " + nodeDir.getFileName());
        }
        for (Path nodeDir : nodeDirectories(dir)) {
            deletePidFile(nodeDir);
        }
        if (stopping.isEmpty()) out.println("cassandra-cluster: no node runs in " + dir);
        return 0;
    }

    private static int status(Path dir, PrintStream out) {
        List<Path> nodeDirs = nodeDirectories(dir);
        if (nodeDirs.isEmpty()) {
            out.println("cassandra-cluster: no node in " + dir);
            return 3;
        }
        boolean allRunning = true;
        boolean allServing = true;
        for (Path nodeDir : nodeDirs) {
            InetSocketAddress cql = new InetSocketAddress(
                    CassandraNode.address(number(nodeDir) - 1), CassandraCluster.NATIVE_PORT);
            String name = nodeDir.getFileName() + " (" + cql.getAddress().getHostAddress() + ":" + cql.getPort() + ")";
            Optional<ProcessHandle> p = process(nodeDir);
            if (p.isEmpty()) {
                out.println("cassandra-cluster: " + name + " is not running");
                allRunning = false;
            } else if (CassandraNode.accepts(cql, Duration.ofSeconds(1))) {
                out.println("cassandra-cluster: " + name + " runs (pid " + p.get().pid() + ") and takes CQL connections");
            } else {
                out.println("cassandra-cluster: " + name + " runs (pid " + p.get().pid() + ") but takes no CQL connection");
                allServing = false;
            }
        }
        return !allRunning ? 3 : allServing ? 0 : 1;
    }

    /** DIR/node1, DIR/node2, ...: the directories of the nodes started there, in their order. */
    private static List<Path> nodeDirectories(Path dir) {
        if (!Files.isDirectory(dir)) return List.of();
        try (Stream<Path> entries = Files.list(dir)) {
            return entries.filter(p -> Files.isDirectory(p) && p.getFileName().toString().matches("node[0-9]{1,3}"))
                    .sorted((a, b) -> Integer.compare(number(a), number(b)))
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static int number(Path nodeDir) {
        return Integer.parseInt(nodeDir.getFileName().toString().substring("node".length()));
    }

    /** The node's running process: its pid file's, if that process is this harness's node of that directory. */
    private static Optional<ProcessHandle> process(Path nodeDir) {
        Path pidFile = nodeDir.resolve(CassandraNode.PID_FILE);
        long pid;
        try {
            if (!Files.isRegularFile(pidFile)) return Optional.empty();
            pid = Long.parseLong(Files.readString(pidFile).trim());
        } catch (IOException | NumberFormatException e) {
            return Optional.empty();
        }
        return ProcessHandle.of(pid).filter(ProcessHandle::isAlive).filter(p -> isNodeOf(p, nodeDir));
    }

    private static boolean isNodeOf(ProcessHandle p, Path nodeDir) {
        List<String> arguments = p.info().arguments().map(List::of).orElse(List.of());
        return arguments.stream().anyMatch(a -> a.startsWith(CassandraNode.MARK))
                && arguments.contains("-Dcassandra.storagedir=" + nodeDir);
    }

    private static boolean awaitExit(ProcessHandle p, Duration timeout) {
        try {
            p.onExit().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            return true;
        } catch (java.util.concurrent.TimeoutException e) {
            return false;
        } catch (java.util.concurrent.ExecutionException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    private static void deletePidFile(Path nodeDir) {
        try {
            Files.deleteIfExists(nodeDir.resolve(CassandraNode.PID_FILE));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
