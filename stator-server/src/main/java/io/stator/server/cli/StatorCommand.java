package io.stator.server.cli;

import io.netty.util.internal.logging.InternalLoggerFactory;
import io.netty.util.internal.logging.JdkLoggerFactory;
import io.stator.engine.EngineConfig;
import io.stator.engine.table.WriteIsolation;
import io.stator.engine.index.PropagationDelay;
import io.stator.engine.capacity.ThroughputSettings;
import io.stator.engine.streams.StreamSettings;
import io.stator.server.CassandraOptions;
import io.stator.server.MemoryBudget;
import io.stator.server.ServerOptions;
import io.stator.server.replication.ReplicationOptions;
import io.stator.server.StatorServer;
import io.stator.server.http.ConnectionLimits;
import io.stator.storage.cassandra.CassandraSessions;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code stator}: starts a DynamoDB-compatible server. Prints one line with the endpoint when it
 * is ready; SIGTERM or Ctrl-C stop it cleanly. Any failure to start is one line on stderr and a
 * non-zero exit.
 */
@Command(name = "stator", mixinStandardHelpOptions = true, version = "Stator 0.1.0",
        description = "A DynamoDB-compatible database server, faithful to DynamoDB's physics.",
        sortOptions = false,
        subcommands = {TransferCommands.Export.class, TransferCommands.Import.class, AdviseCommand.class})
public final class StatorCommand implements Callable<Integer> {

    @Option(names = "--host", description = "Address to listen on (default: ${DEFAULT-VALUE}).")
    String host = "127.0.0.1";

    @Option(names = "--port", description = "Port to listen on (default: ${DEFAULT-VALUE}).")
    int port = 8000;

    /** Null when not given: --storage cassandra refuses it, unless for the consensus server's log. */
    @Option(names = "--data-dir", paramLabel = "DIR", description = "Where data is stored (default: stator-data). "
            + "With --storage cassandra, only with --consensus-port: where the consensus server keeps its Raft logs.")
    Path dataDir;

    @Option(names = "--in-memory", description = "Keep everything in memory; nothing is written to disk.")
    boolean inMemory;

    @Option(names = "--fsync", description = "Sync every write to disk before acknowledging it, so it survives "
            + "power loss, not only a crash of the server (concurrent writes share one sync).")
    boolean fsync;

    @Option(names = "--storage", paramLabel = "BACKEND", description = "rocksdb (the default): the data is in "
            + "--data-dir (or in memory), this server's alone; cassandra: in the Apache Cassandra cluster of "
            + "--cassandra, shared with the other servers that use it (docs/cassandra.md).")
    String storage = "rocksdb";

    @Option(names = "--cassandra", paramLabel = "HOST[:PORT],...", description = "With --storage cassandra: nodes "
            + "of the cluster to reach it through (port 9042 unless given).")
    String cassandra;

    @Option(names = "--keyspace", paramLabel = "NAME", description = "With --storage cassandra: the keyspace of the "
            + "data, shared by the servers of one deployment, created if it does not exist (default: stator).")
    String keyspace;

    @Option(names = "--replication", paramLabel = "N", description = "With --storage cassandra: the keyspace's "
            + "replication factor (SimpleStrategy) if this server creates it (default: 3).")
    Integer replication;

    @Option(names = "--cassandra-datacenter", paramLabel = "NAME", description = "With --storage cassandra: the "
            + "datacenter whose nodes this server sends its requests to (default: datacenter1).")
    String cassandraDatacenter;

    @Option(names = "--write-isolation", paramLabel = "SETTING", description = "The write isolation of tables "
            + "without the system:write_isolation tag (Alternator's): always_use_lwt (the default: every write a "
            + "lightweight transaction), only_rmw_uses_lwt (writes that read nothing first are plain Cassandra "
            + "writes), forbid_rmw (those, and writes that would read first refused), unsafe_rmw (run as "
            + "only_rmw_uses_lwt). Changes nothing on RocksDB but forbid_rmw's refusals (docs/cassandra.md).")
    String writeIsolation = "always_use_lwt";

    @Option(names = "--region", description = "Region used in ARNs, and with --credentials the region requests "
            + "must be signed for (default: ${DEFAULT-VALUE}).")
    String region = EngineConfig.DEFAULT_REGION;

