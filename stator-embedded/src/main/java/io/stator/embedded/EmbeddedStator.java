package io.stator.embedded;

import io.stator.engine.capacity.ThroughputSettings;
import io.stator.engine.index.PropagationDelay;
import io.stator.server.ServerOptions;
import io.stator.server.StatorServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.UUID;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.enhanced.dynamodb.DynamoDbEnhancedClient;
import software.amazon.awssdk.http.nio.netty.NettyNioAsyncHttpClient;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/**
 * A Stator started inside the caller's JVM: a real server listening on a real port, over real
 * RocksDB (in memory or on a directory), reached through the AWS SDK like any DynamoDB endpoint.
 * Each instance is independent of the others in the JVM (its own port, storage and clock).
 *
 * <pre>{@code
 * try (EmbeddedStator stator = EmbeddedStator.builder().start()) {
 *     stator.client().listTables();
 *     stator.clock().advance(Duration.ofHours(2));   // TTL, streams, token buckets: two hours on
 * }
 * }</pre>
 *
 * <p>The ready-made clients are made on first use and closed with the server.
 */
public final class EmbeddedStator implements AutoCloseable {

    private final StatorServer server;
    private final StatorClock clock;
    private final String region;
    private final AwsCredentialsProvider credentials;
    private final Path ownedDirectory;
    private final Path ownedCredentialsFile;
    private final URI endpoint;
    private DynamoDbClient client;
    private DynamoDbAsyncClient asyncClient;
    private DynamoDbEnhancedClient enhancedClient;
    private DynamoDbStreamsClient streamsClient;
    private final List<AutoCloseable> closeables = new ArrayList<>();

