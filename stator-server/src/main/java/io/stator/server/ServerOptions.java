package io.stator.server;

import io.stator.engine.EngineConfig;
import io.stator.engine.capacity.ThroughputSettings;
import io.stator.engine.index.PropagationDelay;
import io.stator.server.http.ConnectionLimits;
import io.stator.server.replication.ReplicationOptions;
import java.nio.file.Path;
import io.stator.engine.streams.StreamSettings;
import io.stator.engine.table.WriteIsolation;
import java.time.Clock;
import java.util.function.Consumer;

/**
 * How to run a Stator server: what the command line sets, and what tests set directly.
 *
 * @param port                     0 for any free port
 * @param credentialsFile          null to accept any access key (signatures still must be well formed)
 * @param policiesFile             null to let every valid key do everything; else the keys' IAM policies
 * @param gsiPropagationDelay      how long changes take to reach global secondary indexes
 * @param itemCollectionLimitBytes the size an item collection may reach on a table with a local index
 * @param tlsCertificateFile       PEM certificate chain to serve HTTPS with (with {@code tlsKeyFile}); null for HTTP
 * @param tlsKeyFile               PEM private key of that certificate (PKCS#8, or PKCS#1 for RSA)
 * @param connectionLimits         timeouts and the number of connections open at once
 * @param memory                   the memory the server may use (RocksDB's share is applied here)
 * @param ttlDelay                 how late Time to Live deletes an expired item
 * @param streams                  DynamoDB Streams' shards, retention and --stream-delay
 * @param throughput               whether throughput limits throttle (--throughput) and when partitions split
 * @param metricsPort              a port serving GET /metrics only (--metrics-port), 0 for any free one; -1 for none
 * @param cassandra                the Cassandra cluster the data is in (--storage cassandra); null for RocksDB in
 *                                 {@code dataDirectory} (or in memory)
 * @param s3Directory              where exports go and imports come from (--s3-dir: bucket b, key p/x is
 *                                 DIR/b/p/x); null for {@code dataDirectory/s3} (a temporary directory in memory)
 * @param s3Endpoint               a real S3-compatible endpoint to use instead (--s3-endpoint), or null
 * @param advisorScale             the advisor's production multiplier (--advisor-scale): observed rates
 *                                 times this are what its findings judge and price
 * @param console                  whether the console (/console/) is served where the metrics are (--console)
 * @param writeIsolation           the write isolation of tables without the system:write_isolation tag
 *                                 (--write-isolation)
 * @param replication              global tables: the peer regions and their secret (--replica-peers)
 * @param tableCreationDelay       how long a table is CREATING after CreateTable and UPDATING after
 *                                 UpdateTable (--table-creation-delay); zero: ACTIVE at once
 * @param kinesisEndpoint          the Kinesis-compatible endpoint Kinesis destinations' records go to
 *                                 (--kinesis-endpoint), or null: an Enable then fails
 * @param pitrRestorableLag        how far behind now point-in-time recovery's latest restorable time is
 *                                 (--pitr-restorable-lag; DynamoDB's five minutes by default)
 */
