package io.stator.server.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.stator.server.testing.CommandProcess;
import io.stator.server.testing.CommandProcess.Result;
import io.stator.server.testing.StatorTestServer;
import java.io.File;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.protocols.jsoncore.JsonNode;

/**
 * The packaged server as a user runs it, {@code bin/stator}, driven by other clients than the
 * Java SDK: the AWS CLI and boto3 (Python), each through a table's whole life, against a server
 * that accepts any key and one started with {@code --credentials} and {@code --region}, which
 * checks their signatures as DynamoDB does (long-term and temporary keys). Runs after
 * {@code package} (failsafe), since bin/stator runs the packaged jar. The AWS CLI and Python
 * with boto3 must be installed: without them this test fails, saying so, rather than passing
 * without having checked anything.
 */
class BinStatorAndAwsCliIT {

    /** The repository: tests run in stator-server/. */
    private static final Path REPO = Path.of(System.getProperty("user.dir")).toAbsolutePath().getParent();
    private static final Duration COMMAND = Duration.ofSeconds(120);

    /** The keys of the verifying server: a long-term one, and a temporary one with its session token. */
    private static final String VERIFYING_REGION = "eu-west-1";
    private static final String TEMPORARY_KEY = "ASIASTATORITTEMPORARY";
    private static final String TEMPORARY_SECRET = "stator-it-temporary-secret";
    private static final String SESSION_TOKEN = "IQoJb3JpZ2luX2VjEStatorIT//session+token==";

    private static Path dir;
    private static CommandProcess stator;
    private static String endpoint;
    private static CommandProcess verifyingStator;
    private static String verifyingEndpoint;
    private static Map<String, String> awsEnvironment;

    @BeforeAll
    static void startBinStator() throws Exception {
        dir = Files.createTempDirectory("stator-it-");
        int port = freePort();
        stator = CommandProcess.start(List.of(REPO.resolve("bin/stator").toString(), "--port",
                Integer.toString(port), "--data-dir", dir.resolve("data").toString()), dir, Map.of());
        // On a first run bin/stator builds Stator before starting it.
        assertEquals("Stator listening on http://127.0.0.1:" + port, stator.awaitLine(Duration.ofMinutes(10)));
        endpoint = "http://127.0.0.1:" + port;

        Path credentials = dir.resolve("credentials");
        Files.writeString(credentials, "# long-term\nAKIDSTATORIT stator-it-secret\n# temporary\n"
                + TEMPORARY_KEY + " " + TEMPORARY_SECRET + " " + SESSION_TOKEN + "\n");
        int verifyingPort = freePort();
        verifyingStator = CommandProcess.start(List.of(REPO.resolve("bin/stator").toString(), "--port",
                Integer.toString(verifyingPort), "--data-dir", dir.resolve("verifying-data").toString(),
                "--credentials", credentials.toString(), "--region", VERIFYING_REGION), dir, Map.of());
        assertEquals("Stator listening on http://127.0.0.1:" + verifyingPort,
                verifyingStator.awaitLine(Duration.ofMinutes(2)));
        verifyingEndpoint = "http://127.0.0.1:" + verifyingPort;

        awsEnvironment = new HashMap<>();
        awsEnvironment.put("AWS_ACCESS_KEY_ID", "AKIDSTATORIT");
        awsEnvironment.put("AWS_SECRET_ACCESS_KEY", "stator-it-secret");
        awsEnvironment.put("AWS_DEFAULT_REGION", "us-east-1");
        // Nothing from the user's own AWS set-up: no profiles, no session token, no pager.
        awsEnvironment.put("AWS_CONFIG_FILE", dir.resolve("no-config").toString());
        awsEnvironment.put("AWS_SHARED_CREDENTIALS_FILE", dir.resolve("no-credentials").toString());
        awsEnvironment.put("AWS_SESSION_TOKEN", null);
        awsEnvironment.put("AWS_PROFILE", null);
        awsEnvironment.put("AWS_PAGER", "");
        awsEnvironment.put("AWS_EC2_METADATA_DISABLED", "true");
    }