    private EmbeddedStator(StatorServer server, StatorClock clock, String region, AwsCredentialsProvider credentials,
                           Path ownedDirectory, Path ownedCredentialsFile) {
        this.server = server;
        this.clock = clock;
        this.region = region;
        this.credentials = credentials;
        this.ownedDirectory = ownedDirectory;
        this.ownedCredentialsFile = ownedCredentialsFile;
        this.endpoint = URI.create(server.endpoint());
        // Time to Live deletions that fell due are done when advance returns.
        clock.afterAdvance(() -> {
            try {
                server.engine().timeToLive().expirer().awaitRound(30_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
    }

    /** A builder with the defaults: in memory, a free port on 127.0.0.1, us-east-1, any credentials. */
    public static Builder builder() {
        return new Builder();
    }

    /** The URL to point clients at, e.g. {@code http://127.0.0.1:41234}. */
    public URI endpoint() {
        return endpoint;
    }

    /** The port the server listens on. */
    public int port() {
        return server.port();
    }

    /** The region the server answers as (and the ready-made clients sign for). */
    public String region() {
        return region;
    }

    /** The credentials the ready-made clients sign with. */
    public AwsCredentialsProvider credentialsProvider() {
        return credentials;
    }

    /** The server's clock: {@link StatorClock#advance} moves every timed mechanism forward. */
    public StatorClock clock() {
        return clock;
    }

    /** A synchronous DynamoDB client of this server. */
    public synchronized DynamoDbClient client() {
        if (client == null) {
            client = keep(DynamoDbClient.builder().endpointOverride(endpoint).region(Region.of(region))
                    .credentialsProvider(credentials).httpClient(UrlConnectionHttpClient.create()).build());
        }
        return client;
    }

    /** An asynchronous DynamoDB client of this server. */
    public synchronized DynamoDbAsyncClient asyncClient() {
        if (asyncClient == null) {
            asyncClient = keep(DynamoDbAsyncClient.builder().endpointOverride(endpoint).region(Region.of(region))
                    .credentialsProvider(credentials).httpClient(NettyNioAsyncHttpClient.create()).build());
        }
        return asyncClient;
    }

    /** The Enhanced Client over {@link #client()}. */
    public synchronized DynamoDbEnhancedClient enhancedClient() {
        if (enhancedClient == null) {
            enhancedClient = DynamoDbEnhancedClient.builder().dynamoDbClient(client()).build();
        }
        return enhancedClient;
    }

    /** A DynamoDB Streams client of this server (Stator serves Streams on the same endpoint). */
    public synchronized DynamoDbStreamsClient streamsClient() {
        if (streamsClient == null) {
            streamsClient = keep(DynamoDbStreamsClient.builder().endpointOverride(endpoint).region(Region.of(region))
                    .credentialsProvider(credentials).httpClient(UrlConnectionHttpClient.create()).build());
        }
        return streamsClient;
    }

    private <T extends AutoCloseable> T keep(T closeable) {
        closeables.add(closeable);
        return closeable;
    }

    /**
     * Creates the table described by {@code json}, the request {@code aws dynamodb create-table
     * --cli-input-json} takes (CreateTable's own request), and waits until it and its indexes are
     * ACTIVE. DynamoDB's error, if any, is thrown as the SDK throws it.
     */
    public void createTable(String json) {
        awaitActive(JsonRequests.send(this, "CreateTable", json).tableName());
    }

    /**
     * Waits until the table and its global indexes are ACTIVE, polling every few milliseconds
     * (the SDK's waiter polls every 20 s, far longer than Stator takes), and describes it.
     */
    public TableDescription awaitActive(String table) {
        return Tables.awaitActive(client(), table);
    }

    /**
     * Writes the items of {@code json}, in the format {@code aws dynamodb batch-write-item
     * --request-items} takes ({@code {"Table": [{"PutRequest": {"Item": {...}}}, ...]}}), in
     * batches of 25, until none is left unprocessed.
     */
    public void seed(String json) {
        JsonRequests.batchWrite(this, json);
    }

    /**
     * Deletes every item of every table, keeping the tables, their indexes and settings: faster
     * than creating them again. The items go as DeleteItem would take them (index entries
     * removed; a table with a stream gets their REMOVE records).
     */
    public void resetItems() {
        Tables.deleteAllItems(client());
    }

    /**
     * Waits until every change written so far has reached its global secondary indexes (waiting
     * out a {@code gsiPropagationDelay} too), for a test that reads an index after writing without
     * synchronous propagation; at most {@code timeout}.
     *
     * @throws IllegalStateException when changes are still on their way after {@code timeout}
     */
    public void awaitIndexes(Duration timeout) {
        try {
            if (!server.engine().indexPropagator().awaitIdle(timeout.toMillis())) {
                throw new IllegalStateException("global secondary indexes still behind after " + timeout);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for global secondary indexes", e);
        }
    }

    /** Stops the server, closes the clients and deletes the storage the builder made. */
    @Override
    public synchronized void close() {
        for (AutoCloseable c : closeables) {
            try {
                c.close();
            } catch (Exception ignored) {
                // Closing a client cannot fail in a way a test could act on.
            }
        }
        closeables.clear();
        server.close();
        if (ownedDirectory != null) deleteRecursively(ownedDirectory);
        if (ownedCredentialsFile != null) deleteRecursively(ownedCredentialsFile);
    }

    private static void deleteRecursively(Path path) {
        if (!Files.exists(path)) return;
        try (Stream<Path> paths = Files.walk(path)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** What to start: every option of {@code bin/stator} that makes sense in a test. */
    public static final class Builder {
        private boolean inMemory = true;
        private Path dataDirectory;
        private String host = "127.0.0.1";
        private int port;
        private String region = "us-east-1";
        private String accountId;
        private String accessKey = "stator";
        private String secretKey = "stator";
        private boolean verifySignatures;
        private ThroughputSettings.Mode throughput = ThroughputSettings.Mode.ENFORCE;
        private boolean fsync;
        private Duration ttlDelay = Duration.ZERO;
        private PropagationDelay gsiPropagationDelay;
        private UnaryOperator<ServerOptions> adjust = UnaryOperator.identity();

        private Builder() {}

        /** Keeps the data in memory (the default): nothing on disk, gone at close. */
        public Builder inMemory() {
            this.inMemory = true;
            this.dataDirectory = null;
            return this;
        }

        /**
         * Keeps the data on {@code directory}, which outlives the server (start another on it to
         * find the data again). {@code null}: a new temporary directory, deleted at close.
         */
        public Builder dataDirectory(Path directory) {
            this.inMemory = false;
            this.dataDirectory = directory;
            return this;
        }

        /** The port to listen on; 0 (the default) takes a free one. */
        public Builder port(int port) {
            if (port < 0 || port > 65_535) throw new IllegalArgumentException("port out of range: " + port);
            this.port = port;
            return this;
        }

        /** The address to listen on; 127.0.0.1 by default. */
        public Builder host(String host) {
            this.host = Objects.requireNonNull(host, "host");
            return this;
        }

        /** The region the server answers as (in ARNs and stream ARNs); us-east-1 by default. */
        public Builder region(String region) {
            this.region = Objects.requireNonNull(region, "region");
            return this;
        }

        /** The 12-digit account in ARNs; Stator's default account by default. */
        public Builder accountId(String accountId) {
            this.accountId = Objects.requireNonNull(accountId, "accountId");
            return this;
        }

        /** The credentials the ready-made clients sign with ("stator"/"stator" by default). */
        public Builder credentials(String accessKeyId, String secretAccessKey) {
            this.accessKey = Objects.requireNonNull(accessKeyId, "accessKeyId");
            this.secretKey = Objects.requireNonNull(secretAccessKey, "secretAccessKey");
            return this;
        }

        /**
         * Makes the server verify signatures against the {@link #credentials} (off by default:
         * any well-formed signature passes, as on DynamoDB Local). When verifying, request times
         * are checked against the server's clock as DynamoDB checks them (15 minutes), so after
         * {@link StatorClock#advance} of more than that, clients signing with their own time are
         * refused.
         */
        public Builder verifySignatures(boolean verify) {
            this.verifySignatures = verify;
            return this;
        }

        /**
         * Whether capacity limits throttle ({@code ENFORCE}, the default, as DynamoDB does) or are
         * only computed and reported ({@code REPORT}).
         */
        public Builder throughput(ThroughputSettings.Mode mode) {
            this.throughput = Objects.requireNonNull(mode, "mode");
            return this;
        }

        /** Whether each write waits for the disk before it is acknowledged (off by default). */
        public Builder fsync(boolean fsync) {
            this.fsync = fsync;
            return this;
        }

        /** How late Time to Live deletes an expired item (none by default; DynamoDB: up to days). */
        public Builder ttlDelay(Duration delay) {
            this.ttlDelay = Objects.requireNonNull(delay, "delay");
            return this;
        }

        /**
         * How late changes reach global secondary indexes: unset, as soon as possible after the
         * write answers (DynamoDB's milliseconds); {@link Duration#ZERO}, before it answers (as
         * DynamoDB Local: a read of the index right after a write finds it); else that delay.
         */
        public Builder gsiPropagationDelay(Duration delay) {
            long millis = Objects.requireNonNull(delay, "delay").toMillis();
            this.gsiPropagationDelay = millis == 0 ? PropagationDelay.SYNCHRONOUS : new PropagationDelay(millis, millis);
            return this;
        }

        /** Any other server option, e.g. {@code o -> o.with(m -> m.itemCollectionLimitBytes = 1 << 20)}. */
        public Builder options(UnaryOperator<ServerOptions> adjust) {
            UnaryOperator<ServerOptions> before = this.adjust;
            this.adjust = o -> adjust.apply(before.apply(o));
            return this;
        }

        /** Starts the server; it is listening when this returns. */
        public EmbeddedStator start() {
            Path ownedDirectory = null;
            Path ownedCredentials = null;
            try {
                Path directory = dataDirectory;
                if (!inMemory && directory == null) {
                    directory = ownedDirectory = Files.createTempDirectory("stator-embedded-");
                } else if (inMemory) {
                    // Only a name inside RocksDB's memory environment (one per server): nothing is
                    // created there. Exports (S3 in a directory) go beside it, made on the first one.
                    directory = Path.of(System.getProperty("java.io.tmpdir"), "stator-embedded-" + UUID.randomUUID());
                    ownedDirectory = directory;
                }
                Path exports = inMemory ? directory.resolve("s3") : null;
                StatorClock clock = new StatorClock();
                PropagationDelay lateness = new PropagationDelay(ttlDelay.toMillis(), ttlDelay.toMillis());
                ServerOptions options = ServerOptions.defaults(directory).with(o -> {
                    o.inMemory = inMemory;
                    o.host = host;
                    o.port = port;
                    o.region = region;
                    if (accountId != null) o.accountId = accountId;
                    o.clock = clock;
                    o.fsync = fsync;
                    o.ttlDelay = lateness;
                    if (gsiPropagationDelay != null) o.gsiPropagationDelay = gsiPropagationDelay;
                    o.throughput = o.throughput.withMode(throughput);
                    if (exports != null) o.s3Directory = exports;
                });
                if (verifySignatures) {
                    ownedCredentials = Files.createTempFile("stator-embedded-credentials-", ".txt");
                    Files.writeString(ownedCredentials, accessKey + " " + secretKey + "\n");
                    options = options.withCredentials(ownedCredentials);
                }
                StatorServer server = StatorServer.start(adjust.apply(options));
                return new EmbeddedStator(server, clock, region,
                        StaticCredentialsProvider.create(AwsBasicCredentials.create(accessKey, secretKey)),
                        ownedDirectory, ownedCredentials);
            } catch (Exception e) {
                if (ownedDirectory != null) deleteRecursively(ownedDirectory);
                if (ownedCredentials != null) deleteRecursively(ownedCredentials);
                throw new IllegalStateException("Stator did not start: " + e.getMessage(), e);
            }
        }
    }
}