    @Option(names = "--replica-peers", paramLabel = "REGION=URL,...", description = "Global tables: the other "
            + "regions this one replicates with, and their endpoints (each a Stator with its own --region), e.g. "
            + "us-west-2=http://127.0.0.1:8001. Needs --replication-secret.")
    String replicaPeers;

    @Option(names = "--replication-secret", paramLabel = "SECRET", description = "Global tables: the secret every "
            + "region of the deployment shares, signing what they send each other (default: the environment's "
            + "STATOR_REPLICATION_SECRET).")
    String replicationSecret = System.getenv("STATOR_REPLICATION_SECRET");

    @Option(names = "--replica-tombstone-retention", paramLabel = "DURATION", description = "Global tables: how long "
            + "a deleted item's version is kept, and so how late a change from another region may arrive and still "
            + "be applied (default: 24h).")
    String tombstoneRetention = "24h";

    @Option(names = "--consensus-port", paramLabel = "PORT", description = "Global tables with multi-Region strong "
            + "consistency: the port of this region's consensus server (Apache Ratis, mutual TLS with the peer regions' "
            + "keys), which peer regions reach on this server's host. Default: a free port, chosen at the first start and "
            + "kept in the data directory. With --storage cassandra, given to one server of the region, which hosts "
            + "the region's consensus member for all of them.")
    int consensusPort;

    @Option(names = "--clock-skew", paramLabel = "DURATION", hidden = true, description = "Tests only: run this "
            + "server's clock ahead by DURATION (-DURATION: behind).")
    String clockSkew;

    @Option(names = "--replication-faults", hidden = true, description = "Tests only: serve POST "
            + "/_stator/replication/faults, which drops or delays messages to peer regions.")
    boolean replicationFaults;

    @Option(names = "--account-id", paramLabel = "ID", description = "Account id used in ARNs (default: ${DEFAULT-VALUE}).")
    String accountId = EngineConfig.DEFAULT_ACCOUNT_ID;

    @Option(names = "--credentials", paramLabel = "FILE", description = "Verify SigV4 signatures against the "
            + "access keys in FILE (lines of ACCESS_KEY_ID SECRET_ACCESS_KEY, with a third field SESSION_TOKEN for "
            + "temporary credentials). Without it, any access key is accepted.")
    Path credentials;

    @Option(names = "--policies", paramLabel = "FILE", description = "IAM identity-based policies per access key "
            + "(a JSON object: access key id -> a policy document or a list of them); requests are then allowed only "
            + "as IAM would allow them, with tables' resource-based policies. Needs --credentials. Without it, every "
            + "valid key may do everything.")
    Path policies;

    @Option(names = "--gsi-propagation-delay", paramLabel = "DELAY", description = "How long changes take to reach "
            + "global secondary indexes: a duration (250ms, 2s) or a random range (100ms-2s); 0 for before the write "
            + "answers (synchronous, as DynamoDB Local). Default: as soon as possible after it (milliseconds), like "
            + "DynamoDB.")
    String gsiPropagationDelay;

    @Option(names = "--s3-dir", paramLabel = "DIR", description = "Where exports are written and imports read, "
            + "standing in for S3: bucket b, prefix p is DIR/b/p/... Default: <data-dir>/s3 (a temporary directory "
            + "in memory).")
    Path s3Dir;

    @Option(names = "--s3-endpoint", paramLabel = "URL", description = "A real S3-compatible endpoint for exports and "
            + "imports instead of --s3-dir (credentials from the AWS SDK's default chain: AWS_ACCESS_KEY_ID, ...).")
    java.net.URI s3Endpoint;

    @Option(names = "--ttl-delay", paramLabel = "DELAY", description = "How late Time to Live deletes an expired "
            + "item: a duration (30s, 5m) or a range (1h-48h, each item always as late), past its expiry. Default: "
            + "as soon as the server sees it has expired (within a second). DynamoDB deletes within about two days.")
    String ttlDelay = "0ms";

    @Option(names = "--kinesis-endpoint", paramLabel = "URL", description = "The Kinesis-compatible endpoint that "
            + "Kinesis Data Streams destinations (EnableKinesisStreamingDestination) put change records to "
            + "(credentials from the AWS SDK's default chain). Default: none, and an Enable fails.")
    java.net.URI kinesisEndpoint;

