package io.stator.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import com.code_intelligence.jazzer.junit.DictionaryFile;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.stator.core.testing.InputTimeLimit;
import io.stator.engine.Engine;
import io.stator.engine.EngineConfig;
import io.stator.engine.keyspace.Keyspaces;
import io.stator.server.api.Actions;
import io.stator.server.auth.Caller;
import io.stator.server.http.HttpReply;
import io.stator.server.http.HttpRequestData;
import io.stator.server.testing.FuzzedRequest;
import io.stator.storage.rocksdb.RocksStorage;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;

/**
 * Fuzz test (Jazzer) of the whole endpoint, {@link DynamoDbEndpoint#handle}, with a real engine
 * on in-memory RocksDB: any request to any served operation gets one of DynamoDB's answers, never
 * a 500 (the endpoint's answer to any exception that is not a DynamoDB error, stack overflows
 * included, whose trace it prints). The actions run, so bodies that pass validation fuzz the
 * engine: writes, conditions, updates, reads, batches and transactions, on two tables (one with
 * a partition key only, one with a sort key, a local and a global index) that hold a few items.
 *
 * <p>The database starts afresh every {@value #REQUESTS_PER_DATABASE} requests and after any
 * request that changed a table (CreateTable, UpdateTable, DeleteTable, tags), so that state stays
 * small and a finding reproduces from its input with little history. Signatures are not checked
 * here ({@code SigV4FuzzTest} fuzzes them).
 *
 * <p>An input is the operation's name on the first line, then the body (see
 * {@link FuzzedRequest}). How the fuzz tests run (verify, the long {@code -Pfuzz} run, the
 * corpus): see {@code io.stator.server.protocol.RequestReaderFuzzTest}.
 */
class DynamoDbEndpointFuzzTest {

    private static final int REQUESTS_PER_DATABASE = 2000;
    private static final Set<String> TABLE_CHANGES =
            Set.of("CreateTable", "UpdateTable", "DeleteTable", "TagResource", "UntagResource");
    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-01-01T00:00:00Z"), ZoneOffset.UTC);

    private static final List<String> FIXTURE = List.of(
            "CreateTable\n{\"TableName\":\"Hash\",\"BillingMode\":\"PAY_PER_REQUEST\","
                    + "\"AttributeDefinitions\":[{\"AttributeName\":\"id\",\"AttributeType\":\"S\"}],"
                    + "\"KeySchema\":[{\"AttributeName\":\"id\",\"KeyType\":\"HASH\"}]}",
            "CreateTable\n{\"TableName\":\"HashRange\",\"BillingMode\":\"PAY_PER_REQUEST\","
                    + "\"AttributeDefinitions\":[{\"AttributeName\":\"pk\",\"AttributeType\":\"S\"},"
                    + "{\"AttributeName\":\"sk\",\"AttributeType\":\"N\"},{\"AttributeName\":\"lsk\",\"AttributeType\":\"S\"},"
                    + "{\"AttributeName\":\"gpk\",\"AttributeType\":\"S\"},{\"AttributeName\":\"gsk\",\"AttributeType\":\"B\"}],"
                    + "\"KeySchema\":[{\"AttributeName\":\"pk\",\"KeyType\":\"HASH\"},{\"AttributeName\":\"sk\",\"KeyType\":\"RANGE\"}],"
                    + "\"LocalSecondaryIndexes\":[{\"IndexName\":\"Lsi\",\"KeySchema\":[{\"AttributeName\":\"pk\",\"KeyType\":\"HASH\"},"
                    + "{\"AttributeName\":\"lsk\",\"KeyType\":\"RANGE\"}],\"Projection\":{\"ProjectionType\":\"ALL\"}}],"
                    + "\"GlobalSecondaryIndexes\":[{\"IndexName\":\"Gsi\",\"KeySchema\":[{\"AttributeName\":\"gpk\",\"KeyType\":\"HASH\"},"
                    + "{\"AttributeName\":\"gsk\",\"KeyType\":\"RANGE\"}],"
                    + "\"Projection\":{\"ProjectionType\":\"INCLUDE\",\"NonKeyAttributes\":[\"a\"]}}]}",
            "PutItem\n{\"TableName\":\"Hash\",\"Item\":{\"id\":{\"S\":\"a\"},\"n\":{\"N\":\"1\"},"
                    + "\"l\":{\"L\":[{\"S\":\"x\"},{\"M\":{\"m\":{\"BOOL\":true}}}]},\"ss\":{\"SS\":[\"x\",\"y\"]}}}",
            "PutItem\n{\"TableName\":\"HashRange\",\"Item\":{\"pk\":{\"S\":\"p\"},\"sk\":{\"N\":\"1\"},"
                    + "\"lsk\":{\"S\":\"l\"},\"gpk\":{\"S\":\"g\"},\"gsk\":{\"B\":\"AQI=\"},\"a\":{\"NS\":[\"1\",\"2\"]}}}",
            "PutItem\n{\"TableName\":\"HashRange\",\"Item\":{\"pk\":{\"S\":\"p\"},\"sk\":{\"N\":\"-2.5\"},"
                    + "\"gpk\":{\"S\":\"g\"},\"gsk\":{\"B\":\"AA==\"},\"m\":{\"M\":{\"k\":{\"NULL\":true}}}}}");