public record ServerOptions(String host, int port, Path dataDirectory, boolean inMemory, boolean fsync,
                            String region, String accountId, Path credentialsFile, Clock clock,
                            PropagationDelay gsiPropagationDelay, long itemCollectionLimitBytes, Path policiesFile,
                            Path tlsCertificateFile, Path tlsKeyFile, ConnectionLimits connectionLimits,
                            MemoryBudget memory, PropagationDelay ttlDelay, StreamSettings streams,
                            ThroughputSettings throughput, int metricsPort, CassandraOptions cassandra,
                            Path s3Directory, java.net.URI s3Endpoint, double advisorScale,
                            boolean console, WriteIsolation writeIsolation, ReplicationOptions replication,
                            java.time.Duration tableCreationDelay, java.net.URI kinesisEndpoint,
                            java.time.Duration pitrRestorableLag) {

    public static ServerOptions defaults(Path dataDirectory) {
        return new ServerOptions("127.0.0.1", 8000, dataDirectory, false, false, EngineConfig.DEFAULT_REGION,
                EngineConfig.DEFAULT_ACCOUNT_ID, null, Clock.systemUTC(), PropagationDelay.NONE,
                EngineConfig.DEFAULT_ITEM_COLLECTION_LIMIT_BYTES, null, null, null, ConnectionLimits.DEFAULTS,
                MemoryBudget.DEFAULT, PropagationDelay.NONE, StreamSettings.DEFAULTS, ThroughputSettings.DEFAULTS, -1,
                null, null, null, 1, true, WriteIsolation.ALWAYS_USE_LWT, ReplicationOptions.NONE,
                java.time.Duration.ZERO, null, EngineConfig.DEFAULT_PITR_RESTORABLE_LAG);
    }

    /** True when the server speaks HTTPS. */
    public boolean tls() { return tlsCertificateFile != null; }

    /**
     * Whether GET /metrics is answered on the DynamoDB port, unsigned: when signatures are not
     * checked (anyone who reaches the port may read every table anyway), or when only this machine
     * can reach it (a loopback address). With --credentials on another address the metrics, which
     * name tables and show their traffic, are served only where the operator asks: --metrics-port.
     */
    public boolean metricsOnMainPort() {
        return credentialsFile == null || isLoopback(host);
    }

    /** True when every address {@code host} resolves to is a loopback address. */
    public static boolean isLoopback(String host) {
        try {
            for (java.net.InetAddress a : java.net.InetAddress.getAllByName(host)) {
                if (!a.isLoopbackAddress()) return false;
            }
            return true;
        } catch (java.net.UnknownHostException e) {
            return false;
        }
    }

    /** The engine's share of the options. */
    public EngineConfig engineConfig() {
        return new EngineConfig(region, accountId, clock, gsiPropagationDelay, itemCollectionLimitBytes, ttlDelay, streams,
                throughput, writeIsolation, tableCreationDelay, pitrRestorableLag);
    }

    /** A copy with some options changed, e.g. {@code options.with(o -> o.port = 0)}. */
    public ServerOptions with(Consumer<Mutable> change) {
        Mutable m = new Mutable(this);
        change.accept(m);
        return new ServerOptions(m.host, m.port, m.dataDirectory, m.inMemory, m.fsync, m.region, m.accountId,
                m.credentialsFile, m.clock, m.gsiPropagationDelay, m.itemCollectionLimitBytes, m.policiesFile,
                m.tlsCertificateFile, m.tlsKeyFile, m.connectionLimits, m.memory, m.ttlDelay, m.streams, m.throughput,
                m.metricsPort, m.cassandra, m.s3Directory, m.s3Endpoint, m.advisorScale, m.console, m.writeIsolation,
                m.replication, m.tableCreationDelay, m.kinesisEndpoint, m.pitrRestorableLag);
    }

    public ServerOptions withPort(int port) { return with(o -> o.port = port); }

    public ServerOptions withCredentials(Path file) { return with(o -> o.credentialsFile = file); }

    public ServerOptions withPolicies(Path file) { return with(o -> o.policiesFile = file); }

    public ServerOptions withClock(Clock clock) { return with(o -> o.clock = clock); }

    public ServerOptions withThroughput(ThroughputSettings settings) { return with(o -> o.throughput = settings); }

    public ServerOptions withInMemory(boolean inMemory) { return with(o -> o.inMemory = inMemory); }

    public ServerOptions withMetricsPort(int port) { return with(o -> o.metricsPort = port); }

    public ServerOptions withAdvisorScale(double scale) { return with(o -> o.advisorScale = scale); }

    public ServerOptions withConsole(boolean console) { return with(o -> o.console = console); }

    public ServerOptions withWriteIsolation(WriteIsolation w) { return with(o -> o.writeIsolation = w); }

    /** A region of global tables with these peers (--replica-peers). */
    public ServerOptions withReplication(ReplicationOptions r) { return with(o -> o.replication = r); }

    /** On this Cassandra cluster instead of RocksDB (null: back on RocksDB). */
    public ServerOptions withCassandra(CassandraOptions cassandra) { return with(o -> o.cassandra = cassandra); }

    /** Exports to and imports from this directory (--s3-dir). */
    public ServerOptions withS3Directory(Path directory) { return with(o -> o.s3Directory = directory); }

    /** Kinesis destinations' records go to this Kinesis-compatible endpoint (--kinesis-endpoint). */
    public ServerOptions withKinesisEndpoint(java.net.URI endpoint) { return with(o -> o.kinesisEndpoint = endpoint); }

    /** Exports to and imports from this S3-compatible endpoint (--s3-endpoint). */
    public ServerOptions withS3Endpoint(java.net.URI endpoint) { return with(o -> o.s3Endpoint = endpoint); }

    public ServerOptions withTls(Path certificateFile, Path keyFile) {
        return with(o -> {
            o.tlsCertificateFile = certificateFile;
            o.tlsKeyFile = keyFile;
        });
    }

    public ServerOptions withConnectionLimits(ConnectionLimits limits) { return with(o -> o.connectionLimits = limits); }

    /** The options as fields, for {@link #with}. */
    public static final class Mutable {
        public String host;
        public int port;
        public Path dataDirectory;
        public boolean inMemory;
        public boolean fsync;
        public String region;
        public String accountId;
        public Path credentialsFile;
        public Clock clock;
        public PropagationDelay gsiPropagationDelay;
        public long itemCollectionLimitBytes;
        public Path policiesFile;
        public Path tlsCertificateFile;
        public Path tlsKeyFile;
        public ConnectionLimits connectionLimits;
        public MemoryBudget memory;
        public PropagationDelay ttlDelay;
        public StreamSettings streams;
        public ThroughputSettings throughput;
        public int metricsPort;
        public CassandraOptions cassandra;
        public Path s3Directory;
        public java.net.URI s3Endpoint;
        public double advisorScale;
        public boolean console;
        public WriteIsolation writeIsolation;
        public ReplicationOptions replication;
        public java.time.Duration tableCreationDelay;
        public java.net.URI kinesisEndpoint;
        public java.time.Duration pitrRestorableLag;

        Mutable(ServerOptions o) {
            host = o.host;
            port = o.port;
            dataDirectory = o.dataDirectory;
            inMemory = o.inMemory;
            fsync = o.fsync;
            region = o.region;
            accountId = o.accountId;
            credentialsFile = o.credentialsFile;
            clock = o.clock;
            gsiPropagationDelay = o.gsiPropagationDelay;
            itemCollectionLimitBytes = o.itemCollectionLimitBytes;
            policiesFile = o.policiesFile;
            tlsCertificateFile = o.tlsCertificateFile;
            tlsKeyFile = o.tlsKeyFile;
            connectionLimits = o.connectionLimits;
            memory = o.memory;
            ttlDelay = o.ttlDelay;
            streams = o.streams;
            throughput = o.throughput;
            metricsPort = o.metricsPort;
            cassandra = o.cassandra;
            s3Directory = o.s3Directory;
            s3Endpoint = o.s3Endpoint;
            advisorScale = o.advisorScale;
            console = o.console;
            writeIsolation = o.writeIsolation;
            replication = o.replication;
            tableCreationDelay = o.tableCreationDelay;
            kinesisEndpoint = o.kinesisEndpoint;
            pitrRestorableLag = o.pitrRestorableLag;
        }
    }
}
