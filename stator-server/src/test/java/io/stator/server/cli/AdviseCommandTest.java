package io.stator.server.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stator.server.testing.StatorTestServer;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.protocols.jsoncore.JsonNode;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;

/**
 * {@code stator advise} against a real server: the report names each table, its findings and its
 * access patterns; --json is the read API's answers; a server that refuses or cannot be reached is
 * one line on stderr and exit 1; with --policies the command signs, and an unsigned caller is
 * refused as the read API refuses it.
 */
class AdviseCommandTest {

    private static Path directory;
    private static StatorTestServer open;
    private static StatorTestServer guarded;

    @BeforeAll
    static void start() throws IOException {
        open = StatorTestServer.start(o -> o);
        directory = Files.createTempDirectory("stator-advise-");
        Path credentials = directory.resolve("credentials.txt");
        Files.writeString(credentials, StatorTestServer.ACCESS_KEY + " " + StatorTestServer.SECRET_KEY + "\n"
                + "AKIDNOBODY secret-nobody\n");
        Path policies = directory.resolve("policies.json");
        Files.writeString(policies, "{\"" + StatorTestServer.ACCESS_KEY + "\": {\"Version\": \"2012-10-17\", \"Statement\": "
                + "{\"Effect\": \"Allow\", \"Action\": \"dynamodb:*\", \"Resource\": \"*\"}},"
                + " \"AKIDNOBODY\": {\"Version\": \"2012-10-17\", \"Statement\": {\"Effect\": \"Allow\", "
                + "\"Action\": \"dynamodb:GetItem\", \"Resource\": \"*\"}}}");
        guarded = StatorTestServer.start(o -> o.withCredentials(credentials).withPolicies(policies));
        for (StatorTestServer s : List.of(open, guarded)) seed(s.client());
    }

    @AfterAll
    static void stop() {
        open.close();
        guarded.close();
        StatorTestServer.deleteRecursively(directory);
    }

    /** Orders: a Scan with a filter, repeated; Quiet: no traffic. */
    private static void seed(DynamoDbClient dynamo) {
        for (String name : List.of("Orders", "Quiet")) {
            dynamo.createTable(b -> b.tableName(name).billingMode(BillingMode.PAY_PER_REQUEST)
                    .attributeDefinitions(a -> a.attributeName("pk").attributeType("S"))
                    .keySchema(k -> k.attributeName("pk").keyType("HASH")));
        }
        for (int i = 0; i < 20; i++) {
            String pk = "order-" + i;
            dynamo.putItem(b -> b.tableName("Orders").item(Map.of("pk", AttributeValue.fromS(pk),
                    "status", AttributeValue.fromS(pk.endsWith("7") ? "OPEN" : "SHIPPED"))));
        }
        for (int i = 0; i < 3; i++) {
            dynamo.scan(b -> b.tableName("Orders").filterExpression("#s = :o")
                    .expressionAttributeNames(Map.of("#s", "status"))
                    .expressionAttributeValues(Map.of(":o", AttributeValue.fromS("OPEN"))));
        }
    }

    @Test
    void theReportNamesEachTableItsFindingsAndItsAccessPatterns() {
        CommandRun run = run("advise", "--endpoint", "http://127.0.0.1:" + open.port());
        assertEquals(0, run.code(), run.err());
        assertTrue(run.out().startsWith("Stator advisor: http://127.0.0.1:" + open.port() + " (rates projected x1; prices us-east-1 of "),
                run.out());
        assertTrue(run.out().contains("== Table Orders: "), run.out());
        assertTrue(run.out().contains("== Table Quiet: no findings"), run.out());
        assertTrue(run.out().contains("Access patterns, last hour, costliest first:"), run.out());
        assertTrue(run.out().contains("  Scan | filter: status"), run.out());
        assertTrue(run.out().contains("  PutItem: pk = :v"), run.out());
        assertTrue(run.out().contains("No traffic in the last hour."), run.out());

        CommandRun one = run("advise", "--endpoint", "http://127.0.0.1:" + open.port() + "/", "--table", "Orders");
        assertEquals(0, one.code(), one.err());
        assertTrue(one.out().contains("== Table Orders: "), one.out());
        assertTrue(!one.out().contains("Quiet"), one.out());
    }

    @Test
    void jsonIsTheReadApisAnswers() {
        CommandRun run = run("advise", "--endpoint", "http://127.0.0.1:" + open.port(), "--json");
        assertEquals(0, run.code(), run.err());
        JsonNode json = JsonNode.parser().parse(run.out());
        JsonNode findings = json.field("findings").orElseThrow();
        assertEquals(List.of("Orders", "Quiet"), findings.field("tables").orElseThrow().asArray().stream()
                .map(JsonNode::asString).toList());
        assertEquals("1", findings.field("scale").orElseThrow().asNumber().replace(".0", ""));
        List<JsonNode> patterns = json.field("accessPatterns").orElseThrow().asArray();
        assertEquals(2, patterns.size());
        assertEquals("Orders", patterns.get(0).field("tableName").orElseThrow().asString());
    }

    @Test
    void whatTheServerRefusesOrCannotAnswerIsOneLineAndExitOne() throws IOException {
        CommandRun unknown = run("advise", "--endpoint", "http://127.0.0.1:" + open.port(), "--table", "Nope");
        assertEquals(1, unknown.code());
        assertTrue(unknown.err().contains("Table not found: Nope (ValidationException)"), unknown.err());

        int closed;
        try (ServerSocket s = new ServerSocket(0)) {
            closed = s.getLocalPort();
        }
        CommandRun unreachable = run("advise", "--endpoint", "http://127.0.0.1:" + closed);
        assertEquals(1, unreachable.code());
        assertTrue(unreachable.err().startsWith("stator advise: cannot reach http://127.0.0.1:" + closed), unreachable.err());

        CommandRun notUrl = run("advise", "--endpoint", "localhost");
        assertEquals(2, notUrl.code());
        assertTrue(notUrl.err().contains("--endpoint must be a URL"), notUrl.err());
    }

    @Test
    void withPoliciesTheCommandSignsAndIsAuthorized() {
        String endpoint = "http://127.0.0.1:" + guarded.port();
        CommandRun signed = run("advise", "--endpoint", endpoint, "--access-key-id", StatorTestServer.ACCESS_KEY,
                "--secret-access-key", StatorTestServer.SECRET_KEY);
        assertEquals(0, signed.code(), signed.err());
        assertTrue(signed.out().contains("== Table Orders: "), signed.out());

        CommandRun unsigned = run("advise", "--endpoint", endpoint, "--access-key-id", "");
        assertEquals(1, unsigned.code());
        assertTrue(unsigned.err().contains("(MissingAuthenticationTokenException)"), unsigned.err());

        CommandRun denied = run("advise", "--endpoint", endpoint, "--access-key-id", "AKIDNOBODY", "--secret-access-key",
                "secret-nobody");
        assertEquals(1, denied.code());
        assertTrue(denied.err().contains("(AccessDeniedException)"), denied.err());
    }

    private static CommandRun run(String... args) {
        return CommandRun.run(args);
    }
}
