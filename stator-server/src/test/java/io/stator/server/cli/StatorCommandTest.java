package io.stator.server.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stator.engine.index.PropagationDelay;
import io.stator.server.testing.CommandProcess;
import io.stator.server.testing.RawHttp;
import io.stator.server.testing.StatorTestServer;
import io.stator.server.testing.StreamReading;
import io.stator.server.testing.TestCertificates;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/**
 * The command line as its users meet it: the real main class in its own JVM, with the class
 * path of this test run. What it prints, when, and how it exits, is its interface: scripts wait
 * for the one "listening" line, and read one line of reason when it fails.
 */
class StatorCommandTest {

    private static final Pattern LISTENING = Pattern.compile("Stator listening on http://([0-9.]+):(\\d+)");
    private static final Duration STARTUP = Duration.ofSeconds(60);
    private static final Duration EXIT = Duration.ofSeconds(60);

    private Path dir;
    private final List<CommandProcess> launched = new ArrayList<>();

    @BeforeEach
    void createDirectory() throws IOException {
        dir = Files.createTempDirectory("stator-cli-");
    }

    @AfterEach
    void stopEverythingAndDeleteDirectory() {
        for (CommandProcess l : launched) l.close();
        StatorTestServer.deleteRecursively(dir);
    }

    // ---- starting and stopping --------------------------------------------------------------

    @Test
    void printsExactlyOneLineWithTheEndpointWhenReady() throws Exception {
        CommandProcess stator = launch("--port", "0", "--data-dir", dir.resolve("data").toString());
        String line = stator.awaitLine(STARTUP);
        Matcher m = LISTENING.matcher(line);

        assertTrue(m.matches(), line);
        assertEquals("127.0.0.1", m.group(1));
        // Ready means ready: the endpoint answers as soon as the line is out.
        assertEquals(200, RawHttp.exchange(Integer.parseInt(m.group(2)),
                new RawHttp.Request("GET", "/", Map.of(), new byte[0])).status());
        int exit = stator.stop();
        assertTrue(exit == 0 || exit == 143, "exit code " + exit);
        assertEquals(List.of(line), stator.stdoutLines());
        assertEquals("", stator.stderr());
    }

    @Test
    void listensOnTheGivenPort() throws Exception {
        int port;
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = probe.getLocalPort();
        }
        CommandProcess stator = launch("--port", Integer.toString(port), "--data-dir", dir.resolve("data").toString());