    @Option(names = "--table-creation-delay", paramLabel = "DURATION", description = "How long a new table stays "
            + "CREATING (its items not found) and an updated one UPDATING, as DynamoDB's take a while, so that an "
            + "application can test that it waits for ACTIVE: a duration (2s, 500ms). Default: 0, ACTIVE at once.")
    String tableCreationDelay = "0ms";

    @Option(names = "--pitr-restorable-lag", paramLabel = "DURATION", description = "How far behind now point-in-time "
            + "recovery's latest restorable time is, so that a test need not wait DynamoDB's five minutes after enabling "
            + "it before a restore: a duration (0, 1s, 5m). Default: 5m.")
    String pitrRestorableLag = "5m";

    @Option(names = "--stream-delay", paramLabel = "DELAY", description = "How late DynamoDB Streams records become "
            + "readable after their change: a duration (250ms, 2s) or a range (100ms-2s). Default: at once.")
    String streamDelay = "0ms";

    @Option(names = "--stream-shard-period", paramLabel = "DURATION", description = "How long a new stream's shard "
            + "stays open before a child succeeds it (default: 4h, about DynamoDB's).")
    String streamShardPeriod = "4h";

    @Option(names = "--stream-retention", paramLabel = "DURATION", description = "How long stream records are "
            + "kept (default: 24h, DynamoDB's).")
    String streamRetention = "24h";

    @Option(names = "--throughput", paramLabel = "MODE", description = "enforce (the default): throttle as DynamoDB "
            + "does (capacity per table, index and partition, burst, on-demand scaling); report: compute and report "
            + "consumed capacity, throttle nothing. A table's tag stator:throughput=enforce|report overrides it.")
    String throughput = "enforce";

    @Option(names = "--partition-split-delay", paramLabel = "DURATION", description = "How long a partition must run "
            + "hot (80%% of its 3,000 read or 1,000 write units a second) before it splits in two (default: 5m; "
            + "DynamoDB's take minutes).")
    String partitionSplitDelay = "5m";

    @Option(names = "--metrics-port", paramLabel = "PORT", description = "Also serve GET /metrics (Prometheus' text "
            + "format) on PORT, with the advisor's read API and the console, and nothing else there. GET /metrics "
            + "on --port is served too, unless --credentials is given and --host is not a loopback address.")
    Integer metricsPort;

    @Option(names = "--advisor-scale", paramLabel = "N", description = "The advisor's production multiplier: the "
            + "rates observed here times N are the rates its findings judge and price, e.g. 100 when production "
            + "will see a hundred times this traffic (default: ${DEFAULT-VALUE}; docs/advisor.md).")
    String advisorScale = "1";

    @Option(names = "--console", paramLabel = "on|off", description = "The console, pages of the tables, their "
            + "partition heat maps, top keys, findings and cost, at /console/ wherever GET /metrics is served "
            + "(default: ${DEFAULT-VALUE}; docs/console.md).")
    String console = "on";

    @Option(names = "--item-collection-limit", paramLabel = "SIZE", description = "Largest item collection on a table "
            + "with a local secondary index, e.g. 10GB (DynamoDB's limit, the default), 64MB, 100KB.")
    String itemCollectionLimit = "10GB";

    @Option(names = "--memory", paramLabel = "SIZE", description = "The memory the server may use, e.g. 512MB, 2GB "
            + "(default: ${DEFAULT-VALUE}): a quarter for the Java heap, an eighth for network buffers, three eighths "
            + "for RocksDB's block cache and memtables (bin/stator sets the JVM's shares; see docs/memory.md). In "
            + "memory (--in-memory) the data comes on top.")
    String memorySize = "1GB";

    @Option(names = "--allow-anonymous", description = "Allow listening on a non-loopback address without --credentials "
            + "(TLS does not replace them: anyone who can connect could still read and write).")
    boolean allowAnonymous;

    @Option(names = "--tls-cert", paramLabel = "FILE", description = "Serve HTTPS with the PEM certificate chain in FILE "
            + "(the server's certificate first); needs --tls-key.")
    Path tlsCertificate;

    @Option(names = "--tls-key", paramLabel = "FILE", description = "The PEM private key of --tls-cert: PKCS#8 "
            + "(BEGIN PRIVATE KEY) or, for RSA, PKCS#1 (BEGIN RSA PRIVATE KEY); not encrypted.")
    Path tlsKey;