    private static int freePort() throws IOException {
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return probe.getLocalPort();
        }
    }

    /** The environment of a client of the verifying server, signing with {@code key} for {@code region}. */
    private static Map<String, String> verifyingEnvironment(String key, String secret, String sessionToken,
                                                            String region) {
        Map<String, String> environment = new HashMap<>(awsEnvironment);
        environment.put("AWS_ACCESS_KEY_ID", key);
        environment.put("AWS_SECRET_ACCESS_KEY", secret);
        environment.put("AWS_SESSION_TOKEN", sessionToken);
        environment.put("AWS_DEFAULT_REGION", region);
        return environment;
    }

    @AfterAll
    static void stopBinStator() throws Exception {
        try {
            for (CommandProcess process : new CommandProcess[] {stator, verifyingStator}) {
                if (process == null) continue;
                int exit = process.stop();
                assertTrue(exit == 0 || exit == 143, "exit code " + exit + "; stderr: " + process.stderr());
                assertEquals("", process.stderr());
            }
        } finally {
            if (dir != null) StatorTestServer.deleteRecursively(dir);
        }
    }

    @Test
    void rocksDbsNativeLibraryIsKeptForTheNextStart() throws IOException {
        // bin/stator names a cache in the build output, so later starts skip the 15 MB copy; the
        // running server has the library mapped from there (exec: the script's process is the JVM).
        Path cache = REPO.resolve("stator-server/target/native");
        try (Stream<Path> files = Files.walk(cache)) {
            assertTrue(files.anyMatch(p -> p.getFileName().toString().startsWith("librocksdbjni")));
        }
        Path maps = Path.of("/proc", Long.toString(stator.process().pid()), "maps");
        if (!Files.isReadable(maps)) return; // not Linux
        List<String> mapped = Files.readAllLines(maps).stream().filter(l -> l.contains("librocksdbjni"))
                .map(l -> l.substring(l.indexOf('/'))).distinct().toList();
        assertEquals(1, mapped.size(), mapped.toString());
        assertTrue(mapped.get(0).startsWith(cache.toString()), mapped.toString());
    }

    @Test
    void onJdk25AndLaterTheFirstStartMadeTheAheadOfTimeCache() {
        // bin/stator finds the same JDK as the build that runs this test (JAVA_HOME).
        if (Runtime.version().feature() < 25) return;
        assertTrue(Files.isRegularFile(REPO.resolve("stator-server/target/stator.aot")));
    }

    /**
     * The cache holds the command line's parser: picocli's own jar is compiled for Java 5, which the
     * cache skips ("Old class has been linked"), so stator-picocli builds it from its sources.
     */
    @Test
    void onJdk25AndLaterTheCommandLineParserComesFromTheAheadOfTimeCache() throws Exception {
        if (Runtime.version().feature() < 25) return;
        Map<String, String> environment = new HashMap<>(System.getenv());
        environment.put("STATOR_JAVA_OPTS", "-Xlog:class+load=info:stdout");
        Result version = CommandProcess.run(List.of(REPO.resolve("bin/stator").toString(), "--version"), dir,
                environment, COMMAND);
        assertEquals(0, version.exit(), version.stderr());
        String parser = version.stdout().lines().filter(l -> l.contains(" picocli.CommandLine ")).findFirst()
                .orElseGet(() -> fail("picocli.CommandLine was not loaded: " + version.stdout()));
        assertTrue(parser.endsWith("source: shared objects file"), parser);
    }

    /** The named program on PATH, or a failure that says it is missing. */
    private static String requireOnPath(String program, String installHint) {
        for (String entry : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            Path candidate = Path.of(entry.isEmpty() ? "." : entry, program);
            if (Files.isExecutable(candidate)) return candidate.toString();
        }
        return fail("'" + program + "' is not on PATH (" + System.getenv("PATH") + "); this test needs it: "
                + installHint);
    }

    private static JsonNode aws(String... args) throws Exception {
        return aws(endpoint, awsEnvironment, args);
    }

    private static JsonNode aws(String endpoint, Map<String, String> environment, String... args) throws Exception {
        Result r = awsResult(endpoint, environment, args);
        assertEquals(0, r.exit(), () -> "aws " + String.join(" ", args) + " failed: " + r);
        return r.stdout().isBlank() ? JsonNode.parser().parse("{}") : JsonNode.parser().parse(r.stdout());
    }

    private static Result awsResult(String... args) throws Exception {
        return awsResult(endpoint, awsEnvironment, args);
    }

    private static Result awsResult(String endpoint, Map<String, String> environment, String... args)
            throws Exception {
        List<String> command = new ArrayList<>();
        command.add(requireOnPath("aws", "pip install awscli"));
        command.add("dynamodb");
        command.addAll(List.of(args));
        command.addAll(List.of("--endpoint-url", endpoint, "--output", "json"));
        return CommandProcess.run(command, dir, environment, COMMAND);
    }

    private static Map<String, JsonNode> object(JsonNode node, String... path) {
        JsonNode n = node;
        for (String field : path) {
            n = n.asObject().get(field);
            assertTrue(n != null, () -> "no " + String.join(".", path) + " in " + node);
        }
        return n.asObject();
    }

    private static String string(JsonNode node, String... path) {
        String[] parent = Arrays.copyOf(path, path.length - 1);
        return object(node, parent).get(path[path.length - 1]).asString();
    }

    /** Renders JSON canonically (keys sorted), so items compare whatever order the client printed. */
    private static String canonical(JsonNode node) {
        if (node.isObject()) {
            return node.asObject().entrySet().stream().sorted(Map.Entry.comparingByKey())
                    .map(e -> '"' + e.getKey() + "\":" + canonical(e.getValue()))
                    .collect(Collectors.joining(",", "{", "}"));
        }
        if (node.isArray()) return node.asArray().stream().map(BinStatorAndAwsCliIT::canonical)
                .collect(Collectors.joining(",", "[", "]"));
        if (node.isString()) return '"' + node.asString() + '"';
        return node.toString();
    }

    @Test
    void theAwsCliRunsATablesWholeLife() throws Exception {
        String table = StatorTestServer.tableName();
        String key = "{\"id\": {\"S\": \"a\"}, \"sk\": {\"N\": \"1\"}}";
        String item = "{\"id\": {\"S\": \"a\"}, \"sk\": {\"N\": \"1\"}, \"n\": {\"N\": \"1.50\"}, "
                + "\"tags\": {\"SS\": [\"x\", \"y\"]}, \"m\": {\"M\": {\"l\": {\"L\": [{\"BOOL\": true}, "
                + "{\"NULL\": true}, {\"S\": \"\u00e9\u6f22\"}]}}}}";
        // What DynamoDB gives back: numbers normalised ("1.50" is "1.5").
        String stored = item.replace("\"1.50\"", "\"1.5\"");

        JsonNode created = aws("create-table", "--table-name", table,
                "--attribute-definitions", "AttributeName=id,AttributeType=S", "AttributeName=sk,AttributeType=N",
                "--key-schema", "AttributeName=id,KeyType=HASH", "AttributeName=sk,KeyType=RANGE",
                "--billing-mode", "PAY_PER_REQUEST");
        assertEquals(table, string(created, "TableDescription", "TableName"));
        assertEquals("[{\"AttributeName\":\"id\",\"KeyType\":\"HASH\"},{\"AttributeName\":\"sk\",\"KeyType\":\"RANGE\"}]",
                canonical(object(created, "TableDescription").get("KeySchema")));

        JsonNode put = aws("put-item", "--table-name", table, "--item", item, "--return-consumed-capacity", "TOTAL");
        assertEquals("{\"CapacityUnits\":1.0,\"TableName\":\"" + table + "\"}",
                canonical(put.asObject().get("ConsumedCapacity")));

        JsonNode got = aws("get-item", "--table-name", table, "--key", key, "--consistent-read");
        assertEquals(canonical(JsonNode.parser().parse(stored)), canonical(got.asObject().get("Item")));

        JsonNode described = aws("describe-table", "--table-name", table);
        assertEquals("ACTIVE", string(described, "Table", "TableStatus"));
        assertTrue(string(described, "Table", "TableArn").matches("arn:aws:dynamodb:us-east-1:\\d{12}:table/"
                + Pattern.quote(table)), described::toString);
        assertEquals("PAY_PER_REQUEST", string(described, "Table", "BillingModeSummary", "BillingMode"));

        assertTrue(tableNames().contains(table));

        JsonNode deleted = aws("delete-item", "--table-name", table, "--key", key, "--return-values", "ALL_OLD");
        assertEquals(canonical(JsonNode.parser().parse(stored)), canonical(deleted.asObject().get("Attributes")));
        assertFalse(aws("get-item", "--table-name", table, "--key", key).asObject().containsKey("Item"));

        JsonNode dropped = aws("delete-table", "--table-name", table);
        assertEquals("DELETING", string(dropped, "TableDescription", "TableStatus"));
        assertFalse(tableNames().contains(table));

        Result missing = awsResult("describe-table", "--table-name", table);
        assertNotEquals(0, missing.exit());
        assertTrue(missing.stderr().contains("An error occurred (ResourceNotFoundException) when calling the "
                + "DescribeTable operation: Requested resource not found: Table: " + table + " not found"),
                missing::toString);
    }

    @Test
    void theAwsCliSignsWhatAVerifyingServerRequires() throws Exception {
        Map<String, String> longTerm = verifyingEnvironment("AKIDSTATORIT", "stator-it-secret", null,
                VERIFYING_REGION);
        String table = StatorTestServer.tableName();
        String key = "{\"id\": {\"S\": \"a\"}}";

        aws(verifyingEndpoint, longTerm, "create-table", "--table-name", table,
                "--attribute-definitions", "AttributeName=id,AttributeType=S",
                "--key-schema", "AttributeName=id,KeyType=HASH", "--billing-mode", "PAY_PER_REQUEST");
        aws(verifyingEndpoint, longTerm, "put-item", "--table-name", table, "--item", key);
        assertEquals("{\"id\":{\"S\":\"a\"}}", canonical(aws(verifyingEndpoint, longTerm, "get-item",
                "--table-name", table, "--key", key, "--consistent-read").asObject().get("Item")));
        assertTrue(string(aws(verifyingEndpoint, longTerm, "describe-table", "--table-name", table),
                "Table", "TableArn").startsWith("arn:aws:dynamodb:" + VERIFYING_REGION + ":"));

        // A temporary key with its session token (AWS_SESSION_TOKEN, signed as X-Amz-Security-Token).
        Map<String, String> temporary = verifyingEnvironment(TEMPORARY_KEY, TEMPORARY_SECRET, SESSION_TOKEN,
                VERIFYING_REGION);
        aws(verifyingEndpoint, temporary, "delete-item", "--table-name", table, "--key", key);
        aws(verifyingEndpoint, temporary, "delete-table", "--table-name", table);

        Result noToken = awsResult(verifyingEndpoint,
                verifyingEnvironment(TEMPORARY_KEY, TEMPORARY_SECRET, null, VERIFYING_REGION), "list-tables");
        assertNotEquals(0, noToken.exit());
        assertTrue(noToken.stderr().contains("An error occurred (UnrecognizedClientException) when calling the "
                + "ListTables operation: The security token included in the request is invalid"), noToken::toString);

        Result otherRegion = awsResult(verifyingEndpoint,
                verifyingEnvironment("AKIDSTATORIT", "stator-it-secret", null, "us-east-1"), "list-tables");
        assertNotEquals(0, otherRegion.exit());
        assertTrue(otherRegion.stderr().contains("An error occurred (InvalidSignatureException) when calling the "
                + "ListTables operation: Credential should be scoped to a valid region, not 'us-east-1'."),
                otherRegion::toString);

        Result wrongSecret = awsResult(verifyingEndpoint,
                verifyingEnvironment("AKIDSTATORIT", "not-the-secret", null, VERIFYING_REGION), "list-tables");
        assertNotEquals(0, wrongSecret.exit());
        assertTrue(wrongSecret.stderr().contains("An error occurred (InvalidSignatureException) when calling the "
                + "ListTables operation: The request signature we calculated does not match"), wrongSecret::toString);
    }

    private static List<String> tableNames() throws Exception {
        return aws("list-tables").asObject().get("TableNames").asArray().stream().map(JsonNode::asString).toList();
    }

    /** The same life through boto3, which signs and parses on its own (botocore). */
    private static final String BOTO3_SCRIPT = """
            import json, sys
            import boto3
            from botocore.config import Config
            endpoint, table, region = sys.argv[1], sys.argv[2], sys.argv[3]
            c = boto3.client("dynamodb", endpoint_url=endpoint, region_name=region,
                             config=Config(retries={"max_attempts": 1}))
            out = {}
            out["create"] = c.create_table(TableName=table,
                AttributeDefinitions=[{"AttributeName": "id", "AttributeType": "B"}],
                KeySchema=[{"AttributeName": "id", "KeyType": "HASH"}],
                BillingMode="PAY_PER_REQUEST")["TableDescription"]["TableName"]
            key = {"id": {"B": bytes([0, 1, 255])}}
            item = dict(key, n={"N": "-0015.789e6"}, s={"SS": ["y", "x"]},
                        m={"M": {"l": {"L": [{"BOOL": True}, {"NULL": True}]}}})
            c.put_item(TableName=table, Item=item)
            got = c.get_item(TableName=table, Key=key, ConsistentRead=True)["Item"]
            out["id"] = list(got["id"]["B"])
            out["n"] = got["n"]["N"]
            out["s"] = sorted(got["s"]["SS"])
            out["m"] = got["m"]
            out["listed"] = table in c.list_tables()["TableNames"]
            out["status"] = c.describe_table(TableName=table)["Table"]["TableStatus"]
            try:
                c.describe_table(TableName=table + "-missing")
            except c.exceptions.ResourceNotFoundException as e:
                out["missing"] = e.response["Error"]["Message"]
            out["old"] = c.delete_item(TableName=table, Key=key, ReturnValues="ALL_OLD")["Attributes"]["n"]["N"]
            out["after"] = "Item" in c.get_item(TableName=table, Key=key, ConsistentRead=True)
            out["drop"] = c.delete_table(TableName=table)["TableDescription"]["TableStatus"]
            print(json.dumps(out, sort_keys=True))
            """;

    @Test
    void boto3RunsATablesWholeLife() throws Exception {
        assertBoto3RunsATablesWholeLife(endpoint, "us-east-1", awsEnvironment);
    }

    @Test
    void boto3WithATemporaryKeyRunsATablesWholeLifeOnAVerifyingServer() throws Exception {
        assertBoto3RunsATablesWholeLife(verifyingEndpoint, VERIFYING_REGION,
                verifyingEnvironment(TEMPORARY_KEY, TEMPORARY_SECRET, SESSION_TOKEN, VERIFYING_REGION));
    }

    private static void assertBoto3RunsATablesWholeLife(String endpoint, String region,
                                                        Map<String, String> environment) throws Exception {
        String python = requireOnPath("python3", "install Python 3 with boto3 (pip install boto3)");
        Result hasBoto3 = CommandProcess.run(List.of(python, "-c", "import boto3"), dir, environment, COMMAND);
        assertEquals(0, hasBoto3.exit(), () -> "boto3 is not installed for " + python + " (pip install boto3): "
                + hasBoto3.stderr());
        String table = StatorTestServer.tableName();

        Result r = CommandProcess.run(List.of(python, "-c", BOTO3_SCRIPT, endpoint, table, region), dir, environment,
                COMMAND);

        assertEquals(0, r.exit(), r::toString);
        Map<String, JsonNode> out = JsonNode.parser().parse(r.stdout()).asObject();
        assertEquals(table, out.get("create").asString());
        assertEquals("[0,1,255]", canonical(out.get("id")));
        assertEquals("-15789000", out.get("n").asString());
        assertEquals("[\"x\",\"y\"]", canonical(out.get("s")));
        assertEquals("{\"M\":{\"l\":{\"L\":[{\"BOOL\":true},{\"NULL\":true}]}}}", canonical(out.get("m")));
        assertEquals("true", out.get("listed").toString());
        assertEquals("ACTIVE", out.get("status").asString());
        assertEquals("Requested resource not found: Table: " + table + "-missing not found",
                out.get("missing").asString());
        assertEquals("-15789000", out.get("old").asString());
        assertEquals("false", out.get("after").toString());
        assertEquals("DELETING", out.get("drop").asString());
    }
}
