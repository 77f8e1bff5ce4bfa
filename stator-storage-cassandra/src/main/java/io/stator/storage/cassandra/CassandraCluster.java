package io.stator.storage.cassandra;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.config.DriverConfigLoader;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.metadata.NodeState;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * A real Apache Cassandra 5 cluster on this machine, for tests and for trying Stator on Cassandra:
 * N nodes (3 by default) on 127.0.0.1, 127.0.0.2, ..., each a JDK 17 process of its own
 * ({@link CassandraNode}), started one after another from the server's jars that the build puts
 * in {@code cassandra-server-lib/target/cassandra-server-lib/}. Each node has a directory of its
 * own under one directory (a temporary one, deleted on close, or one the caller names, kept): its
 * {@code cassandra.yaml} and {@code logback.xml}, its data, commit log, hints and saved caches,
 * its log ({@code logs/system.log}), its standard output and error ({@code node.out}) and its
 * process's pid ({@code pid}). Every node listens on the same ports (CQL 9042, storage 7000) on
 * its own loopback address; node 0 is the seed.
 *
 * <p>It lives in the module's main sources, not its tests, so that bin/stator-cluster can run it
 * ({@link CassandraClusterLauncher}) with the server's class path; the backend does not use it.
 *
 * <p>With the environment variable {@value #CONTACT_POINTS_ENV} set ({@code host[:port],...}),
 * nothing is started: the cluster there is used as it is ({@link #managed()} is false and
 * {@link #killNode}/{@link #startNode} are refused).
 *
 * <p>Tests share one cluster per JVM through {@code CassandraClusterExtension} (the module's
 * tests, and its test-jar). See docs/cassandra.md, "Running a Cassandra cluster for tests".
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
    /**
     * System property: the third byte of the nodes' loopback addresses (default 0: 127.0.0.1,
     * 127.0.0.2, ...), so that two clusters (two checkouts' test runs) can run on one machine.
     */
    public static final String ADDRESS_BLOCK_PROPERTY = "stator.cassandra.addressBlock";

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
    static final Duration REQUEST_TIMEOUT = CassandraSessions.REQUEST_TIMEOUT;
    static final Duration POLL = Duration.ofMillis(250);

    private final List<CassandraNode> nodes;
    private final List<InetSocketAddress> contactPoints;
    private final String localDatacenter;
    private final Path baseDir;
    /** True when baseDir is the harness's own temporary directory, deleted on close. */
    private final boolean temporary;
    private final Thread shutdownHook;
    private CqlSession session;
    private boolean closed;

    private CassandraCluster(List<CassandraNode> nodes, List<InetSocketAddress> contactPoints,
            String localDatacenter, Path baseDir, boolean temporary) {
        this.nodes = nodes;
        this.contactPoints = List.copyOf(contactPoints);
        this.localDatacenter = localDatacenter;
        this.baseDir = baseDir;
        this.temporary = temporary;
        this.shutdownHook = baseDir == null ? null : new Thread(this::killAll, "cassandra-cluster-shutdown");
        if (shutdownHook != null) {
            Runtime.getRuntime().addShutdownHook(shutdownHook);
        }
    }

    /**
     * The cluster of {@value #CONTACT_POINTS_ENV} when it is set, else a new one of
     * {@value #NODES_PROPERTY} nodes (3 by default).
     */
    private static CassandraCluster shared;

    /**
     * The one cluster of this JVM's tests ({@link #fromEnvironmentOrStart}), made on first use:
     * every test class of the JVM shares it, whichever way it asks for it.
     */
    public static synchronized CassandraCluster shared() {
        if (shared == null) shared = fromEnvironmentOrStart();
        return shared;
    }

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
        return new CassandraCluster(List.of(), contactPoints, localDatacenter, null, false);
    }

    /**
     * Starts a cluster of {@code nodeCount} nodes in a temporary directory (deleted on close), one
     * after another, each taking CQL requests on return.
     */
    public static CassandraCluster start(int nodeCount) {
        checkNodeCount(nodeCount);
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
        return start(baseDir, nodeCount, true);
    }

    /**
     * Starts a cluster of {@code nodeCount} nodes in {@code dir}, which close() leaves in place: a
     * node whose directory holds data from an earlier run starts on it.
     */
    public static CassandraCluster start(Path dir, int nodeCount) {
        checkNodeCount(nodeCount);
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return start(dir.toAbsolutePath(), nodeCount, false);
    }

    private static void checkNodeCount(int nodeCount) {
        if (nodeCount < 1 || nodeCount > 254) {
            throw new IllegalArgumentException("nodes: " + nodeCount);
        }
    }

    private static CassandraCluster start(Path baseDir, int nodeCount, boolean temporary) {
        Path java = CassandraNode.findJava17();
        Path lib = serverLib();
        Path jamm = CassandraNode.findJamm(lib);
        List<CassandraNode> nodes = new ArrayList<>();
        for (int i = 0; i < nodeCount; i++) {
            nodes.add(new CassandraNode(i, baseDir.resolve("node" + (i + 1)), java, lib, jamm));
        }
        List<InetSocketAddress> contactPoints = nodes.stream().map(CassandraNode::nativeAddress).toList();
        CassandraCluster cluster = new CassandraCluster(nodes, contactPoints, DATACENTER, baseDir, temporary);
        try {
            long began = System.nanoTime();
            for (CassandraNode node : nodes) {
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

    /** The pid of node {@code i}'s process (also in its directory's {@code pid} file). */
    public long pid(int i) {
        return requireManaged(i).pid();
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
        CassandraNode node = requireManaged(i);
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
        CassandraNode node = requireManaged(i);
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
        List<CassandraNode> running = nodes.stream().filter(CassandraNode::isAlive).toList();
        if (running.size() > 1) {
            CqlSession admin = admin(deadline);
            ensureProbeKeyspace(admin);
            for (CassandraNode observer : running) {
                for (CassandraNode observed : running) {
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
            for (CassandraNode observed : running) {
                awaitDriverSees(shared, observed, true, deadline);
            }
        }
    }

    /**
     * Stops every node and, for a temporary directory, unless {@value #KEEP_PROPERTY} is true,
     * deletes their directories.
     */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closeSessions();
        if (!managed()) {
            return;
        }
        killAll();
        removeShutdownHook();
        if (!temporary) {
            return;
        }
        if (Boolean.getBoolean(KEEP_PROPERTY)) {
            System.out.println("CassandraCluster: kept " + baseDir);
        } else {
            deleteRecursively(baseDir);
        }
    }

    /**
     * Lets the nodes outlive this cluster object and this JVM: closes the sessions and drops the
     * shutdown hook that would kill them. Their pids stay in their directories' {@code pid} files,
     * by which {@link CassandraClusterLauncher} stops them.
     */
    public synchronized void detach() {
        if (!managed() || temporary) {
            throw new IllegalStateException("only a cluster started in a directory of the caller's can be left running");
        }
        if (closed) {
            return;
        }
        closeSessions();
        removeShutdownHook();
    }

    private void closeSessions() {
        closed = true;
        for (CqlSession s : new CqlSession[] {session, admin}) {
            if (s != null) {
                s.close();
            }
        }
    }

    private void removeShutdownHook() {
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException shuttingDown) {
            // The hook runs (or ran) anyway.
        }
    }

    private void killAll() {
        for (CassandraNode node : nodes) {
            node.kill();
        }
    }

    private CassandraNode requireManaged(int i) {
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
                            .addContactPoints(nodes.stream().filter(CassandraNode::isAlive).map(CassandraNode::nativeAddress)
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
    private synchronized int probeKey(CqlSession admin, CassandraNode node, long deadline) {
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

    private void awaitSeenUp(CqlSession admin, CassandraNode observer, CassandraNode observed, long deadline) {
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
            for (CassandraNode n : List.of(observer, observed)) {
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

    private static void awaitDriverSees(CqlSession session, CassandraNode observed, boolean up, long deadline) {
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

    private static com.datastax.oss.driver.api.core.metadata.Node driverNode(CqlSession session, CassandraNode node) {
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
    static DriverConfigLoader sessionConfig(List<String> schemaKeyspaces) {
        boolean schemaMetadata = schemaKeyspaces == null || !schemaKeyspaces.isEmpty();
        var config = CassandraSessions.config();
        if (schemaKeyspaces != null && !schemaKeyspaces.isEmpty()) {
            config.withStringList(DefaultDriverOption.METADATA_SCHEMA_REFRESHED_KEYSPACES, schemaKeyspaces);
        }
        return config
                // A restarted node is back in the pools within about a second.
                .withDuration(DefaultDriverOption.RECONNECTION_BASE_DELAY, Duration.ofMillis(500))
                .withDuration(DefaultDriverOption.RECONNECTION_MAX_DELAY, Duration.ofSeconds(2))
                .withBoolean(DefaultDriverOption.METADATA_SCHEMA_ENABLED, schemaMetadata)
                .withBoolean(DefaultDriverOption.METADATA_TOKEN_MAP_ENABLED, schemaMetadata)
                .build();
    }

    // --- Helpers ---------------------------------------------------------------------------------

    static Path serverLib() {
        String lib = System.getProperty(SERVER_LIB_PROPERTY);
        Path dir = lib != null ? Paths.get(lib) : Paths.get("target/cassandra-server-lib");
        if (!Files.isDirectory(dir)) {
            throw new IllegalStateException("no Cassandra server jars in " + dir.toAbsolutePath()
                    + " (the build puts them there: ./mvnw -pl stator-storage-cassandra -am test-compile)");
        }
        return dir.toAbsolutePath();
    }

    static List<InetSocketAddress> parseContactPoints(String given) {
        try {
            return CassandraSessions.resolve(CassandraSessions.contactPoints(given));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(CONTACT_POINTS_ENV + "=" + given + ": " + e.getMessage(), e);
        }
    }

    private static void sleepUntilNextPoll(long deadline, java.util.function.Supplier<IllegalStateException> timeout) {
        if (System.nanoTime() - deadline > 0) {
            throw timeout.get();
        }
        sleep(POLL);
    }

    static void sleep(Duration d) {
        try {
            Thread.sleep(d.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
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