    private static Engine engine;
    private static DynamoDbEndpoint endpoint;
    private static List<String> servedOperations;
    private static int requests;

    @DictionaryFile(resourcePath = "/io/stator/server/dynamodb-requests.dict")
    @FuzzTest
    void requestsGetDynamoDbAnswersNeverInternalErrors(byte[] input) {
        // Outside the input's time limit: the first opening also loads and compiles the engine.
        if (endpoint == null || requests++ % REQUESTS_PER_DATABASE == 0) openDatabase();
        InputTimeLimit.run(input, () -> handle(input));
    }

    private static void handle(byte[] input) {
        FuzzedRequest request = FuzzedRequest.of(input, servedOperations);
        HttpReply reply = send(request.operation(), request.body());
        assertNotEquals(500, reply.status(), () -> request.operation() + " answered 500: "
                + new String(reply.body(), StandardCharsets.UTF_8) + " (the stack trace is in the output above)");
        if (TABLE_CHANGES.contains(request.operation()) && reply.status() == 200) requests = 0;
    }

    private static HttpReply send(String operation, byte[] body) {
        return endpoint.handle(new HttpRequestData("POST", "/", "", Map.of(
                "content-type", List.of("application/x-amz-json-1.0"),
                "x-amz-target", List.of("DynamoDB_20120810." + operation)), body));
    }

    private static void openDatabase() {
        closeDatabase();
        engine = new Engine(RocksStorage.builder(Path.of("fuzz-endpoint"), Keyspaces.ALL).inMemory(true).open(),
                new EngineConfig(EngineConfig.DEFAULT_REGION, EngineConfig.DEFAULT_ACCOUNT_ID, CLOCK));
        Actions actions = new Actions(engine, () -> "127.0.0.1:8000");
        endpoint = new DynamoDbEndpoint(actions,
                request -> new Caller("fuzz", EngineConfig.DEFAULT_REGION, false), EngineConfig.DEFAULT_REGION);
        if (servedOperations == null) {
            servedOperations = FuzzedRequest.allOperations().stream().filter(actions::serves).toList();
        }
        for (String request : FIXTURE) {
            FuzzedRequest r = FuzzedRequest.of(request.getBytes(StandardCharsets.UTF_8), servedOperations);
            HttpReply reply = send(r.operation(), r.body());
            assertEquals(200, reply.status(), () -> new String(reply.body(), StandardCharsets.UTF_8));
        }
        requests = 1;
    }

    @AfterAll
    static void closeDatabase() {
        if (engine != null) engine.close();
        engine = null;
        endpoint = null;
    }
}