    @Option(names = "--idle-timeout", paramLabel = "DURATION", description = "Close a connection that has waited this "
            + "long for its next request (default: 120s, longer than the SDKs keep idle connections).")
    String idleTimeout = "120s";

    @Option(names = "--header-timeout", paramLabel = "DURATION", description = "Close a connection whose request "
            + "headers take longer than this to arrive, counted from their first byte, or from the connection's "
            + "opening for its first request (default: 20s).")
    String headerTimeout = "20s";

    @Option(names = "--body-timeout", paramLabel = "DURATION", description = "Close a connection whose request body "
            + "takes longer than this to arrive after its headers (default: 60s: 16 MB at 2.2 Mbit/s).")
    String bodyTimeout = "60s";

    @Option(names = "--max-connections", paramLabel = "N", description = "Connections open at once (default: "
            + "${DEFAULT-VALUE}). Past it, a new connection closes the one that has waited longest for a request, "
            + "or is refused if every open one is in the middle of a request.")
    int maxConnections = ConnectionLimits.DEFAULTS.maxConnections();

    @Override
    public Integer call() throws Exception {
        if (port < 0 || port > 65535) return fail("--port must be between 0 and 65535, got " + port);
        double scale = advisorScale(advisorScale);
        if (!(scale > 0) || Double.isInfinite(scale)) {
            return fail("--advisor-scale must be a positive number such as 1 or 100, got '" + advisorScale + "'");
        }
        if (!console.equals("on") && !console.equals("off")) {
            return fail("--console must be on or off, got '" + console + "'");
        }
        if (metricsPort != null && (metricsPort < 0 || metricsPort > 65535)) {
            return fail("--metrics-port must be between 0 and 65535, got " + metricsPort);
        }
        if (metricsPort != null && metricsPort != 0 && metricsPort == port) {
            return fail("--metrics-port must differ from --port (GET /metrics is served on --port already)");
        }
        CassandraOptions cassandraOptions;
        try {
            cassandraOptions = cassandraOptions();
        } catch (IllegalArgumentException e) {
            return fail(e.getMessage());
        }
        WriteIsolation isolation = WriteIsolation.parse(writeIsolation);
        if (isolation == null) {
            return fail("--write-isolation must be one of " + WriteIsolation.ALLOWED + ", got '" + writeIsolation + "'");
        }
        if (!region.matches("[a-z0-9-]+")) return fail("--region must look like us-east-1, got '" + region + "'");
        if (!accountId.matches("\\d{12}")) return fail("--account-id must be 12 digits, got '" + accountId + "'");
        if (credentials != null && !Files.isReadable(credentials)) {
            return fail("cannot read credentials file " + credentials);
        }
        if (policies != null && !Files.isReadable(policies)) {
            return fail("cannot read policies file " + policies);
        }
        if (policies != null && credentials == null) {
            return fail("--policies needs --credentials: without verified signatures any caller could claim any "
                    + "access key");
        }
        if ((tlsCertificate == null) != (tlsKey == null)) {
            return fail(tlsCertificate == null ? "--tls-key needs --tls-cert (the certificate of that key)"
                    : "--tls-cert needs --tls-key (the private key of that certificate)");
        }
        if (tlsCertificate != null && !Files.isReadable(tlsCertificate)) {
            return fail("cannot read TLS certificate file " + tlsCertificate);
        }
        if (tlsKey != null && !Files.isReadable(tlsKey)) return fail("cannot read TLS key file " + tlsKey);
        // TLS is no substitute for credentials: it hides the traffic from others on the network, but
        // any client that reaches the port could still read and write every table.
        if (credentials == null && !allowAnonymous && !isLoopback(host)) {
            return fail("refusing to listen on " + host + " without --credentials: any client that reaches it could "
                    + "read and write every table (--tls-cert alone does not prevent that); add --credentials FILE "
                    + "to accept only requests signed with its keys, or --allow-anonymous to accept anyone");
        }
        if (!throughput.equals("enforce") && !throughput.equals("report")) {
            return fail("--throughput must be enforce or report, got '" + throughput + "'");
        }
        if (maxConnections < 1) return fail("--max-connections must be at least 1, got " + maxConnections);
        PropagationDelay delay;
        PropagationDelay expiryDelay;
        StreamSettings streams;
        long collectionLimit;
        MemoryBudget memory;
        ConnectionLimits limits;
        ThroughputSettings throughputSettings;
        java.time.Duration creationDelay;
        java.time.Duration restorableLag;
        try {
            creationDelay = zeroOrTimeout("--table-creation-delay", tableCreationDelay);
            restorableLag = zeroOrTimeout("--pitr-restorable-lag", pitrRestorableLag);
            throughputSettings = new ThroughputSettings(ThroughputSettings.Mode.parse(throughput),
                    parseTimeout("--partition-split-delay", partitionSplitDelay).toMillis(),
                    ThroughputSettings.DEFAULT_TABLE_QUOTA_UNITS);
            delay = gsiPropagationDelay(gsiPropagationDelay);
            expiryDelay = ttlDelay(ttlDelay);
            streams = new StreamSettings(parseTimeout("--stream-shard-period", streamShardPeriod).toMillis(),
                    parseTimeout("--stream-retention", streamRetention).toMillis(), PropagationDelay.parse(streamDelay));
            collectionLimit = parseSize("--item-collection-limit", itemCollectionLimit);
            memory = new MemoryBudget(parseSize("--memory", memorySize));
            limits = new ConnectionLimits(parseTimeout("--idle-timeout", idleTimeout),
                    parseTimeout("--header-timeout", headerTimeout), parseTimeout("--body-timeout", bodyTimeout),
                    maxConnections);
        } catch (IllegalArgumentException e) {
            return fail(e.getMessage());
        }
        ReplicationOptions replication;
        Clock clock = Clock.systemUTC();
        try {
            java.util.Map<String, java.net.URI> peers = ReplicationOptions.parsePeers(replicaPeers, region);
            if (!peers.isEmpty() && (replicationSecret == null || replicationSecret.isBlank())) {
                return fail("--replica-peers needs --replication-secret (or STATOR_REPLICATION_SECRET): peers "
                        + "accept only messages signed with the deployment's secret");
            }
            if (consensusPort < 0 || consensusPort > 65535) {
                return fail("--consensus-port must be between 0 and 65535, got " + consensusPort);
            }
            replication = new ReplicationOptions(peers, replicationSecret,
                    parseTimeout("--replica-tombstone-retention", tombstoneRetention), replicationFaults, consensusPort);
            if (clockSkew != null) {
                boolean behind = clockSkew.startsWith("-");
                java.time.Duration skew = parseTimeout("--clock-skew", behind ? clockSkew.substring(1) : clockSkew);
                clock = Clock.offset(clock, behind ? skew.negated() : skew);
            }
        } catch (IllegalArgumentException e) {
            return fail(e.getMessage());
        }
        Clock serverClock = clock;
        Path dataDirectory = (dataDir == null ? Path.of("stator-data") : dataDir).toAbsolutePath();
        ServerOptions options = ServerOptions.defaults(dataDirectory).with(o -> {
            o.host = host;
            o.port = port;
            o.inMemory = inMemory;
            o.fsync = fsync;
            o.region = region;
            o.accountId = accountId;
            o.credentialsFile = credentials;
            o.policiesFile = policies;
            o.clock = serverClock;
            o.gsiPropagationDelay = delay;
            o.itemCollectionLimitBytes = collectionLimit;
            o.throughput = throughputSettings;
            o.ttlDelay = expiryDelay;
            o.tableCreationDelay = creationDelay;
            o.pitrRestorableLag = restorableLag;
            o.kinesisEndpoint = kinesisEndpoint;
            o.streams = streams;
            o.tlsCertificateFile = tlsCertificate;
            o.tlsKeyFile = tlsKey;
            o.connectionLimits = limits;
            o.memory = memory;
            o.metricsPort = metricsPort == null ? -1 : metricsPort;
            o.advisorScale = advisorScale(advisorScale);
            o.console = console.equals("on");
            o.cassandra = cassandraOptions;
            o.s3Directory = s3Dir == null ? null : s3Dir.toAbsolutePath();
            o.s3Endpoint = s3Endpoint;
            o.writeIsolation = isolation;
            o.replication = replication;
        });
        StatorServer server;
        try {
            server = StatorServer.start(options);
        } catch (BindException e) {
            return fail("cannot listen on " + host + ":" + port + ": " + lowerFirst(e.getMessage()));
        } catch (Exception e) {
            return fail(e.getMessage() == null ? e.toString() : e.getMessage());
        }
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.close();
            stopped.countDown();
        }, "stator-shutdown"));
        System.out.println("Stator listening on " + server.endpoint());
        System.out.flush();
        stopped.await();
        return 0;
    }

    /**
     * --storage and its options: null for RocksDB, else where the Cassandra cluster is. Refuses the
     * options of one backend given with the other, with the option's name.
     */
    CassandraOptions cassandraOptions() {
        switch (storage) {
            case "rocksdb" -> {
                String[][] cassandraOnly = {{"--cassandra", cassandra}, {"--keyspace", keyspace},
                        {"--replication", replication == null ? null : replication.toString()},
                        {"--cassandra-datacenter", cassandraDatacenter}};
                for (String[] option : cassandraOnly) {
                    if (option[1] != null) {
                        throw new IllegalArgumentException(option[0] + " needs --storage cassandra (the storage is "
                                + "rocksdb, in --data-dir)");
                    }
                }
                return null;
            }
            case "cassandra" -> {
                if (cassandra == null) {
                    throw new IllegalArgumentException("--storage cassandra needs --cassandra HOST[:PORT],... (nodes "
                            + "of the cluster to reach it through)");
                }
                String inCluster = " is for --storage rocksdb: with --storage cassandra the data is in the cluster";
                if (dataDir != null && consensusPort == 0) {
                    throw new IllegalArgumentException("--data-dir" + inCluster + " (with --consensus-port, it holds "
                            + "the consensus server's Raft logs)");
                }
                if (inMemory) throw new IllegalArgumentException("--in-memory" + inCluster);
                if (fsync) {
                    throw new IllegalArgumentException("--fsync" + inCluster + ", whose nodes sync their commit logs "
                            + "as they are configured to (commitlog_sync)");
                }
                List<InetSocketAddress> contactPoints;
                try {
                    contactPoints = CassandraSessions.contactPoints(cassandra);
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException("--cassandra must be HOST[:PORT] addresses separated by commas, "
                            + "got '" + cassandra + "' (" + e.getMessage() + ")");
                }
                String name = keyspace == null ? CassandraOptions.DEFAULT_KEYSPACE : keyspace;
                if (!name.matches("[a-z][a-z0-9_]{0,47}")) {
                    throw new IllegalArgumentException("--keyspace must be a lowercase letter and up to 47 more "
                            + "lowercase letters, digits or underscores, got '" + name + "'");
                }
                int copies = replication == null ? CassandraOptions.DEFAULT_REPLICATION : replication;
                if (copies < 1) throw new IllegalArgumentException("--replication must be at least 1, got " + copies);
                String datacenter = cassandraDatacenter == null ? CassandraOptions.DEFAULT_DATACENTER
                        : cassandraDatacenter;
                if (datacenter.isBlank()) throw new IllegalArgumentException("--cassandra-datacenter must not be empty");
                return new CassandraOptions(contactPoints, datacenter, name, copies);
            }
            default -> throw new IllegalArgumentException("--storage must be rocksdb or cassandra, got '" + storage
                    + "'");
        }
    }

    /** --ttl-delay's value, or its error naming the option. */
    static PropagationDelay ttlDelay(String text) {
        try {
            return PropagationDelay.parse(text);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--ttl-delay must be a duration such as 30s or a range such as 1h-48h: "
                    + e.getMessage());
        }
    }

    /**
     * "10GB", "64MB", "100KB", "512B", the JVM's "1g", "512m", "100k", or a plain number of bytes
     * (units of 1024). bin/stator reads --memory the same way.
     */
    static long parseSize(String option, String text) {
        String t = text.trim().toUpperCase(Locale.ROOT);
        long unit = 1;
        for (String[] u : new String[][] {{"GB", "1073741824"}, {"MB", "1048576"}, {"KB", "1024"},
                {"G", "1073741824"}, {"M", "1048576"}, {"K", "1024"}, {"B", "1"}}) {
            if (t.endsWith(u[0])) {
                unit = Long.parseLong(u[1]);
                t = t.substring(0, t.length() - u[0].length()).trim();
                break;
            }
        }
        try {
            if (!t.matches("[0-9]+")) throw new NumberFormatException();
            long value = Long.parseLong(t);
            if (value <= 0) throw new NumberFormatException();
            return Math.multiplyExact(value, unit);
        } catch (NumberFormatException | ArithmeticException e) {
            throw new IllegalArgumentException(option + " must be a size such as 10GB, 512MB or 100KB, got '"
                    + text + "'");
        }
    }

    /** "500ms", "20s", "2m", "4h": a positive duration with its unit. */
    /** A duration that may be zero ("0", "0s", "0ms"): {@link #parseTimeout}'s forms otherwise. */
    static Duration zeroOrTimeout(String option, String text) {
        return text.trim().matches("0+(ms|s|m|h)?") ? Duration.ZERO : parseTimeout(option, text);
    }

    static Duration parseTimeout(String option, String text) {
        String t = text.trim().toLowerCase(Locale.ROOT);
        try {
            Duration d;
            if (t.endsWith("ms")) d = Duration.ofMillis(Long.parseLong(t.substring(0, t.length() - 2).trim()));
            else if (t.endsWith("s")) d = Duration.ofSeconds(Long.parseLong(t.substring(0, t.length() - 1).trim()));
            else if (t.endsWith("m")) d = Duration.ofMinutes(Long.parseLong(t.substring(0, t.length() - 1).trim()));
            else if (t.endsWith("h")) d = Duration.ofHours(Long.parseLong(t.substring(0, t.length() - 1).trim()));
            else throw new NumberFormatException();
            if (d.isNegative() || d.isZero()) throw new NumberFormatException();
            return d;
        } catch (NumberFormatException | ArithmeticException e) {
            throw new IllegalArgumentException(option + " must be a duration such as 500ms, 20s or 2m, got '"
                    + text + "'");
        }
    }

    /** The --advisor-scale given, or NaN when it is no number (refused as such). */
    private static double advisorScale(String text) {
        try {
            return Double.parseDouble(text.trim());
        } catch (NumberFormatException e) {
            return Double.NaN;
        }
    }

    private static int fail(String reason) {
        System.err.println("stator: " + reason.replace('\n', ' '));
        return 1;
    }

    private static String lowerFirst(String s) {
        if (s == null || s.isEmpty()) return "address in use";
        return Character.toLowerCase(s.charAt(0)) + s.substring(1);
    }

    private static boolean isLoopback(String host) {
        return ServerOptions.isLoopback(host);
    }

    private static void defaultProperty(String name, String value) {
        if (System.getProperty(name) == null) System.setProperty(name, value);
    }

    /** --gsi-propagation-delay: unset, as soon as possible; 0, synchronous; else the delay. */
    static PropagationDelay gsiPropagationDelay(String text) {
        if (text == null) return PropagationDelay.NONE;
        PropagationDelay delay = PropagationDelay.parse(text);
        return delay.maxMillis() == 0 ? PropagationDelay.SYNCHRONOUS : delay;
    }

    public static void main(String[] args) {
        StatorServer.preload();
        // Netty logs through SLF4J when it finds it on the class path, and SLF4J without a binding
        // prints three lines of warnings on stderr. The command's output is its interface (one
        // line when ready, one line of reason when not), so Netty logs through the JDK instead.
        InternalLoggerFactory.setDefaultFactory(JdkLoggerFactory.INSTANCE);
        // The Cassandra driver (--storage cassandra) logs through SLF4J, to stderr: its warnings
        // only, and not its control connection's, which fails over to another node by itself; a
        // cluster it cannot reach at all stops the start, and the reason is the one line then.
        defaultProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
        defaultProperty("org.slf4j.simpleLogger.log.com.datastax.oss.driver.internal.core.control.ControlConnection",
                "error");
        CommandLine cli = new CommandLine(new StatorCommand());
        cli.setParameterExceptionHandler((e, a) -> {
            System.err.println("stator: " + e.getMessage().replace('\n', ' ') + " (see stator --help)");
            return 2;
        });
        cli.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
            System.err.println("stator: " + e);
            return 1;
        });
        int code = cli.execute(args);
        if (code != 0) System.exit(code);
    }
}
