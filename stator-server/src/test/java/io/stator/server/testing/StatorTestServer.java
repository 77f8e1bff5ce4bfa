package io.stator.server.testing;

import io.stator.engine.capacity.ThroughputSettings;
import io.stator.server.ServerOptions;
import io.stator.server.StatorServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.retry.RetryMode;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.CreateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

/**
 * A real Stator for tests: listening on a free port, storing in a fresh temporary directory with
 * real RocksDB, reached through the AWS SDK for Java v2 like any client. Close it to stop the
 * server and delete the directory.
 */
public final class StatorTestServer implements AutoCloseable {

    public static final String ACCESS_KEY = "AKIDSTATORTEST";
    public static final String SECRET_KEY = "stator-test-secret";

    private final Path dataDirectory;
    private final boolean ownsDirectory;
    private ServerOptions options;
    private StatorServer server;
    private DynamoDbClient client;

    private StatorTestServer(Path dataDirectory, boolean ownsDirectory, ServerOptions options) {
        this.dataDirectory = dataDirectory;
        this.ownsDirectory = ownsDirectory;
        this.options = options;
    }

    /** A server on a free port over a new temporary directory. */
    /** Capacity computed and reported, nothing throttled: the test servers' default. */
    public static final ThroughputSettings REPORT_ONLY = new ThroughputSettings(ThroughputSettings.Mode.REPORT,
            ThroughputSettings.DEFAULT_SPLIT_DELAY_MILLIS, ThroughputSettings.DEFAULT_TABLE_QUOTA_UNITS);

    public static StatorTestServer start() {
        return start(opts -> opts);
    }

    /** As {@link #start()}, with options adjusted (credentials, clock, ...). */
    public static StatorTestServer start(java.util.function.UnaryOperator<ServerOptions> adjust) {
        try {
            Path dir = Files.createTempDirectory("stator-test-");
            // Functional tests load data faster than a new DynamoDB table would take it: they report
            // capacity without throttling. Tests of throttling ask for it (ThroughputSettings.DEFAULTS).
            ServerOptions options = ServerOptions.defaults(dir).withPort(0).withThroughput(REPORT_ONLY);
            StatorTestServer s = new StatorTestServer(dir, true, adjust.apply(TestBackend.on(options)));
            s.startServer();
            return s;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void startServer() {
        try {
            server = StatorServer.start(options);
        } catch (Exception e) {
            throw new IllegalStateException("could not start Stator", e);
        }
        options = options.withPort(server.port());
        client = newClient(ACCESS_KEY, SECRET_KEY);
    }

    /** Stops the server and starts it again on the same port and directory. */
    public void restart() {
        client.close();
        server.close();
        startServer();
    }

    public DynamoDbClient client() { return client; }

    public URI endpoint() { return URI.create(server.endpoint()); }

    public int port() { return server.port(); }

    /** The --metrics-port server's port, or -1 without one. */
    public int metricsPort() { return server.metricsPort(); }

    public io.stator.engine.Engine engine() { return server.engine(); }

    /** The server's exports and imports. */
    public io.stator.server.transfer.Transfers transfers() { return server.transfers(); }

    public Path dataDirectory() { return dataDirectory; }

    /** A client with other credentials (for authentication tests). Close it when done. */
    public DynamoDbClient newClient(String accessKey, String secretKey) {
        return newClient(URI.create(server.endpoint()), options.region(),
                AwsBasicCredentials.create(accessKey, secretKey), List.of());
    }

    /**
     * A client whose requests and responses also pass through the interceptors (to see the raw
     * response, say). Close it when done.
     */
    public DynamoDbClient newClient(ExecutionInterceptor... interceptors) {
        return newClient(URI.create(server.endpoint()), options.region(),
                AwsBasicCredentials.create(ACCESS_KEY, SECRET_KEY), List.of(interceptors));
    }

    /** A client of the Stator at {@code endpoint}, which answers every request once (no retries). */
    public static DynamoDbClient newClient(URI endpoint, String region, String accessKey, String secretKey) {
        return newClient(endpoint, region, AwsBasicCredentials.create(accessKey, secretKey), List.of());
    }

    /** A client of any Stator (or DynamoDB) endpoint that does not retry. Close it when done. */
    public static DynamoDbClient newClient(URI endpoint, String region, AwsCredentials credentials) {
        return newClient(endpoint, region, credentials, List.of());
    }

    private static DynamoDbClient newClient(URI endpoint, String region, AwsCredentials credentials,
                                            List<ExecutionInterceptor> interceptors) {
        return DynamoDbClient.builder()
                .endpointOverride(endpoint)
                .region(Region.of(region))
                .credentialsProvider(StaticCredentialsProvider.create(credentials))
                .httpClient(UrlConnectionHttpClient.builder().socketTimeout(Duration.ofSeconds(30)).build())
                .overrideConfiguration(ClientOverrideConfiguration.builder()
                        // Retries would hide the first answer, which is what tests check.
                        .retryStrategy(RetryMode.STANDARD).retryStrategy(b -> b.maxAttempts(1))
                        .executionInterceptors(interceptors)
                        .build())
                .build();
    }

    /** Creates an on-demand table keyed by a string hash key named "id", the shape most tests need. */
    public static void createTable(DynamoDbClient client, String table) {
        client.createTable(CreateTableRequest.builder().tableName(table).billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(AttributeDefinition.builder().attributeName("id")
                        .attributeType(ScalarAttributeType.S).build())
                .keySchema(KeySchemaElement.builder().attributeName("id").keyType(KeyType.HASH).build())
                .build());
    }

    /** A unique, valid table name. */
    public static String tableName() {
        return "t-" + UUID.randomUUID();
    }

    @Override
    public void close() {
        if (client != null) client.close();
        if (server != null) server.close();
        if (ownsDirectory) deleteRecursively(dataDirectory);
    }

    public static void deleteRecursively(Path dir) {
        if (!Files.exists(dir)) return;
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