        assertEquals("Stator listening on http://127.0.0.1:" + port, stator.awaitLine(STARTUP));
    }

    @Test
    void sigtermStopsCleanlyAndARestartOnTheSameDirectorySeesTheData() throws Exception {
        String data = dir.resolve("data").toString();
        CommandProcess first = launch("--port", "0", "--data-dir", data);
        String table = StatorTestServer.tableName();
        Map<String, AttributeValue> item = Map.of("id", AttributeValue.fromS("kept"), "n", AttributeValue.fromN("7"));
        try (DynamoDbClient client = client(first.awaitLine(STARTUP))) {
            StatorTestServer.createTable(client, table);
            client.putItem(b -> b.tableName(table).item(item));
        }

        int exit = first.stop(); // Process.destroy() sends SIGTERM

        assertTrue(exit == 0 || exit == 143, "exit code " + exit);
        assertEquals("", first.stderr());
        CommandProcess second = launch("--port", "0", "--data-dir", data);
        try (DynamoDbClient client = client(second.awaitLine(STARTUP))) {
            assertTrue(client.listTables().tableNames().contains(table));
            assertEquals(item, client.getItem(b -> b.tableName(table).key(Map.of("id", item.get("id")))).item());
        }
    }

    @Test
    void inMemoryWritesNothingToTheDataDirectory() throws Exception {
        Path data = dir.resolve("data");
        CommandProcess stator = launch("--in-memory", "--port", "0", "--data-dir", data.toString());
        String table = StatorTestServer.tableName();
        try (DynamoDbClient client = client(stator.awaitLine(STARTUP))) {
            StatorTestServer.createTable(client, table);
            client.putItem(b -> b.tableName(table).item(Map.of("id", AttributeValue.fromS("x"))));
        }
        stator.stop();

        if (Files.exists(data)) {
            try (Stream<Path> files = Files.walk(data)) {
                assertEquals(List.of(data), files.toList());
            }
        }
        try (Stream<Path> files = Files.list(dir)) {
            assertTrue(files.allMatch(data::equals), "nothing beside the data directory either");
        }
    }

    @Test
    void listensOnAllInterfacesWhenAllowedAnonymously() throws Exception {
        CommandProcess stator = launch("--host", "0.0.0.0", "--allow-anonymous", "--port", "0",
                "--data-dir", dir.resolve("data").toString());
        Matcher m = LISTENING.matcher(stator.awaitLine(STARTUP));

        assertTrue(m.matches());
        assertEquals("0.0.0.0", m.group(1));
        assertEquals(200, RawHttp.exchange(Integer.parseInt(m.group(2)),
                new RawHttp.Request("GET", "/", Map.of(), new byte[0])).status());
    }

    @Test
    void listensOnAllInterfacesWithCredentials() throws Exception {
        Path credentials = dir.resolve("credentials");
        Files.writeString(credentials, "AKIDCLI cli-secret\n");
        CommandProcess stator = launch("--host", "0.0.0.0", "--credentials", credentials.toString(), "--port", "0",
                "--data-dir", dir.resolve("data").toString());
        Matcher m = LISTENING.matcher(stator.awaitLine(STARTUP));

        assertTrue(m.matches());
        try (DynamoDbClient client = client("Stator listening on http://127.0.0.1:" + m.group(2), "AKIDCLI",
                "cli-secret")) {
            assertTrue(client.listTables().tableNames().isEmpty());
        }
    }

    @Test
    void withCredentialsOnEveryAddressTheMetricsAreServedOnlyOnMetricsPort() throws Exception {
        Path credentials = dir.resolve("credentials");
        Files.writeString(credentials, "AKIDCLI cli-secret\n");
        int metricsPort;
        try (ServerSocket free = new ServerSocket(0)) {
            metricsPort = free.getLocalPort();
        }
        CommandProcess stator = launch("--host", "0.0.0.0", "--credentials", credentials.toString(), "--port", "0",
                "--metrics-port", Integer.toString(metricsPort), "--data-dir", dir.resolve("data").toString());
        Matcher m = LISTENING.matcher(stator.awaitLine(STARTUP));
        assertTrue(m.matches());
        try (DynamoDbClient client = client("Stator listening on http://127.0.0.1:" + m.group(2), "AKIDCLI",
                "cli-secret")) {
            client.listTables();
        }
        RawHttp.Request scrape = new RawHttp.Request("GET", "/metrics", Map.of(), new byte[0]);
        // Unsigned, on the DynamoDB port: the 404 any other GET gets.
        assertEquals(404, RawHttp.exchange(Integer.parseInt(m.group(2)), scrape).status());
        RawHttp.Response metrics = RawHttp.exchange(metricsPort, scrape);
        assertEquals(200, metrics.status());
        assertTrue(metrics.bodyText().contains("dynamodb_successful_request_latency_seconds_count{"
                + "cloudwatch_metric=\"SuccessfulRequestLatency\",index=\"\",operation=\"ListTables\",table=\"\"} 1"),
                metrics.bodyText());
    }

    // ---- refusing to start --------------------------------------------------------------------

    @Test
    void aMetricsPortInUseIsRefusedWithOneLine() throws Exception {
        try (ServerSocket taken = new ServerSocket()) {
            taken.bind(new InetSocketAddress("127.0.0.1", 0));
            String port = Integer.toString(taken.getLocalPort());
            String reason = assertRefused(launch("--port", "0", "--metrics-port", port, "--data-dir",
                    dir.resolve("data").toString()), port);
            assertTrue(reason.contains("--metrics-port"), reason);
        }
    }

    @Test
    void helpPrintsUsageAndExitsZero() throws Exception {
        CommandProcess stator = launch("--help");

        assertEquals(0, stator.awaitExit(EXIT));
        String usage = String.join("\n", stator.stdoutLines());
        assertTrue(usage.startsWith("Usage: stator"), usage);
        for (String option : List.of("--host", "--port", "--data-dir", "--in-memory", "--credentials",
                "--allow-anonymous", "--tls-cert", "--tls-key", "--idle-timeout", "--header-timeout", "--body-timeout",
                "--max-connections", "--ttl-delay", "--memory", "--stream-delay", "--table-creation-delay", "--kinesis-endpoint", "--pitr-restorable-lag",
                "--stream-shard-period", "--stream-retention", "--metrics-port", "--storage", "--cassandra",
                "--keyspace", "--replication", "--cassandra-datacenter")) {
            assertTrue(usage.contains(option), option + " in " + usage);
        }
    }

    @Test
    void anUnknownFlagIsRefusedWithOneLine() throws Exception {
        assertRefused(launch("--nope"), "--nope");
    }

    @Test
    void aPortThatIsNoNumberIsRefusedWithOneLine() throws Exception {
        assertRefused(launch("--port", "abc"), "abc");
    }

    @Test
    void aPortOutOfRangeIsRefusedWithOneLine() throws Exception {
        assertRefused(launch("--port", "70000", "--data-dir", dir.resolve("data").toString()), "70000");
    }

    @Test
    void aPortInUseIsRefusedWithOneLine() throws Exception {
        try (ServerSocket taken = new ServerSocket()) {
            taken.bind(new InetSocketAddress("127.0.0.1", 0));
            String port = Integer.toString(taken.getLocalPort());
            assertRefused(launch("--port", port, "--data-dir", dir.resolve("data").toString()), port);
        }
    }

    @Test
    void aDataDirectoryInUseByAnotherServerIsRefusedWithOneLine() throws Exception {
        String data = dir.resolve("data").toString();
        CommandProcess first = launch("--port", "0", "--data-dir", data);
        first.awaitLine(STARTUP);

        assertRefused(launch("--port", "0", "--data-dir", data), data);
        assertTrue(first.process().isAlive(), "the first server keeps running");
    }

    @Test
    void allInterfacesWithoutCredentialsAreRefusedWithOneLineSayingWhyAndWhatToAdd() throws Exception {
        String reason = assertRefused(launch("--host", "0.0.0.0", "--port", "0",
                "--data-dir", dir.resolve("data").toString()), "--allow-anonymous");
        assertTrue(reason.contains("read and write every table") && reason.contains("add --credentials FILE"), reason);
        assertFalse(Files.exists(dir.resolve("data")), "refused before touching the data directory");
    }

    @Test
    void tlsWithoutCredentialsOnAllInterfacesIsRefusedToo() throws Exception {
        // TLS hides the traffic; it does not stop anyone who can connect from writing.
        TestCertificates certs = TestCertificates.get();
        String reason = assertRefused(launch("--host", "0.0.0.0", "--port", "0", "--data-dir",
                dir.resolve("data").toString(), "--tls-cert", certs.serverCertificateChain().toString(),
                "--tls-key", certs.serverKey().toString()), "--credentials");
        assertTrue(reason.contains("--allow-anonymous"), reason);
    }

    // ---- global tables' peers ----------------------------------------------------------------

    @Test
    void replicaPeersAreCheckedWithOneLine() throws Exception {
        String data = dir.resolve("data").toString();
        assertRefused(launch("--port", "0", "--data-dir", data, "--replica-peers", "us-west-2=http://127.0.0.1:1"),
                "--replica-peers needs --replication-secret");
        assertRefused(launch("--port", "0", "--data-dir", data, "--replication-secret", "s", "--replica-peers",
                "us-west-2"), "--replica-peers wants REGION=URL");
        assertRefused(launch("--port", "0", "--data-dir", data, "--replication-secret", "s", "--replica-peers",
                "us-east-1=http://127.0.0.1:1"), "--replica-peers names this server's own region us-east-1");
        assertRefused(launch("--port", "0", "--data-dir", data, "--replication-secret", "s", "--replica-peers",
                "us-west-2=ftp://x"), "wants an http(s)://host:port URL");
        assertRefused(launch("--port", "0", "--data-dir", data, "--replication-secret", "s", "--replica-peers",
                "us-west-2=http://127.0.0.1:1", "--consensus-port", "65536"),
                "--consensus-port must be between 0 and 65535, got 65536");
        assertFalse(Files.exists(dir.resolve("data")), "refused before touching the data directory");
    }

    // ---- the storage: RocksDB or a Cassandra cluster ------------------------------------------

    @Test
    void anUnknownStorageIsRefusedWithOneLine() throws Exception {
        assertRefused(launch("--port", "0", "--data-dir", dir.resolve("data").toString(), "--storage", "dynamo"),
                "--storage must be rocksdb or cassandra, got 'dynamo'");
    }

    @Test
    void cassandraOptionsWithoutStorageCassandraAreRefusedWithOneLine() throws Exception {
        for (String[] option : new String[][] {{"--cassandra", "127.0.0.1"}, {"--keyspace", "stator"},
                {"--replication", "3"}, {"--cassandra-datacenter", "datacenter1"}}) {
            assertRefused(launch("--port", "0", "--data-dir", dir.resolve("data").toString(), option[0], option[1]),
                    option[0] + " needs --storage cassandra");
        }
        assertRefused(launch("--port", "0", "--storage", "rocksdb", "--cassandra", "127.0.0.1"),
                "--cassandra needs --storage cassandra");
        assertFalse(Files.exists(dir.resolve("data")), "refused before touching the data directory");
    }

    @Test
    void storageCassandraWithoutContactPointsIsRefusedWithOneLine() throws Exception {
        assertRefused(launch("--port", "0", "--storage", "cassandra"),
                "--storage cassandra needs --cassandra HOST[:PORT],...");
    }

    @Test
    void rocksDbsOptionsWithStorageCassandraAreRefusedWithOneLine() throws Exception {
        String[] cassandra = {"--port", "0", "--storage", "cassandra", "--cassandra", "127.0.0.1:1"};
        assertRefused(launch(concat(cassandra, "--data-dir", dir.resolve("data").toString())),
                "--data-dir is for --storage rocksdb: with --storage cassandra the data is in the cluster (with "
                        + "--consensus-port, it holds the consensus server's Raft logs)");
        assertRefused(launch(concat(cassandra, "--in-memory")), "--in-memory is for --storage rocksdb");
        assertRefused(launch(concat(cassandra, "--fsync")), "--fsync is for --storage rocksdb");
        assertFalse(Files.exists(dir.resolve("data")));
    }

    @Test
    void cassandraOptionsThatCannotBeAreRefusedWithOneLine() throws Exception {
        String[] cassandra = {"--port", "0", "--storage", "cassandra"};
        assertRefused(launch(concat(cassandra, "--cassandra", "127.0.0.1:x")),
                "--cassandra must be HOST[:PORT] addresses separated by commas, got '127.0.0.1:x' ('127.0.0.1:x' is "
                        + "not HOST[:PORT])");
        assertRefused(launch(concat(cassandra, "--cassandra", "127.0.0.1,,127.0.0.2")), "('' is not HOST[:PORT])");
        assertRefused(launch(concat(cassandra, "--cassandra", "127.0.0.1:70000")), "'127.0.0.1:70000' is not");
        assertRefused(launch(concat(cassandra, "--cassandra", "127.0.0.1", "--keyspace", "Stator")),
                "--keyspace must be a lowercase letter and up to 47 more lowercase letters, digits or underscores, "
                        + "got 'Stator'");
        assertRefused(launch(concat(cassandra, "--cassandra", "127.0.0.1", "--replication", "0")),
                "--replication must be at least 1, got 0");
    }

    @Test
    void aCassandraClusterThatCannotBeReachedIsRefusedWithOneLine() throws Exception {
        // Nothing listens on port 1: the driver's connection is refused at once.
        String reason = assertRefused(launch("--port", "0", "--storage", "cassandra", "--cassandra", "127.0.0.1:1"),
                "cannot reach the Cassandra cluster at 127.0.0.1:1 (--cassandra)");
        assertTrue(reason.toLowerCase(java.util.Locale.ROOT).contains("refused"), reason);
    }

    private static String[] concat(String[] first, String... more) {
        return Stream.concat(Stream.of(first), Stream.of(more)).toArray(String[]::new);
    }

    // ---- TLS and connection limits ------------------------------------------------------------

    private static final Pattern LISTENING_TLS = Pattern.compile("Stator listening on https://([0-9.]+):(\\d+)");

    @Test
    void servesHttpsWithTlsCertAndKey() throws Exception {
        TestCertificates certs = TestCertificates.get();
        CommandProcess stator = launch("--port", "0", "--data-dir", dir.resolve("data").toString(),
                "--tls-cert", certs.serverCertificateChain().toString(), "--tls-key", certs.serverKey().toString());
        String line = stator.awaitLine(STARTUP);
        Matcher m = LISTENING_TLS.matcher(line);

        assertTrue(m.matches(), line);
        try (DynamoDbClient client = certs.client(URI.create("https://127.0.0.1:" + m.group(2)))) {
            assertTrue(client.listTables().tableNames().isEmpty());
        }
        int exit = stator.stop();
        assertTrue(exit == 0 || exit == 143, "exit code " + exit);
        assertEquals("", stator.stderr());
    }

    @Test
    void aTlsCertificateWithoutAKeyIsRefusedWithOneLine() throws Exception {
        assertRefused(launch("--port", "0", "--data-dir", dir.resolve("data").toString(), "--tls-cert",
                TestCertificates.get().serverCertificateChain().toString()), "--tls-key");
    }

    @Test
    void aTlsKeyOfAnotherCertificateIsRefusedWithOneLine() throws Exception {
        TestCertificates certs = TestCertificates.get();
        assertRefused(launch("--port", "0", "--data-dir", dir.resolve("data").toString(),
                "--tls-cert", certs.serverCertificateChain().toString(), "--tls-key", certs.otherKey().toString()),
                certs.otherKey().toString());
        assertFalse(Files.exists(dir.resolve("data")), "refused before touching the data directory");
    }

    @Test
    void aTimeoutWithoutAUnitIsRefusedWithOneLine() throws Exception {
        assertRefused(launch("--port", "0", "--data-dir", dir.resolve("data").toString(), "--idle-timeout", "30"),
                "--idle-timeout");
    }

    @Test
    void aTtlDelayThatIsNoDurationIsRefusedWithOneLine() throws Exception {
        assertRefused(launch("--port", "0", "--data-dir", dir.resolve("data").toString(), "--table-creation-delay",
                "soon"), "--table-creation-delay must be a duration such as 500ms, 20s or 2m, got 'soon'");
        assertRefused(launch("--port", "0", "--data-dir", dir.resolve("data").toString(), "--ttl-delay", "soon"),
                "--ttl-delay must be a duration such as 30s or a range such as 1h-48h: not a duration: 'soon'");
        assertRefused(launch("--port", "0", "--data-dir", dir.resolve("data").toString(), "--ttl-delay", "48h-1h"),
                "--ttl-delay must be a duration such as 30s or a range such as 1h-48h: the delay range must go from "
                        + "low to high: 48h-1h");
    }

    @Test
    void streamSettingsThatCannotBeAreRefusedWithOneLine() throws Exception {
        assertRefused(launch("--port", "0", "--data-dir", dir.resolve("data").toString(), "--stream-retention", "1d"),
                "--stream-retention must be a duration such as 500ms, 20s or 2m, got '1d'");
    }

    @Test
    void aWriteIsolationThatIsNoneOfAlternatorsIsRefusedWithOneLine() throws Exception {
        assertRefused(launch("--port", "0", "--data-dir", dir.resolve("data").toString(), "--write-isolation", "o"),
                "--write-isolation must be one of always_use_lwt, only_rmw_uses_lwt, forbid_rmw, unsafe_rmw, got 'o'");
        assertFalse(Files.exists(dir.resolve("data")), "refused before touching the data directory");
    }

    @Test
    void throughputSettingsThatCannotBeAreRefusedWithOneLine() throws Exception {
        assertRefused(launch("--port", "0", "--data-dir", dir.resolve("data").toString(), "--throughput", "bogus"),
                "--throughput must be enforce or report, got 'bogus'");
        assertRefused(launch("--port", "0", "--data-dir", dir.resolve("data").toString(),
                        "--partition-split-delay", "5"),
                "--partition-split-delay must be a duration such as 500ms, 20s or 2m, got '5'");
        assertFalse(Files.exists(dir.resolve("data")), "refused before touching the data directory");
    }

    @Test
    void anAdvisorScaleThatIsNoPositiveNumberIsRefusedWithOneLine() throws Exception {
        for (String scale : List.of("0", "-1", "x", "Infinity")) {
            assertRefused(launch("--port", "0", "--data-dir", dir.resolve("data").toString(), "--advisor-scale", scale),
                    "--advisor-scale must be a positive number such as 1 or 100, got '" + scale + "'");
        }
        assertFalse(Files.exists(dir.resolve("data")), "refused before touching the data directory");
    }

    @Test
    void streamSettingsShapeANewStream() throws Exception {
        CommandProcess stator = launch("--port", "0", "--data-dir", dir.resolve("data").toString(),
                "--stream-shard-period", "1h", "--stream-retention", "2h");
        String listening = stator.awaitLine(STARTUP);
        Matcher m = matchListening(listening);
        try (DynamoDbClient client = client(listening);
             DynamoDbStreamsClient streams = StreamReading.client(URI.create("http://127.0.0.1:" + m.group(2)),
                     "us-east-1")) {
            StatorTestServer.createTable(client, "streamed");
            String arn = client.updateTable(b -> b.tableName("streamed").streamSpecification(
                    s -> s.streamEnabled(true).streamViewType(StreamViewType.KEYS_ONLY)))
                    .tableDescription().latestStreamArn();

            // One shard per partition: a new on-demand table has four.
            assertEquals(4, streams.describeStream(b -> b.streamArn(arn)).streamDescription().shards().size());
        }
    }

    @Test
    void aMemoryBudgetBelowTheMinimumIsRefusedWithOneLine() throws Exception {
        assertRefused(launch("--port", "0", "--data-dir", dir.resolve("data").toString(), "--memory", "100MB"),
                "--memory must be at least 256MB");
        assertFalse(Files.exists(dir.resolve("data")), "refused before touching the data directory");
    }

    @Test
    void aMemoryBudgetThatIsNoSizeIsRefusedWithOneLine() throws Exception {
        assertRefused(launch("--port", "0", "--data-dir", dir.resolve("data").toString(), "--memory", "lots"),
                "--memory must be a size such as 10GB, 512MB or 100KB, got 'lots'");
    }

    @Test
    void aMemoryBudgetInTheJvmsUnitsIsServed() throws Exception {
        CommandProcess stator = launch("--port", "0", "--data-dir", dir.resolve("data").toString(), "--memory", "2g");
        matchListening(stator.awaitLine(STARTUP));
    }

    @Test
    void theConnectionTimeoutsReachTheServer() throws Exception {
        CommandProcess stator = launch("--port", "0", "--data-dir", dir.resolve("data").toString(),
                "--idle-timeout", "500ms", "--header-timeout", "3s", "--body-timeout", "500ms");
        int port = Integer.parseInt(matchListening(stator.awaitLine(STARTUP)).group(2));
        Duration closed = Duration.ofSeconds(10);

        try (RawHttp silent = RawHttp.connect(port);
             RawHttp idle = RawHttp.connect(port);
             RawHttp slowBody = RawHttp.connect(port)) {
            assertEquals(200, idle.send(new RawHttp.Request("GET", "/", Map.of(), new byte[0])).read().status());
            slowBody.writeHead("POST", "/", RawHttp.dummySignedHeaders("ListTables"), 2);
            slowBody.write(new byte[] {'{'});

            silent.awaitClose(closed);
            idle.awaitClose(closed);
            slowBody.awaitClose(closed);
        }
    }

    @Test
    void maxConnectionsReachesTheServer() throws Exception {
        CommandProcess stator = launch("--port", "0", "--data-dir", dir.resolve("data").toString(),
                "--max-connections", "1");
        int port = Integer.parseInt(matchListening(stator.awaitLine(STARTUP)).group(2));

        try (RawHttp busy = RawHttp.connect(port)) {
            assertEquals(200, busy.send(new RawHttp.Request("GET", "/", Map.of(), new byte[0])).read().status());
            busy.write("GET / HTTP/1.1\r\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            Thread.sleep(1_000);  // for the server to read it (it takes microseconds)
            try (RawHttp refused = RawHttp.connect(port)) {
                refused.awaitClose(Duration.ofSeconds(10));
            }
        }
    }

    private static Matcher matchListening(String line) {
        Matcher m = LISTENING.matcher(line);
        assertTrue(m.matches(), line);
        return m;
    }

    @Test
    void aMissingCredentialsFileIsRefusedWithOneLine() throws Exception {
        Path missing = dir.resolve("no-such-credentials");
        assertRefused(launch("--credentials", missing.toString(), "--port", "0",
                "--data-dir", dir.resolve("data").toString()), missing.toString());
    }

    @Test
    void aMalformedCredentialsFileIsRefusedWithOneLineThatDoesNotShowTheSecret() throws Exception {
        Path credentials = dir.resolve("credentials");
        Files.writeString(credentials, "AKIDCLI cli-secret cli-session-token extra-field\n");
        String reason = assertRefused(launch("--credentials", credentials.toString(), "--port", "0",
                "--data-dir", dir.resolve("data").toString()), "line 1");
        assertFalse(reason.contains("cli-secret"), reason);
        assertFalse(reason.contains("cli-session-token"), reason);
    }

    @Test
    void aPoliciesFileThatIsNotAPolicyIsRefusedWithOneLineSayingWhere() throws Exception {
        Path credentials = dir.resolve("credentials");
        Files.writeString(credentials, "AKIDCLI cli-secret\n");
        Path policies = dir.resolve("policies.json");
        Files.writeString(policies, "{\"AKIDCLI\": {\"Version\": \"2012-10-17\",\n"
                + "  \"Statement\": [{\"Action\": \"dynamodb:*\", \"Resource\": \"*\"}]}}\n");
        String reason = assertRefused(launch("--credentials", credentials.toString(), "--policies", policies.toString(),
                "--port", "0", "--data-dir", dir.resolve("data").toString()), "Missing required field Effect");
        assertTrue(reason.contains(policies + ", line 2, column 17: access key 'AKIDCLI'"), reason);
        assertFalse(Files.exists(dir.resolve("data")), "refused before touching the data directory");

        Files.writeString(policies, "{\"AKIDCLI\": {\"Statement\": [}}");
        assertRefused(launch("--credentials", credentials.toString(), "--policies", policies.toString(),
                "--port", "0", "--data-dir", dir.resolve("data").toString()), policies + ", line 1, column 28: not valid JSON");

        Files.writeString(policies, "{\"AKIDOTHER\": {\"Statement\": {\"Effect\": \"Allow\", \"Action\": \"*\", "
                + "\"Resource\": \"*\"}}}");
        assertRefused(launch("--credentials", credentials.toString(), "--policies", policies.toString(),
                "--port", "0", "--data-dir", dir.resolve("data").toString()), "access key 'AKIDOTHER' is not in the credentials file");
    }

    @Test
    void policiesWithoutCredentialsAreRefusedWithOneLine() throws Exception {
        Path policies = dir.resolve("policies.json");
        Files.writeString(policies, "{}");
        assertRefused(launch("--policies", policies.toString(), "--port", "0", "--data-dir", dir.resolve("data").toString()),
                "--policies needs --credentials");
    }

    @Test
    void withPoliciesAKeyMayDoOnlyWhatItsPolicyAllows() throws Exception {
        Path credentials = dir.resolve("credentials");
        Files.writeString(credentials, "AKIDCLI cli-secret\nAKIDNONE none-secret\n");
        Path policies = dir.resolve("policies.json");
        Files.writeString(policies, "{\"AKIDCLI\": {\"Version\": \"2012-10-17\", \"Statement\": {\"Effect\": \"Allow\", "
                + "\"Action\": \"dynamodb:List*\", \"Resource\": \"*\"}}}");
        CommandProcess stator = launch("--credentials", credentials.toString(), "--policies", policies.toString(),
                "--port", "0", "--data-dir", dir.resolve("data").toString());
        String line = stator.awaitLine(STARTUP);
        try (DynamoDbClient allowed = client(line, "AKIDCLI", "cli-secret");
             DynamoDbClient none = client(line, "AKIDNONE", "none-secret")) {
            assertTrue(allowed.listTables().tableNames().isEmpty());
            software.amazon.awssdk.services.dynamodb.model.DynamoDbException e = org.junit.jupiter.api.Assertions.assertThrows(
                    software.amazon.awssdk.services.dynamodb.model.DynamoDbException.class, none::listTables);
            assertEquals("AccessDeniedException", e.awsErrorDetails().errorCode());
        }
    }

    /** Exits non-zero, prints nothing on stdout and one line naming {@code mentions} on stderr. */
    private static String assertRefused(CommandProcess stator, String mentions) throws Exception {
        int exit = stator.awaitExit(EXIT);
        String stderr = stator.stderr();

        assertNotEquals(0, exit, stderr);
        assertEquals(List.of(), stator.stdoutLines());
        assertTrue(stderr.endsWith("\n") && stderr.indexOf('\n') == stderr.length() - 1,
                () -> "not one line: " + stderr);
        assertTrue(stderr.startsWith("stator: "), stderr);
        assertTrue(stderr.contains(mentions), () -> "'" + mentions + "' not in: " + stderr);
        return stderr;
    }

    // ---- running the real main class --------------------------------------------------------

    private static DynamoDbClient client(String listeningLine) {
        return client(listeningLine, "AKIDEXAMPLE", "secret");
    }

    private static DynamoDbClient client(String listeningLine, String accessKey, String secret) {
        Matcher m = LISTENING.matcher(listeningLine);
        assertTrue(m.matches(), listeningLine);
        return StatorTestServer.newClient(URI.create("http://127.0.0.1:" + m.group(2)), "us-east-1",
                AwsBasicCredentials.create(accessKey, secret));
    }

    private CommandProcess launch(String... args) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("--enable-native-access=ALL-UNNAMED");
        if (Runtime.version().feature() >= 24) command.add("--sun-misc-unsafe-memory-access=allow");
        command.add("-XX:+UseSerialGC");
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(StatorCommand.class.getName());
        command.addAll(List.of(args));
        CommandProcess l = CommandProcess.start(command, dir, Map.of());
        launched.add(l);
        return l;
    }

    /** --gsi-propagation-delay: unset is as soon as possible; zero, however written, synchronous (issue 38). */
    @Test
    void aZeroGsiPropagationDelayIsSynchronousAndOnlyZero() {
        assertEquals(PropagationDelay.NONE, StatorCommand.gsiPropagationDelay(null));
        for (String zero : List.of("0", "0ms", "0s", "0ms-0s")) {
            assertEquals(PropagationDelay.SYNCHRONOUS, StatorCommand.gsiPropagationDelay(zero), zero);
        }
        assertFalse(StatorCommand.gsiPropagationDelay("1ms").synchronous());
        assertFalse(StatorCommand.gsiPropagationDelay("0ms-1ms").synchronous());
        assertFalse(PropagationDelay.NONE.synchronous());
    }
}
