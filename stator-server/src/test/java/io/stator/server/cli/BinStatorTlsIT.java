package io.stator.server.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stator.server.testing.AwsCli;
import io.stator.server.testing.CommandProcess;
import io.stator.server.testing.CommandProcess.Result;
import io.stator.server.testing.StatorTestServer;
import io.stator.server.testing.TestCertificates;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.protocols.jsoncore.JsonNode;

/**
 * {@code bin/stator --tls-cert --tls-key} as a user runs it, with the AWS CLI trusting the test
 * run's own certificate authority through {@code --ca-bundle}. Runs after {@code package}
 * (failsafe); the AWS CLI must be installed.
 */
class BinStatorTlsIT {

    private static final Path REPO = Path.of(System.getProperty("user.dir")).toAbsolutePath().getParent();
    private static final Duration COMMAND = Duration.ofSeconds(120);

    private static Path dir;
    private static CommandProcess stator;
    private static String endpoint;
    private static TestCertificates certs;

    @BeforeAll
    static void startBinStatorWithTls() throws Exception {
        certs = TestCertificates.get();
        dir = Files.createTempDirectory("stator-tls-it-");
        int port;
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = probe.getLocalPort();
        }
        stator = CommandProcess.start(List.of(REPO.resolve("bin/stator").toString(), "--port",
                Integer.toString(port), "--data-dir", dir.resolve("data").toString(),
                "--tls-cert", certs.serverCertificateChain().toString(), "--tls-key", certs.serverKey().toString()),
                dir, Map.of());
        assertEquals("Stator listening on https://127.0.0.1:" + port, stator.awaitLine(Duration.ofMinutes(10)));
        endpoint = "https://127.0.0.1:" + port;
    }

    @AfterAll
    static void stopBinStator() throws Exception {
        if (stator != null) {
            int exit = stator.stop();
            assertTrue(exit == 0 || exit == 143, "exit code " + exit + "; stderr: " + stator.stderr());
            assertEquals("", stator.stderr());
        }
        if (dir != null) StatorTestServer.deleteRecursively(dir);
    }

    private static Result aws(boolean trustTheTestCa, String... args) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(AwsCli.requireOnPath("aws", "pip install awscli"));
        command.add("dynamodb");
        command.addAll(List.of(args));
        command.addAll(List.of("--endpoint-url", endpoint, "--output", "json"));
        if (trustTheTestCa) command.addAll(List.of("--ca-bundle", certs.caCertificate().toString()));
        return CommandProcess.run(command, dir, AwsCli.environment(dir), COMMAND);
    }

    private static JsonNode awsOk(String... args) throws Exception {
        Result r = aws(true, args);
        assertEquals(0, r.exit(), () -> "aws " + String.join(" ", args) + " failed: " + r);
        return r.stdout().isBlank() ? JsonNode.parser().parse("{}") : JsonNode.parser().parse(r.stdout());
    }

    @Test
    void theAwsCliRunsATablesLifeOverHttpsTrustingTheTestCa() throws Exception {
        String table = StatorTestServer.tableName();
        String key = "{\"id\": {\"S\": \"a\"}}";

        JsonNode created = awsOk("create-table", "--table-name", table,
                "--attribute-definitions", "AttributeName=id,AttributeType=S",
                "--key-schema", "AttributeName=id,KeyType=HASH", "--billing-mode", "PAY_PER_REQUEST");
        awsOk("put-item", "--table-name", table, "--item", "{\"id\": {\"S\": \"a\"}, \"n\": {\"N\": \"1.50\"}}");
        JsonNode got = awsOk("get-item", "--table-name", table, "--key", key, "--consistent-read");
        JsonNode listed = awsOk("list-tables");
        awsOk("delete-table", "--table-name", table);

        assertEquals(table, created.asObject().get("TableDescription").asObject().get("TableName").asString());
        assertEquals("1.5", got.asObject().get("Item").asObject().get("n").asObject().get("N").asString());
        assertTrue(listed.asObject().get("TableNames").asArray().stream().anyMatch(n -> n.asString().equals(table)));
    }

    @Test
    void withoutTheTestCaTheAwsCliRefusesTheCertificate() throws Exception {
        // The connection really is TLS with the test CA's certificate: a client that does not
        // trust that CA stops at the handshake.
        Result r = aws(false, "list-tables");

        assertNotEquals(0, r.exit(), r::toString);
        assertTrue(r.stderr().contains("SSL") || r.stderr().contains("certificate"), r::toString);
    }
}
