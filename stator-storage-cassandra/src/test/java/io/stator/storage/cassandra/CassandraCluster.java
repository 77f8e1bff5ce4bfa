package io.stator.storage.cassandra;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.config.DriverConfigLoader;
import com.datastax.oss.driver.api.core.cql.ResultSet;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.loadbalancing.NodeDistance;
import com.datastax.oss.driver.api.core.metadata.NodeState;
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
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A real Apache Cassandra 5 cluster for tests: N nodes (3 by default) on 127.0.0.1, 127.0.0.2, ...,
 * each a JDK 17 process of its own, started one after another from the server's jars that the
 * build puts in {@code target/cassandra-server-lib/}. Each node has a directory of its own under
 * one temporary directory: its {@code cassandra.yaml} and {@code logback.xml}, its data, commit
 * log, hints and saved caches, its log ({@code logs/system.log}) and its standard output and error
 * ({@code node.out}). Every node listens on the same ports (CQL 9042, storage 7000) on its own
 * loopback address; node 0 is the seed.
 *
 * <p>With the environment variable {@value #CONTACT_POINTS_ENV} set ({@code host[:port],...}),
 * nothing is started: the cluster there is used as it is ({@link #managed()} is false and
 * {@link #killNode}/{@link #startNode} are refused).
 *
 * <p>Tests share one cluster per JVM through {@link CassandraClusterExtension}. See
 * docs/cassandra.md, "Running a Cassandra cluster for tests".
 */
public final class CassandraCluster implements AutoCloseable {

    /** Use this existing cluster ({@code host[:port],host[:port],...}) instead of starting one. */
    public static final String CONTACT_POINTS_ENV = "STATOR_CASSANDRA_CONTACT_POINTS";
    /** The JDK 17 to run nodes with: its home directory or its {@code bin/java}. */
    public static final String JAVA_ENV = "STATOR_CASSANDRA_JAVA";
    /** The driver's local datacenter for an existing cluster; {@value #DATACENTER} otherwise. */
    public static final String LOCAL_DC_ENV = "STATOR_CASSANDRA_LOCAL_DC";
    /** System property: the directory of the server's jars (set by the build). */
    public static final String SERVER_LIB_PROPERTY = "stator.cassandra.serverLib";
    /** System property: where the cluster's temporary directory goes (default: java.io.tmpdir). */
    public static final String WORK_DIR_PROPERTY = "stator.cassandra.workDir";
    /** System property: true keeps the nodes' directories (data and logs) after close. */
    public static final String KEEP_PROPERTY = "stator.cassandra.keep";
    /** System property: the number of nodes of the shared cluster (default 3). */
    public static final String NODES_PROPERTY = "stator.cassandra.nodes";

    public static final int NATIVE_PORT = 9042;
    public static final int STORAGE_PORT = 7000;
    /** SimpleSnitch's one datacenter. */
    public static final String DATACENTER = "datacenter1";
    public static final String CLUSTER_NAME = "stator-test";

    /** System property: seconds a node gets from its launch to taking CQL requests (default 120). */
    public static final String START_TIMEOUT_PROPERTY = "stator.cassandra.startTimeoutSeconds";

    /**
     * How long a node gets from its launch to taking CQL requests: about 7 s on a quiet 2-core
     * machine, 50 s measured with other builds running on it.
     */
    static final Duration START_TIMEOUT = Duration.ofSeconds(Long.getLong(START_TIMEOUT_PROPERTY, 120));
    /** How long a (re)started node gets to be seen up by the others. */
    static final Duration UP_TIMEOUT = Duration.ofSeconds(90);
    /** The request timeout of the sessions handed out: on 2 cores a settling cluster pauses for seconds. */
    static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(10);
    private static final Duration POLL = Duration.ofMillis(250);

    private final List<Node> nodes;
    private final List<InetSocketAddress> contactPoints;
    private final String localDatacenter;
    private final Path baseDir;
    private final Thread shutdownHook;
    private CqlSession session;
    private boolean closed;

    private CassandraCluster(List<Node> nodes, List<InetSocketAddress> contactPoints,
            String localDatacenter, Path baseDir) {
        this.nodes = nodes;
        this.contactPoints = List.copyOf(contactPoints);
        this.localDatacenter = localDatacenter;
        this.baseDir = baseDir;
        this.shutdownHook = baseDir == null ? null : new Thread(this::killAll, "cassandra-cluster-shutdown");
        if (shutdownHook != null) {
            Runtime.getRuntime().addShutdownHook(shutdownHook);
        }
    }

    /**
     * The cluster of {@value #CONTACT_POINTS_ENV} when it is set, else a new one of
     * {@value #NODES_PROPERTY} nodes (3 by default).
     */
    public static CassandraCluster fromEnvironmentOrStart() {
        String given = System.getenv(CONTACT_POINTS_ENV);
        if (given != null && !given.isBlank()) {
            return existing(parseContactPoints(given),
                    Optional.ofNullable(System.getenv(LOCAL_DC_ENV)).filter(s -> !s.isBlank()).orElse(DATACENTER));
        }
        return start(Integer.getInteger(NODES_PROPERTY, 3));
    }

    /** An existing cluster, reached through these contact points; nothing is started or stopped. */
    public static CassandraCluster existing(List<InetSocketAddress> contactPoints, String localDatacenter) {
        return new CassandraCluster(List.of(), contactPoints, localDatacenter, null);
    }

    /** Starts a cluster of {@code nodeCount} nodes, one after another, each taking CQL requests on return. */
    public static CassandraCluster start(int nodeCount) {
        if (nodeCount < 1 || nodeCount > 254) {
            throw new IllegalArgumentException("nodes: " + nodeCount);
        }
        Path java = findJava17();
        Path lib = serverLib();
        Path jamm = findJamm(lib);
        Path baseDir;
        try {
            String workDir = System.getProperty(WORK_DIR_PROPERTY);
            if (workDir != null) {
                Files.createDirectories(Paths.get(workDir));
                baseDir = Files.createTempDirectory(Paths.get(workDir), "cassandra-cluster-");
            } else {
                baseDir = Files.createTempDirectory("stator-cassandra-cluster-");
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<Node> nodes = new ArrayList<>();
        for (int i = 0; i < nodeCount; i++) {
            nodes.add(new Node(i, baseDir.resolve("node" + (i + 1)), java, lib, jamm));
        }
        List<InetSocketAddress> contactPoints = nodes.stream().map(Node::nativeAddress).toList();
        CassandraCluster cluster = new CassandraCluster(nodes, contactPoints, DATACENTER, baseDir);
        try {
            long began = System.nanoTime();
            for (Node node : nodes) {
                node.writeConfiguration();
                node.launch();
                node.awaitServing(START_TIMEOUT);
            }
            cluster.awaitAllSeenUp(UP_TIMEOUT);
            System.out.printf(Locale.ROOT, "CassandraCluster: %d nodes up in %.1f s (%s)%n",
                    nodeCount, (System.nanoTime() - began) / 1e9, baseDir);
            return cluster;
        } catch (RuntimeException | Error e) {
            try {
                cluster.close();
            } catch (RuntimeException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
    }

    /** True when this harness started the nodes (and so can kill and restart them). */
    public boolean managed() {
        return baseDir != null;
    }

    /** The number of nodes this harness started (0 for an existing cluster). */
    public int size() {
        return nodes.size();
    }

    /** The nodes' CQL addresses. */
    public List<InetSocketAddress> contactPoints() {
        return contactPoints;
    }

    public String localDatacenter() {
        return localDatacenter;
    }

    /** Node {@code i}'s CQL address (0-based: node 0 is 127.0.0.1). */
    public InetSocketAddress nativeAddress(int i) {
        return requireManaged(i).nativeAddress();
    }

    /** Node {@code i}'s directory (its yaml, data, logs). */
    public Path nodeDirectory(int i) {
        return requireManaged(i).dir;
    }

    public boolean isRunning(int i) {
        return requireManaged(i).isAlive();
    }

    /** The shared session (request timeout {@link #REQUEST_TIMEOUT}); closed with the cluster. */
    public synchronized CqlSession session() {
        if (closed) {
            throw new IllegalStateException("closed");
        }
        if (session == null || session.isClosed()) {
            session = newSession();
        }
        return session;
    }

    /** A session of the caller's own, to close itself: all nodes, request timeout {@link #REQUEST_TIMEOUT}. */
    public CqlSession newSession() {
        return CqlSession.builder()
                .addContactPoints(contactPoints)
                .withLocalDatacenter(localDatacenter)
                .withConfigLoader(sessionConfig(null))
                .build();
    }

    /** Kills node {@code i} at once (SIGKILL: no drain, no flush) and waits for its process to end. */
    public void killNode(int i) {
        Node node = requireManaged(i);
        node.kill();
        CqlSession shared;
        synchronized (this) {
            shared = session;
        }
        if (shared != null && !shared.isClosed()) {
            // So that the next request is not sent down a connection the driver has not seen die.
            awaitDriverSees(shared, node, false, System.nanoTime() + Duration.ofSeconds(30).toNanos());
        }
    }

    /**
     * Starts node {@code i} again on its existing data, and waits until it takes CQL requests and
     * the other running nodes (and the shared session, if any) see it up.
     */
    public void startNode(int i) {
        Node node = requireManaged(i);
        if (node.isAlive()) {
            throw new IllegalStateException("node " + i + " is running");
        }
        node.launch();
        node.awaitServing(START_TIMEOUT);
        awaitAllSeenUp(UP_TIMEOUT);
    }

    /**
     * Waits until every running node sees every other running node up, and the shared session (if
     * there is one) has connections to each. A node sees another up when a CL ONE read it
     * coordinates of a partition that only the other holds (in the harness's own keyspace
     * {@value #PROBE_KEYSPACE}, replication factor 1) answers: it is refused at once (unavailable)
     * while the coordinator takes the replica for down.
     */
    public void awaitAllSeenUp(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        List<Node> running = nodes.stream().filter(Node::isAlive).toList();
        if (running.size() > 1) {
            CqlSession admin = admin(deadline);
            ensureProbeKeyspace(admin);
            for (Node observer : running) {
                for (Node observed : running) {
                    if (observer != observed) {
                        awaitSeenUp(admin, observer, observed, deadline);
                    }
                }
            }
        }
        CqlSession shared;
        synchronized (this) {
            shared = session;
        }
        if (shared != null && !shared.isClosed()) {
            for (Node observed : running) {
                awaitDriverSees(shared, observed, true, deadline);
            }
        }
    }

    /** Stops every node and, unless {@value #KEEP_PROPERTY} is true, deletes their directories. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        for (CqlSession s : new CqlSession[] {session, admin}) {
            if (s != null) {
                s.close();
            }
        }
        if (!managed()) {
            return;
        }
        killAll();
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException shuttingDown) {
            // The hook runs (or ran) anyway.
        }
        if (Boolean.getBoolean(KEEP_PROPERTY)) {
            System.out.println("CassandraCluster: kept " + baseDir);
        } else {
            deleteRecursively(baseDir);
        }
    }

    private void killAll() {
        for (Node node : nodes) {
            node.kill();
        }
    }

    private Node requireManaged(int i) {
        if (!managed()) {
            throw new UnsupportedOperationException(
                    "an existing cluster (" + CONTACT_POINTS_ENV + "): its nodes are not this harness's");
        }
        return nodes.get(i);
    }

    // --- Seeing nodes up -------------------------------------------------------------------------

    /** The harness's own keyspace: replication factor 1, so each partition has one node. */
    static final String PROBE_KEYSPACE = "stator_harness";

    /** The harness's session: all nodes, token map of {@value #PROBE_KEYSPACE} only. */
    private CqlSession admin;
    private boolean probeKeyspaceReady;
    private final java.util.Map<Integer, Integer> probeKeys = new java.util.HashMap<>();

    private synchronized CqlSession admin(long deadline) {
        if (admin == null || admin.isClosed()) {
            RuntimeException last = null;
            while (admin == null) {
                try {
                    // One contact point: the driver learns the others (and their datacenter) from
                    // it, where a node just started may not be in every peer's tables yet.
                    admin = CqlSession.builder()
                            .addContactPoints(nodes.stream().filter(Node::isAlive).map(Node::nativeAddress)
                                    .limit(1).toList())
                            .withLocalDatacenter(localDatacenter)
                            .withConfigLoader(sessionConfig(List.of(PROBE_KEYSPACE)))
                            .build();
                } catch (RuntimeException e) {
                    last = e;
                    RuntimeException cause = last;
                    sleepUntilNextPoll(deadline, () -> new IllegalStateException("no CQL session", cause));
                }
            }
        }
        return admin;
    }

    private synchronized void ensureProbeKeyspace(CqlSession admin) {
        if (probeKeyspaceReady) {
            return;
        }
        admin.execute(SimpleStatement.newInstance("CREATE KEYSPACE IF NOT EXISTS " + PROBE_KEYSPACE
                        + " WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}")
                .setTimeout(Duration.ofSeconds(30)));
        admin.execute(SimpleStatement.newInstance("CREATE TABLE IF NOT EXISTS " + PROBE_KEYSPACE
                + ".probe (k int PRIMARY KEY)").setTimeout(Duration.ofSeconds(30)));
        probeKeyspaceReady = true;
    }

    /** A key of {@value #PROBE_KEYSPACE}.probe whose one replica is this node. */
    private synchronized int probeKey(CqlSession admin, Node node, long deadline) {
        Integer known = probeKeys.get(node.index);
        if (known != null) {
            return known;
        }
        com.datastax.oss.driver.api.core.CqlIdentifier keyspace =
                com.datastax.oss.driver.api.core.CqlIdentifier.fromCql(PROBE_KEYSPACE);
        var protocolVersion = admin.getContext().getProtocolVersion();
        while (true) {
            var tokenMap = admin.getMetadata().getTokenMap();
            if (tokenMap.isPresent()) {
                for (int k = 0; k < 100_000; k++) {
                    var replicas = tokenMap.get().getReplicas(keyspace,
                            com.datastax.oss.driver.api.core.type.codec.TypeCodecs.INT.encode(k, protocolVersion));
                    if (replicas.size() == 1
                            && node.nativeAddress().equals(replicas.iterator().next().getEndPoint().resolve())) {
                        probeKeys.put(node.index, k);
                        return k;
                    }
                    if (replicas.isEmpty()) {
                        break; // The keyspace is not in the driver's metadata yet.
                    }
                }
            }
            sleepUntilNextPoll(deadline, () -> new IllegalStateException(
                    "no key of " + PROBE_KEYSPACE + " found on node " + node.index));
        }
    }

    private void awaitSeenUp(CqlSession admin, Node observer, Node observed, long deadline) {
        int key = probeKey(admin, observed, deadline);
        Throwable last = null;
        while (true) {
            var coordinator = driverNode(admin, observer);
            if (coordinator != null) {
                try {
                    admin.execute(SimpleStatement.newInstance(
                                    "SELECT k FROM " + PROBE_KEYSPACE + ".probe WHERE k = ?", key)
                            .setConsistencyLevel(com.datastax.oss.driver.api.core.DefaultConsistencyLevel.ONE)
                            .setNode(coordinator)
                            .setTimeout(Duration.ofSeconds(5)));
                    return;
                } catch (RuntimeException e) {
                    last = e;
                }
            }
            for (Node n : List.of(observer, observed)) {
                if (!n.isAlive()) {
                    throw n.failure("died while node " + observed.index + " was to be seen up by node "
                            + observer.index, last);
                }
            }
            if (System.nanoTime() - deadline > 0) {
                throw new IllegalStateException("node " + observer.index + " did not see node " + observed.index
                        + " up in time", last);
            }
            sleep(POLL);
        }
    }

    private static void awaitDriverSees(CqlSession session, Node observed, boolean up, long deadline) {
        while (true) {
            var n = driverNode(session, observed);
            boolean isUp = n != null && n.getState() == NodeState.UP && n.getOpenConnections() > 0;
            boolean isDown = n == null || n.getOpenConnections() == 0;
            if (up ? isUp : isDown) {
                return;
            }
            sleepUntilNextPoll(deadline, () -> new IllegalStateException(
                    "the shared session did not see node " + observed.index + (up ? " up" : " down") + " in time"));
        }
    }

    private static com.datastax.oss.driver.api.core.metadata.Node driverNode(CqlSession session, Node node) {
        for (com.datastax.oss.driver.api.core.metadata.Node n : session.getMetadata().getNodes().values()) {
            if (node.nativeAddress().equals(n.getEndPoint().resolve())) {
                return n;
            }
        }
        return null;
    }

    // --- Driver configuration --------------------------------------------------------------------

    /**
     * The sessions' configuration; {@code schemaKeyspaces} null for all the schema metadata, empty
     * for none (and no token map).
     */
    private static DriverConfigLoader sessionConfig(List<String> schemaKeyspaces) {
        boolean schemaMetadata = schemaKeyspaces == null || !schemaKeyspaces.isEmpty();
        var config = DriverConfigLoader.programmaticBuilder();
        if (schemaKeyspaces != null && !schemaKeyspaces.isEmpty()) {
            config.withStringList(DefaultDriverOption.METADATA_SCHEMA_REFRESHED_KEYSPACES, schemaKeyspaces);
        }
        return config
                // Protocol v5 fails here: under lightweight-transaction contention the driver
                // (4.19) could not decode an error frame from Cassandra 5.0.9 (IndexOutOfBounds
                // in the frame decoder) and closed the connection; v4 reports the same contention
                // as a CAS write timeout.
                .withString(DefaultDriverOption.PROTOCOL_VERSION, "V4")
                .withDuration(DefaultDriverOption.REQUEST_TIMEOUT, REQUEST_TIMEOUT)
                .withDuration(DefaultDriverOption.CONNECTION_CONNECT_TIMEOUT, Duration.ofSeconds(10))
                .withDuration(DefaultDriverOption.CONNECTION_INIT_QUERY_TIMEOUT, Duration.ofSeconds(10))
                .withDuration(DefaultDriverOption.CONNECTION_SET_KEYSPACE_TIMEOUT, Duration.ofSeconds(10))
                .withDuration(DefaultDriverOption.CONTROL_CONNECTION_TIMEOUT, Duration.ofSeconds(10))
                .withDuration(DefaultDriverOption.CONTROL_CONNECTION_AGREEMENT_TIMEOUT, Duration.ofSeconds(30))
                .withDuration(DefaultDriverOption.METADATA_SCHEMA_REQUEST_TIMEOUT, Duration.ofSeconds(10))
                // A restarted node is back in the pools within about a second.
                .withDuration(DefaultDriverOption.RECONNECTION_BASE_DELAY, Duration.ofMillis(500))
                .withDuration(DefaultDriverOption.RECONNECTION_MAX_DELAY, Duration.ofSeconds(2))
                .withBoolean(DefaultDriverOption.METADATA_SCHEMA_ENABLED, schemaMetadata)
                .withBoolean(DefaultDriverOption.METADATA_TOKEN_MAP_ENABLED, schemaMetadata)
                .build();
    }

    // --- One node --------------------------------------------------------------------------------

    private static final class Node {
        final int index;
        final InetAddress address;
        final Path dir;
        final Path javaExe;
        final Path lib;
        final Path jamm;
        private Process process;

        Node(int index, Path dir, Path java, Path lib, Path jamm) {
            this.index = index;
            try {
                this.address = InetAddress.getByAddress(new byte[] {127, 0, 0, (byte) (index + 1)});
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            this.dir = dir;
            this.javaExe = java;
            this.lib = lib;
            this.jamm = jamm;
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
                    # Written by CassandraCluster (stator-storage-cassandra's tests) for node %1$d.
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
                          - seeds: "127.0.0.1:%5$d"
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
                    """.formatted(index, CLUSTER_NAME, d, host(), STORAGE_PORT, NATIVE_PORT);
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
                    "-Dstator.cassandra.node=" + index,
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
            } catch (IOException e) {
                throw new UncheckedIOException("could not launch node " + index, e);
            }
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
                            .withConfigLoader(sessionConfig(List.of()))
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
                sleep(POLL);
            }
        }

        IllegalStateException failure(String what, Throwable cause) {
            return new IllegalStateException("Cassandra node " + index + " (" + host() + ", " + dir + ") " + what
                    + "\n--- tail of " + systemLog() + ":\n" + tail(systemLog(), 60)
                    + "\n--- tail of " + out() + ":\n" + tail(out(), 30), cause);
        }
    }

    // --- Helpers ---------------------------------------------------------------------------------

    /** The JDK 17 for the nodes: {@value #JAVA_ENV}, else the first JDK 17 under /usr/lib/jvm. */
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

    static Path serverLib() {
        String lib = System.getProperty(SERVER_LIB_PROPERTY);
        Path dir = lib != null ? Paths.get(lib) : Paths.get("target/cassandra-server-lib");
        if (!Files.isDirectory(dir)) {
            throw new IllegalStateException("no Cassandra server jars in " + dir.toAbsolutePath()
                    + " (the build puts them there: ./mvnw -pl stator-storage-cassandra -am test-compile)");
        }
        return dir.toAbsolutePath();
    }

    private static Path findJamm(Path lib) {
        try (Stream<Path> jars = Files.list(lib)) {
            return jars.filter(p -> p.getFileName().toString().matches("jamm-.*\\.jar"))
                    .findFirst()
                    .orElseThrow(() -> new IllegalStateException("no jamm jar in " + lib));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static List<InetSocketAddress> parseContactPoints(String given) {
        List<InetSocketAddress> points = new ArrayList<>();
        for (String part : given.split(",")) {
            String s = part.trim();
            if (s.isEmpty()) {
                continue;
            }
            int colon = s.lastIndexOf(':');
            if (colon > 0 && s.indexOf(':') == colon) {
                points.add(new InetSocketAddress(s.substring(0, colon), Integer.parseInt(s.substring(colon + 1))));
            } else {
                points.add(new InetSocketAddress(s, NATIVE_PORT));
            }
        }
        if (points.isEmpty()) {
            throw new IllegalArgumentException(CONTACT_POINTS_ENV + ": no contact point in '" + given + "'");
        }
        return points;
    }

    private static boolean accepts(SocketAddress address, Duration timeout) {
        try (Socket s = new Socket()) {
            s.connect(address, (int) timeout.toMillis());
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static void sleepUntilNextPoll(long deadline, java.util.function.Supplier<IllegalStateException> timeout) {
        if (System.nanoTime() - deadline > 0) {
            throw timeout.get();
        }
        sleep(POLL);
    }

    private static void sleep(Duration d) {
        try {
            Thread.sleep(d.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
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

    private static void deleteRecursively(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            walk.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException e) {
                    // Best effort: a temporary directory.
                }
            });
        } catch (IOException e) {
            // Best effort.
        }
    }
}
