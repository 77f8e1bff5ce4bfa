package io.stator.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.stator.server.api.Actions;
import io.stator.server.testing.ManualSigV4;
import io.stator.server.testing.RawHttp;
import io.stator.server.testing.StatorTestServer;
import io.stator.server.testing.StreamReading;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchExecuteStatementResponse;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.PutRequest;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;
import software.amazon.awssdk.services.dynamodb.model.Select;
import software.amazon.awssdk.services.dynamodb.model.ShardIteratorType;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;
import software.amazon.awssdk.services.dynamodb.model.TransactGetItem;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/**
 * The authorization matrix: every action Stator serves, and every DynamoDB condition key of the
 * data actions, through every front end that reaches them (the JSON API, PartiQL's three actions,
 * the Streams API), each cell checked both ways: the request the policy allows succeeds, the one
 * it does not is AccessDeniedException and changes nothing.
 *
 * <p>Which keys each IAM action carries is the Service Authorization Reference's ("Actions,
 * resources, and condition keys for Amazon DynamoDB"): GetItem (Attributes, EnclosingOperation,
 * LeadingKeys, ReturnConsumedCapacity, Select); PutItem, UpdateItem, DeleteItem (Attributes,
 * EnclosingOperation, LeadingKeys, ReturnConsumedCapacity, ReturnValues); ConditionCheckItem
 * (Attributes, LeadingKeys, ReturnConsumedCapacity, ReturnValues); Query (Attributes,
 * LeadingKeys, ReturnConsumedCapacity, Select; its ReturnValues has no request member to set);
 * Scan (Attributes, ReturnConsumedCapacity, Select); BatchGetItem (Attributes, LeadingKeys,
 * ReturnConsumedCapacity, Select); BatchWriteItem (Attributes, LeadingKeys,
 * ReturnConsumedCapacity); PartiQLSelect (Attributes, EnclosingOperation, FullTableScan,
 * LeadingKeys, Select); PartiQLInsert (Attributes, EnclosingOperation, LeadingKeys);
 * PartiQLUpdate and PartiQLDelete (Attributes, EnclosingOperation, LeadingKeys, ReturnValues).
 * The Streams actions carry none: they are authorized on the stream's ARN, GetRecords on the
 * stream its iterator reads, whoever was handed the iterator.
 */
class AuthorizationMatrixTest {

    private static final String ACCOUNT = "000000000000";
    private static final String T = "Matrix";
    private static final String OTHER = "MatrixOther";
    private static final String SCRATCH = "MatrixScratch";
    private static final String ARN = "arn:aws:dynamodb:us-east-1:" + ACCOUNT + ":table/";

    private static final String DATA_ACTIONS = "\"dynamodb:GetItem\", \"dynamodb:PutItem\", \"dynamodb:UpdateItem\","
            + " \"dynamodb:DeleteItem\", \"dynamodb:ConditionCheckItem\", \"dynamodb:Query\", \"dynamodb:Scan\","
            + " \"dynamodb:BatchGetItem\", \"dynamodb:BatchWriteItem\", \"dynamodb:PartiQLSelect\","
            + " \"dynamodb:PartiQLInsert\", \"dynamodb:PartiQLUpdate\", \"dynamodb:PartiQLDelete\"";
    private static final String ON_THE_TABLE = "[\"" + ARN + T + "\", \"" + ARN + T + "/index/*\"]";

    /** A policy allowing the data actions on the table and its indexes under one condition. */
    private static String allowDataIf(String condition) {
        return "{\"Version\": \"2012-10-17\", \"Statement\": {\"Effect\": \"Allow\", \"Action\": [" + DATA_ACTIONS
                + "], \"Resource\": " + ON_THE_TABLE + ", \"Condition\": " + condition + "}}";
    }

    private static final Map<String, String> POLICIES = new LinkedHashMap<>();

    static {
        POLICIES.put("ALL", "{\"Version\": \"2012-10-17\", \"Statement\": {\"Effect\": \"Allow\", \"Action\": \"dynamodb:*\","
                + " \"Resource\": \"*\"}}");
        POLICIES.put("LEAD", allowDataIf("{\"ForAllValues:StringEquals\": {\"dynamodb:LeadingKeys\": [\"alice\"]}}"));
        POLICIES.put("ATTR", allowDataIf("{\"ForAllValues:StringEquals\": {\"dynamodb:Attributes\": [\"pk\", \"sk\","
                + " \"game\", \"open\"]}, \"StringEqualsIfExists\": {\"dynamodb:Select\": \"SPECIFIC_ATTRIBUTES\"}}"));
        POLICIES.put("SEL", allowDataIf("{\"StringEquals\": {\"dynamodb:Select\": \"SPECIFIC_ATTRIBUTES\"}}"));
        POLICIES.put("RV", allowDataIf("{\"StringEquals\": {\"dynamodb:ReturnValues\": \"NONE\"}}"));
        POLICIES.put("RCC", allowDataIf("{\"StringEquals\": {\"dynamodb:ReturnConsumedCapacity\": \"NONE\"}}"));
        POLICIES.put("ENC", allowDataIf("{\"StringEquals\": {\"dynamodb:EnclosingOperation\": [\"TransactGetItems\","
                + " \"TransactWriteItems\", \"ExecuteTransaction\"]}}"));
        // "IAM security policies with PartiQL for DynamoDB", example 6: allow SELECT, deny full scans.
        POLICIES.put("SCAN", "{\"Version\": \"2012-10-17\", \"Statement\": ["
                + "{\"Effect\": \"Deny\", \"Action\": \"dynamodb:PartiQLSelect\", \"Resource\": " + ON_THE_TABLE + ","
                + " \"Condition\": {\"Bool\": {\"dynamodb:FullTableScan\": [\"true\"]}}},"
                + "{\"Effect\": \"Allow\", \"Action\": \"dynamodb:PartiQLSelect\", \"Resource\": " + ON_THE_TABLE + "}]}");
        // Attribute-based access control: the table's tags, the tags a request sets or removes.
        POLICIES.put("TAG", "{\"Version\": \"2012-10-17\", \"Statement\": {\"Effect\": \"Allow\", \"Action\": \"dynamodb:*\","
                + " \"Resource\": \"*\", \"Condition\": {\"StringEquals\": {\"aws:ResourceTag/team\": \"blue\"}}}}");
        POLICIES.put("TAGGER", "{\"Version\": \"2012-10-17\", \"Statement\": ["
                + "{\"Effect\": \"Allow\", \"Action\": [\"dynamodb:CreateTable\", \"dynamodb:TagResource\"], \"Resource\": \"*\","
                + " \"Condition\": {\"StringEquals\": {\"aws:RequestTag/team\": \"blue\"},"
                + " \"ForAllValues:StringEquals\": {\"aws:TagKeys\": [\"team\"]}}},"
                + "{\"Effect\": \"Allow\", \"Action\": \"dynamodb:UntagResource\", \"Resource\": \"*\","
                + " \"Condition\": {\"ForAllValues:StringEquals\": {\"aws:TagKeys\": [\"team\"]}}}]}");
        POLICIES.put("RESTORER", "{\"Version\": \"2012-10-17\", \"Statement\": {\"Effect\": \"Allow\", \"Action\":"
                + " [\"dynamodb:CreateBackup\", \"dynamodb:RestoreTableFromBackup\", \"dynamodb:RestoreTableToPointInTime\"],"
                + " \"Resource\": \"*\"}}");
        POLICIES.put("LISTER", "{\"Version\": \"2012-10-17\", \"Statement\": {\"Effect\": \"Allow\", \"Action\":"
                + " \"dynamodb:ListTables\", \"Resource\": \"*\"}}");
        // Contributor Insights' data on the table and its indexes: the advisor's top keys and partitions.
        POLICIES.put("INSIGHTS", "{\"Version\": \"2012-10-17\", \"Statement\": {\"Effect\": \"Allow\", \"Action\":"
                + " \"dynamodb:DescribeContributorInsights\", \"Resource\": " + ON_THE_TABLE + "}}");
        POLICIES.put("STREAMER", "{\"Version\": \"2012-10-17\", \"Statement\": {\"Effect\": \"Allow\", \"Action\":"
                + " [\"dynamodb:DescribeStream\", \"dynamodb:GetShardIterator\", \"dynamodb:GetRecords\"],"
                + " \"Resource\": \"" + ARN + T + "/stream/*\"}}");
    }

    private static Path directory;
    private static StatorTestServer server;
    private static DynamoDbClient admin;
    private static DynamoDbStreamsClient adminStreams;
    private static final Map<String, DynamoDbClient> CLIENTS = new HashMap<>();
    private static final Map<String, DynamoDbStreamsClient> STREAM_CLIENTS = new HashMap<>();
    private static final AtomicInteger UNIQUE = new AtomicInteger();

    @BeforeAll
    static void start() throws IOException {
        directory = Files.createTempDirectory("stator-matrix-");
        StringBuilder keys = new StringBuilder(StatorTestServer.ACCESS_KEY + " " + StatorTestServer.SECRET_KEY + "\n");
        StringBuilder policies = new StringBuilder("{\n  \"" + StatorTestServer.ACCESS_KEY + "\": "
                + POLICIES.get("ALL"));
        keys.append("AKIDNOBODY secret-NOBODY\n");
        for (Map.Entry<String, String> p : POLICIES.entrySet()) {
            keys.append("AKID").append(p.getKey()).append(" secret-").append(p.getKey()).append('\n');
            policies.append(",\n  \"AKID").append(p.getKey()).append("\": {\"UserName\": \"").append(p.getKey().toLowerCase())
                    .append("\", \"Policies\": ").append(p.getValue()).append('}');
        }
        policies.append("\n}\n");
        Files.writeString(directory.resolve("credentials.txt"), keys);
        Files.writeString(directory.resolve("policies.json"), policies);
        Files.createDirectories(directory.resolve("s3"));
        server = StatorTestServer.start(o -> o.withCredentials(directory.resolve("credentials.txt"))
                .withPolicies(directory.resolve("policies.json")).withS3Directory(directory.resolve("s3")));
        admin = server.client();
        adminStreams = StreamReading.client(server.endpoint(), "us-east-1");
        for (String table : List.of(T, OTHER)) {
            admin.createTable(b -> b.tableName(table).billingMode(BillingMode.PAY_PER_REQUEST)
                    .attributeDefinitions(a -> a.attributeName("pk").attributeType("S"),
                            a -> a.attributeName("sk").attributeType("S"), a -> a.attributeName("game").attributeType("S"))
                    .keySchema(k -> k.attributeName("pk").keyType("HASH"), k -> k.attributeName("sk").keyType("RANGE"))
                    .globalSecondaryIndexes(g -> g.indexName("ByGame").keySchema(k -> k.attributeName("game").keyType("HASH"))
                            .projection(p -> p.projectionType(ProjectionType.ALL)))
                    .vectorIndexes(v -> v.indexName("ByEmbedding").vectorAttribute(a -> a.attributeName("embedding"))
                            .dimensions(2L).distanceFunction("COSINE").projection(p -> p.projectionType(ProjectionType.ALL)))
                    .streamSpecification(s -> s.streamEnabled(true).streamViewType(StreamViewType.NEW_AND_OLD_IMAGES)));
            admin.putItem(b -> b.tableName(table).item(item("alice", "1", "game", "chess", "open", "o", "secret", "s")));
            admin.putItem(b -> b.tableName(table).item(item("bob", "1", "game", "go", "open", "o", "secret", "s")));
        }
        StatorTestServer.createTable(admin, SCRATCH);
        admin.tagResource(b -> b.resourceArn(ARN + T).tags(t -> t.key("team").value("blue")));
        admin.tagResource(b -> b.resourceArn(ARN + OTHER).tags(t -> t.key("team").value("red")));
    }

    @AfterAll
    static void stop() {
        CLIENTS.values().forEach(DynamoDbClient::close);
        STREAM_CLIENTS.values().forEach(DynamoDbStreamsClient::close);
        adminStreams.close();
        server.close();
        StatorTestServer.deleteRecursively(directory);
    }

    private static DynamoDbClient as(String user) {
        return CLIENTS.computeIfAbsent(user, u -> server.newClient("AKID" + u, "secret-" + u));
    }

    private static DynamoDbStreamsClient streamsAs(String user) {
        return STREAM_CLIENTS.computeIfAbsent(user,
                u -> StreamReading.client(server.endpoint(), "us-east-1", "AKID" + u, "secret-" + u));
    }

    private static Map<String, AttributeValue> item(String pk, String sk, String... more) {
        Map<String, AttributeValue> item = new LinkedHashMap<>();
        item.put("pk", AttributeValue.fromS(pk));
        item.put("sk", AttributeValue.fromS(sk));
        for (int i = 0; i < more.length; i += 2) item.put(more[i], AttributeValue.fromS(more[i + 1]));
        return item;
    }

    private static Map<String, AttributeValue> key(String pk, String sk) {
        return item(pk, sk);
    }

    private static String unique(String prefix) {
        return prefix + "-" + UNIQUE.incrementAndGet();
    }

    // ---- one request, as a cell runs it ------------------------------------------------------

    @FunctionalInterface
    interface Call {
        void run(DynamoDbClient client) throws Exception;
    }

    /** A BatchExecuteStatement member's error, raised so that a cell treats it as the call's. */
    static final class MemberError extends RuntimeException {
        final String code;

        MemberError(String code, String message) {
            super(code + ": " + message);
            this.code = code;
        }
    }

    private static Call statement(String statement) {
        return c -> c.executeStatement(b -> b.statement(statement));
    }

    private static Call batchStatement(String statement) {
        return c -> {
            BatchExecuteStatementResponse r = c.batchExecuteStatement(b -> b.statements(s -> s.statement(statement)));
            if (r.responses().get(0).error() != null) {
                throw new MemberError(r.responses().get(0).error().codeAsString(), r.responses().get(0).error().message());
            }
        };
    }

    private static Call transaction(String... statements) {
        return c -> c.executeTransaction(b -> b.transactStatements(
                Stream.of(statements).map(s -> software.amazon.awssdk.services.dynamodb.model.ParameterizedStatement
                        .builder().statement(s).build()).toList()));
    }

    private static Call transactGet(TransactGetItem get) {
        return c -> c.transactGetItems(b -> b.transactItems(get));
    }

    private static Call transactWrite(TransactWriteItem write) {
        return c -> c.transactWriteItems(b -> b.transactItems(write));
    }

    private static void assertAllowed(String user, Call call) {
        try {
            call.run(as(user));
        } catch (Exception e) {
            fail(user + " should have been allowed, got " + e, e);
        }
    }

    private static void assertDenied(String user, Call call) {
        try {
            call.run(as(user));
        } catch (DynamoDbException e) {
            assertEquals("AccessDeniedException", e.awsErrorDetails().errorCode(), e.getMessage());
            assertEquals(400, e.statusCode());
            String who = user.equals("NOBODY") ? "AKIDNOBODY" : user.toLowerCase(); // NOBODY has no user name
            assertTrue(e.awsErrorDetails().errorMessage().startsWith("User: arn:aws:iam::" + ACCOUNT + ":user/"
                    + who + " is not authorized to perform: dynamodb:"), e.getMessage());
            return;
        } catch (MemberError e) {
            assertEquals("AccessDenied", e.code, e.getMessage());
            return;
        } catch (Exception e) {
            fail(user + " should have been denied, got " + e, e);
        }
        fail(user + " should have been denied, but the request succeeded");
    }

    /** One cell: a condition key on one IAM action through one front end, both ways. */
    private record Cell(String key, String action, String user, Call allowed, Call denied) {}

    private static List<Cell> cells() {
        List<Cell> c = new ArrayList<>();
        // dynamodb:LeadingKeys: alice's partition is allowed, bob's is not.
        String lead = "LEAD";
        c.add(new Cell("LeadingKeys", "GetItem", lead, x -> x.getItem(b -> b.tableName(T).key(key("alice", "1"))),
                x -> x.getItem(b -> b.tableName(T).key(key("bob", "1")))));
        c.add(new Cell("LeadingKeys", "PutItem", lead, x -> x.putItem(b -> b.tableName(T).item(item("alice", unique("lk")))),
                x -> x.putItem(b -> b.tableName(T).item(item("bob", unique("lk"))))));
        c.add(new Cell("LeadingKeys", "UpdateItem", lead,
                x -> x.updateItem(b -> b.tableName(T).key(key("alice", unique("lk"))).updateExpression("SET #o = :v")
                        .expressionAttributeNames(Map.of("#o", "open")).expressionAttributeValues(Map.of(":v", AttributeValue.fromS("u")))),
                x -> x.updateItem(b -> b.tableName(T).key(key("bob", "1")).updateExpression("SET #o = :v")
                        .expressionAttributeNames(Map.of("#o", "open")).expressionAttributeValues(Map.of(":v", AttributeValue.fromS("u"))))));
        c.add(new Cell("LeadingKeys", "DeleteItem", lead, x -> x.deleteItem(b -> b.tableName(T).key(key("alice", unique("lk")))),
                x -> x.deleteItem(b -> b.tableName(T).key(key("bob", "1")))));
        c.add(new Cell("LeadingKeys", "ConditionCheckItem", lead,
                transactWrite(TransactWriteItem.builder().conditionCheck(k -> k.tableName(T).key(key("alice", "1"))
                        .conditionExpression("attribute_exists(pk)")).build()),
                transactWrite(TransactWriteItem.builder().conditionCheck(k -> k.tableName(T).key(key("bob", "1"))
                        .conditionExpression("attribute_exists(pk)")).build())));
        c.add(new Cell("LeadingKeys", "Query", lead,
                x -> x.query(b -> b.tableName(T).keyConditionExpression("pk = :p").expressionAttributeValues(Map.of(":p", AttributeValue.fromS("alice")))),
                x -> x.query(b -> b.tableName(T).keyConditionExpression("pk = :p").expressionAttributeValues(Map.of(":p", AttributeValue.fromS("bob"))))));
        c.add(new Cell("LeadingKeys", "BatchGetItem", lead,
                x -> x.batchGetItem(b -> b.requestItems(Map.of(T, software.amazon.awssdk.services.dynamodb.model.KeysAndAttributes
                        .builder().keys(key("alice", "1")).build()))),
                x -> x.batchGetItem(b -> b.requestItems(Map.of(T, software.amazon.awssdk.services.dynamodb.model.KeysAndAttributes
                        .builder().keys(key("alice", "1"), key("bob", "1")).build())))));
        c.add(new Cell("LeadingKeys", "BatchWriteItem", lead,
                x -> x.batchWriteItem(b -> b.requestItems(Map.of(T, List.of(WriteRequest.builder()
                        .putRequest(PutRequest.builder().item(item("alice", unique("lk"))).build()).build())))),
                x -> x.batchWriteItem(b -> b.requestItems(Map.of(T, List.of(WriteRequest.builder()
                        .putRequest(PutRequest.builder().item(item("bob", unique("lk"))).build()).build()))))));
        c.add(new Cell("LeadingKeys", "GetItem (TransactGetItems)", lead,
                transactGet(TransactGetItem.builder().get(g -> g.tableName(T).key(key("alice", "1"))).build()),
                transactGet(TransactGetItem.builder().get(g -> g.tableName(T).key(key("bob", "1"))).build())));
        c.add(new Cell("LeadingKeys", "PartiQLSelect (ExecuteStatement)", lead,
                statement("SELECT * FROM \"Matrix\" WHERE pk = 'alice'"), statement("SELECT * FROM \"Matrix\" WHERE pk = 'bob'")));
        c.add(new Cell("LeadingKeys", "PartiQLSelect IN (ExecuteStatement)", lead,
                statement("SELECT * FROM \"Matrix\" WHERE pk IN ['alice']"),
                statement("SELECT * FROM \"Matrix\" WHERE pk IN ['alice', 'bob']")));
        c.add(new Cell("LeadingKeys", "PartiQLSelect OR (ExecuteStatement)", lead,
                statement("SELECT * FROM \"Matrix\" WHERE pk = 'alice' OR pk = 'alice'"),
                statement("SELECT * FROM \"Matrix\" WHERE pk = 'alice' OR pk = 'bob'")));
        c.add(new Cell("LeadingKeys", "PartiQLInsert (ExecuteStatement)", lead,
                statement("INSERT INTO \"Matrix\" VALUE {'pk': 'alice', 'sk': '" + unique("lk") + "'}"),
                statement("INSERT INTO \"Matrix\" VALUE {'pk': 'bob', 'sk': '" + unique("lk") + "'}")));
        c.add(new Cell("LeadingKeys", "PartiQLUpdate (ExecuteStatement)", lead,
                statement("UPDATE \"Matrix\" SET open = 'p' WHERE pk = 'alice' AND sk = '1'"),
                statement("UPDATE \"Matrix\" SET open = 'p' WHERE pk = 'bob' AND sk = '1'")));
        c.add(new Cell("LeadingKeys", "PartiQLDelete (ExecuteStatement)", lead,
                statement("DELETE FROM \"Matrix\" WHERE pk = 'alice' AND sk = '" + unique("lk") + "'"),
                statement("DELETE FROM \"Matrix\" WHERE pk = 'bob' AND sk = '1'")));
        c.add(new Cell("LeadingKeys", "PartiQLSelect (BatchExecuteStatement)", lead,
                batchStatement("SELECT * FROM \"Matrix\" WHERE pk = 'alice' AND sk = '1'"),
                batchStatement("SELECT * FROM \"Matrix\" WHERE pk = 'bob' AND sk = '1'")));
        c.add(new Cell("LeadingKeys", "PartiQLUpdate (BatchExecuteStatement)", lead,
                batchStatement("UPDATE \"Matrix\" SET open = 'q' WHERE pk = 'alice' AND sk = '1'"),
                batchStatement("UPDATE \"Matrix\" SET open = 'q' WHERE pk = 'bob' AND sk = '1'")));
        c.add(new Cell("LeadingKeys", "PartiQLSelect (ExecuteTransaction)", lead,
                transaction("SELECT * FROM \"Matrix\" WHERE pk = 'alice' AND sk = '1'"),
                transaction("SELECT * FROM \"Matrix\" WHERE pk = 'alice' AND sk = '1'",
                        "SELECT * FROM \"Matrix\" WHERE pk = 'bob' AND sk = '1'")));
        c.add(new Cell("LeadingKeys", "PartiQLInsert (ExecuteTransaction)", lead,
                transaction("INSERT INTO \"Matrix\" VALUE {'pk': 'alice', 'sk': '" + unique("lk") + "'}"),
                transaction("INSERT INTO \"Matrix\" VALUE {'pk': 'bob', 'sk': '" + unique("lk") + "'}")));
        c.add(new Cell("LeadingKeys", "PartiQLSelect EXISTS (ExecuteTransaction)", lead,
                transaction("EXISTS(SELECT * FROM \"Matrix\" WHERE pk = 'alice' AND sk = '1' AND open <> 'z')",
                        "INSERT INTO \"Matrix\" VALUE {'pk': 'alice', 'sk': '" + unique("lk") + "'}"),
                transaction("EXISTS(SELECT * FROM \"Matrix\" WHERE pk = 'bob' AND sk = '1' AND open <> 'z')",
                        "INSERT INTO \"Matrix\" VALUE {'pk': 'alice', 'sk': '" + unique("lk") + "'}")));

        // dynamodb:Attributes, with Select SPECIFIC_ATTRIBUTES if present (the Developer Guide's
        // pattern): pk, sk, game and open may be read, written and tested; secret may not.
        String attr = "ATTR";
        c.add(new Cell("Attributes", "GetItem", attr,
                x -> x.getItem(b -> b.tableName(T).key(key("alice", "1")).projectionExpression("#o").expressionAttributeNames(Map.of("#o", "open"))),
                x -> x.getItem(b -> b.tableName(T).key(key("alice", "1")).projectionExpression("secret"))));
        c.add(new Cell("Attributes", "PutItem", attr,
                x -> x.putItem(b -> b.tableName(T).item(item("alice", unique("at"), "open", "o"))),
                x -> x.putItem(b -> b.tableName(T).item(item("alice", unique("at"), "secret", "s")))));
        c.add(new Cell("Attributes", "UpdateItem", attr,
                x -> x.updateItem(b -> b.tableName(T).key(key("alice", unique("at"))).updateExpression("SET #o = :v")
                        .expressionAttributeNames(Map.of("#o", "open")).expressionAttributeValues(Map.of(":v", AttributeValue.fromS("u")))),
                x -> x.updateItem(b -> b.tableName(T).key(key("alice", "1")).updateExpression("SET secret = :v")
                        .expressionAttributeValues(Map.of(":v", AttributeValue.fromS("u"))))));
        c.add(new Cell("Attributes", "DeleteItem", attr,
                x -> x.deleteItem(b -> b.tableName(T).key(key("alice", unique("at"))).conditionExpression("attribute_not_exists(#o)")
                        .expressionAttributeNames(Map.of("#o", "open"))),
                x -> x.deleteItem(b -> b.tableName(T).key(key("alice", "1")).conditionExpression("attribute_exists(secret)"))));
        c.add(new Cell("Attributes", "ConditionCheckItem", attr,
                transactWrite(TransactWriteItem.builder().conditionCheck(k -> k.tableName(T).key(key("alice", "1"))
                        .conditionExpression("attribute_exists(#o)").expressionAttributeNames(Map.of("#o", "open"))).build()),
                transactWrite(TransactWriteItem.builder().conditionCheck(k -> k.tableName(T).key(key("alice", "1"))
                        .conditionExpression("attribute_exists(secret)")).build())));
        c.add(new Cell("Attributes", "Query", attr,
                x -> x.query(b -> b.tableName(T).keyConditionExpression("pk = :p").projectionExpression("#o")
                        .expressionAttributeNames(Map.of("#o", "open")).expressionAttributeValues(Map.of(":p", AttributeValue.fromS("alice")))),
                x -> x.query(b -> b.tableName(T).keyConditionExpression("pk = :p").projectionExpression("secret")
                        .expressionAttributeValues(Map.of(":p", AttributeValue.fromS("alice"))))));
        c.add(new Cell("Attributes", "Scan", attr,
                x -> x.scan(b -> b.tableName(T).projectionExpression("#o").expressionAttributeNames(Map.of("#o", "open"))),
                x -> x.scan(b -> b.tableName(T).projectionExpression("pk").filterExpression("secret = :s")
                        .expressionAttributeValues(Map.of(":s", AttributeValue.fromS("s"))))));
        c.add(new Cell("Attributes", "BatchGetItem", attr,
                x -> x.batchGetItem(b -> b.requestItems(Map.of(T, software.amazon.awssdk.services.dynamodb.model.KeysAndAttributes
                        .builder().keys(key("alice", "1")).projectionExpression("#o").expressionAttributeNames(Map.of("#o", "open")).build()))),
                x -> x.batchGetItem(b -> b.requestItems(Map.of(T, software.amazon.awssdk.services.dynamodb.model.KeysAndAttributes
                        .builder().keys(key("alice", "1")).projectionExpression("secret").build())))));
        c.add(new Cell("Attributes", "BatchWriteItem", attr,
                x -> x.batchWriteItem(b -> b.requestItems(Map.of(T, List.of(WriteRequest.builder()
                        .putRequest(PutRequest.builder().item(item("alice", unique("at"), "open", "o")).build()).build())))),
                x -> x.batchWriteItem(b -> b.requestItems(Map.of(T, List.of(WriteRequest.builder()
                        .putRequest(PutRequest.builder().item(item("alice", unique("at"), "secret", "s")).build()).build()))))));
        c.add(new Cell("Attributes", "PartiQLSelect (ExecuteStatement)", attr,
                statement("SELECT open FROM \"Matrix\" WHERE pk = 'alice'"),
                statement("SELECT secret FROM \"Matrix\" WHERE pk = 'alice'")));
        c.add(new Cell("Attributes", "PartiQLSelect WHERE (ExecuteStatement)", attr,
                statement("SELECT open FROM \"Matrix\" WHERE pk = 'alice' AND open = 'o'"),
                statement("SELECT open FROM \"Matrix\" WHERE pk = 'alice' AND secret = 's'")));
        c.add(new Cell("Attributes", "PartiQLInsert (ExecuteStatement)", attr,
                statement("INSERT INTO \"Matrix\" VALUE {'pk': 'alice', 'sk': '" + unique("at") + "', 'open': 'o'}"),
                statement("INSERT INTO \"Matrix\" VALUE {'pk': 'alice', 'sk': '" + unique("at") + "', 'secret': 's'}")));
        c.add(new Cell("Attributes", "PartiQLUpdate (ExecuteStatement)", attr,
                statement("UPDATE \"Matrix\" SET open = 'a' WHERE pk = 'alice' AND sk = '1'"),
                statement("UPDATE \"Matrix\" SET secret = 'a' WHERE pk = 'alice' AND sk = '1'")));
        c.add(new Cell("Attributes", "PartiQLDelete (ExecuteStatement)", attr,
                statement("DELETE FROM \"Matrix\" WHERE pk = 'alice' AND sk = '" + unique("at") + "'"),
                statement("DELETE FROM \"Matrix\" WHERE pk = 'alice' AND sk = '1' AND secret = 's'")));
        c.add(new Cell("Attributes", "PartiQLSelect (BatchExecuteStatement)", attr,
                batchStatement("SELECT open FROM \"Matrix\" WHERE pk = 'alice' AND sk = '1'"),
                batchStatement("SELECT secret FROM \"Matrix\" WHERE pk = 'alice' AND sk = '1'")));
        c.add(new Cell("Attributes", "PartiQLSelect (ExecuteTransaction)", attr,
                transaction("SELECT open FROM \"Matrix\" WHERE pk = 'alice' AND sk = '1'"),
                transaction("SELECT secret FROM \"Matrix\" WHERE pk = 'alice' AND sk = '1'")));

        // dynamodb:Select: only SPECIFIC_ATTRIBUTES is allowed.
        String sel = "SEL";
        c.add(new Cell("Select", "GetItem", sel, x -> x.getItem(b -> b.tableName(T).key(key("alice", "1")).projectionExpression("pk")),
                x -> x.getItem(b -> b.tableName(T).key(key("alice", "1")))));
        c.add(new Cell("Select", "Query", sel,
                x -> x.query(b -> b.tableName(T).keyConditionExpression("pk = :p").projectionExpression("pk")
                        .expressionAttributeValues(Map.of(":p", AttributeValue.fromS("alice")))),
                x -> x.query(b -> b.tableName(T).keyConditionExpression("pk = :p").select(Select.COUNT)
                        .expressionAttributeValues(Map.of(":p", AttributeValue.fromS("alice"))))));
        c.add(new Cell("Select", "Query on an index", sel,
                x -> x.query(b -> b.tableName(T).indexName("ByGame").keyConditionExpression("game = :g").projectionExpression("pk")
                        .expressionAttributeValues(Map.of(":g", AttributeValue.fromS("chess")))),
                x -> x.query(b -> b.tableName(T).indexName("ByGame").keyConditionExpression("game = :g")
                        .expressionAttributeValues(Map.of(":g", AttributeValue.fromS("chess"))))));
        c.add(new Cell("Select", "Scan", sel, x -> x.scan(b -> b.tableName(T).projectionExpression("pk")),
                x -> x.scan(b -> b.tableName(T))));
        c.add(new Cell("Select", "BatchGetItem", sel,
                x -> x.batchGetItem(b -> b.requestItems(Map.of(T, software.amazon.awssdk.services.dynamodb.model.KeysAndAttributes
                        .builder().keys(key("alice", "1")).projectionExpression("pk").build()))),
                x -> x.batchGetItem(b -> b.requestItems(Map.of(T, software.amazon.awssdk.services.dynamodb.model.KeysAndAttributes
                        .builder().keys(key("alice", "1")).build())))));
        c.add(new Cell("Select", "GetItem (TransactGetItems)", sel,
                transactGet(TransactGetItem.builder().get(g -> g.tableName(T).key(key("alice", "1")).projectionExpression("pk")).build()),
                transactGet(TransactGetItem.builder().get(g -> g.tableName(T).key(key("alice", "1"))).build())));
        c.add(new Cell("Select", "PartiQLSelect (ExecuteStatement)", sel,
                statement("SELECT pk FROM \"Matrix\" WHERE pk = 'alice'"), statement("SELECT * FROM \"Matrix\" WHERE pk = 'alice'")));
        c.add(new Cell("Select", "PartiQLSelect on an index (ExecuteStatement)", sel,
                statement("SELECT pk FROM \"Matrix\".\"ByGame\" WHERE game = 'chess'"),
                statement("SELECT * FROM \"Matrix\".\"ByGame\" WHERE game = 'chess'")));
        c.add(new Cell("Select", "PartiQLSelect (BatchExecuteStatement)", sel,
                batchStatement("SELECT pk FROM \"Matrix\" WHERE pk = 'alice' AND sk = '1'"),
                batchStatement("SELECT * FROM \"Matrix\" WHERE pk = 'alice' AND sk = '1'")));
        c.add(new Cell("Select", "PartiQLSelect (ExecuteTransaction)", sel,
                transaction("SELECT pk FROM \"Matrix\" WHERE pk = 'alice' AND sk = '1'"),
                transaction("SELECT * FROM \"Matrix\" WHERE pk = 'alice' AND sk = '1'")));

        // dynamodb:ReturnValues: only NONE is allowed.
        String rv = "RV";
        c.add(new Cell("ReturnValues", "PutItem", rv, x -> x.putItem(b -> b.tableName(T).item(item("alice", unique("rv")))),
                x -> x.putItem(b -> b.tableName(T).item(item("alice", "1", "open", "o", "game", "chess", "secret", "s"))
                        .returnValues(ReturnValue.ALL_OLD))));
        c.add(new Cell("ReturnValues", "UpdateItem", rv,
                x -> x.updateItem(b -> b.tableName(T).key(key("alice", unique("rv"))).updateExpression("SET #o = :v")
                        .expressionAttributeNames(Map.of("#o", "open")).expressionAttributeValues(Map.of(":v", AttributeValue.fromS("u")))),
                x -> x.updateItem(b -> b.tableName(T).key(key("alice", "1")).updateExpression("SET #o = :v")
                        .returnValues(ReturnValue.ALL_NEW).expressionAttributeNames(Map.of("#o", "open"))
                        .expressionAttributeValues(Map.of(":v", AttributeValue.fromS("u"))))));
        c.add(new Cell("ReturnValues", "DeleteItem", rv, x -> x.deleteItem(b -> b.tableName(T).key(key("alice", unique("rv")))),
                x -> x.deleteItem(b -> b.tableName(T).key(key("alice", "1")).returnValues(ReturnValue.ALL_OLD))));
        c.add(new Cell("ReturnValues", "ConditionCheckItem", rv,
                transactWrite(TransactWriteItem.builder().conditionCheck(k -> k.tableName(T).key(key("alice", "1"))
                        .conditionExpression("attribute_exists(pk)")).build()),
                transactWrite(TransactWriteItem.builder().conditionCheck(k -> k.tableName(T).key(key("alice", "1"))
                        .conditionExpression("attribute_exists(pk)")
                        .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD)).build())));
        c.add(new Cell("ReturnValues", "PartiQLUpdate (ExecuteStatement)", rv,
                statement("UPDATE \"Matrix\" SET open = 'b' WHERE pk = 'alice' AND sk = '1'"),
                statement("UPDATE \"Matrix\" SET open = 'b' WHERE pk = 'alice' AND sk = '1' RETURNING ALL NEW *")));
        c.add(new Cell("ReturnValues", "PartiQLDelete (ExecuteStatement)", rv,
                statement("DELETE FROM \"Matrix\" WHERE pk = 'alice' AND sk = '" + unique("rv") + "'"),
                statement("DELETE FROM \"Matrix\" WHERE pk = 'alice' AND sk = '1' RETURNING ALL OLD *")));

        // dynamodb:ReturnConsumedCapacity: only NONE is allowed.
        String rcc = "RCC";
        c.add(new Cell("ReturnConsumedCapacity", "GetItem", rcc, x -> x.getItem(b -> b.tableName(T).key(key("alice", "1"))),
                x -> x.getItem(b -> b.tableName(T).key(key("alice", "1")).returnConsumedCapacity(ReturnConsumedCapacity.TOTAL))));
        c.add(new Cell("ReturnConsumedCapacity", "PutItem", rcc, x -> x.putItem(b -> b.tableName(T).item(item("alice", unique("rc")))),
                x -> x.putItem(b -> b.tableName(T).item(item("alice", unique("rc"))).returnConsumedCapacity(ReturnConsumedCapacity.TOTAL))));
        c.add(new Cell("ReturnConsumedCapacity", "UpdateItem", rcc,
                x -> x.updateItem(b -> b.tableName(T).key(key("alice", unique("rc")))),
                x -> x.updateItem(b -> b.tableName(T).key(key("alice", unique("rc"))).returnConsumedCapacity(ReturnConsumedCapacity.INDEXES))));
        c.add(new Cell("ReturnConsumedCapacity", "DeleteItem", rcc, x -> x.deleteItem(b -> b.tableName(T).key(key("alice", unique("rc")))),
                x -> x.deleteItem(b -> b.tableName(T).key(key("alice", unique("rc"))).returnConsumedCapacity(ReturnConsumedCapacity.TOTAL))));
        c.add(new Cell("ReturnConsumedCapacity", "ConditionCheckItem", rcc,
                c2 -> c2.transactWriteItems(b -> b.transactItems(TransactWriteItem.builder().conditionCheck(k -> k.tableName(T)
                        .key(key("alice", "1")).conditionExpression("attribute_exists(pk)")).build())),
                c2 -> c2.transactWriteItems(b -> b.returnConsumedCapacity(ReturnConsumedCapacity.TOTAL).transactItems(
                        TransactWriteItem.builder().conditionCheck(k -> k.tableName(T).key(key("alice", "1"))
                                .conditionExpression("attribute_exists(pk)")).build()))));
        c.add(new Cell("ReturnConsumedCapacity", "Query", rcc,
                x -> x.query(b -> b.tableName(T).keyConditionExpression("pk = :p").expressionAttributeValues(Map.of(":p", AttributeValue.fromS("alice")))),
                x -> x.query(b -> b.tableName(T).keyConditionExpression("pk = :p").returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                        .expressionAttributeValues(Map.of(":p", AttributeValue.fromS("alice"))))));
        c.add(new Cell("ReturnConsumedCapacity", "Scan", rcc, x -> x.scan(b -> b.tableName(T)),
                x -> x.scan(b -> b.tableName(T).returnConsumedCapacity(ReturnConsumedCapacity.TOTAL))));
        c.add(new Cell("ReturnConsumedCapacity", "BatchGetItem", rcc,
                x -> x.batchGetItem(b -> b.requestItems(Map.of(T, software.amazon.awssdk.services.dynamodb.model.KeysAndAttributes
                        .builder().keys(key("alice", "1")).build()))),
                x -> x.batchGetItem(b -> b.returnConsumedCapacity(ReturnConsumedCapacity.TOTAL).requestItems(Map.of(T,
                        software.amazon.awssdk.services.dynamodb.model.KeysAndAttributes.builder().keys(key("alice", "1")).build())))));
        c.add(new Cell("ReturnConsumedCapacity", "BatchWriteItem", rcc,
                x -> x.batchWriteItem(b -> b.requestItems(Map.of(T, List.of(WriteRequest.builder()
                        .putRequest(PutRequest.builder().item(item("alice", unique("rc"))).build()).build())))),
                x -> x.batchWriteItem(b -> b.returnConsumedCapacity(ReturnConsumedCapacity.TOTAL).requestItems(Map.of(T,
                        List.of(WriteRequest.builder().putRequest(PutRequest.builder().item(item("alice", unique("rc"))).build())
                                .build()))))));

        // dynamodb:EnclosingOperation: only inside a transaction.
        String enc = "ENC";
        c.add(new Cell("EnclosingOperation", "GetItem", enc,
                transactGet(TransactGetItem.builder().get(g -> g.tableName(T).key(key("alice", "1"))).build()),
                x -> x.getItem(b -> b.tableName(T).key(key("alice", "1")))));
        c.add(new Cell("EnclosingOperation", "PutItem", enc,
                transactWrite(TransactWriteItem.builder().put(p -> p.tableName(T).item(item("alice", unique("en")))).build()),
                x -> x.putItem(b -> b.tableName(T).item(item("alice", unique("en"))))));
        c.add(new Cell("EnclosingOperation", "UpdateItem", enc,
                transactWrite(TransactWriteItem.builder().update(u -> u.tableName(T).key(key("alice", unique("en")))
                        .updateExpression("SET #o = :v").expressionAttributeNames(Map.of("#o", "open"))
                        .expressionAttributeValues(Map.of(":v", AttributeValue.fromS("e")))).build()),
                x -> x.updateItem(b -> b.tableName(T).key(key("alice", unique("en"))))));
        c.add(new Cell("EnclosingOperation", "DeleteItem", enc,
                transactWrite(TransactWriteItem.builder().delete(d -> d.tableName(T).key(key("alice", unique("en")))).build()),
                x -> x.deleteItem(b -> b.tableName(T).key(key("alice", unique("en"))))));
        c.add(new Cell("EnclosingOperation", "PartiQLSelect", enc,
                transaction("SELECT * FROM \"Matrix\" WHERE pk = 'alice' AND sk = '1'"),
                statement("SELECT * FROM \"Matrix\" WHERE pk = 'alice' AND sk = '1'")));
        c.add(new Cell("EnclosingOperation", "PartiQLInsert", enc,
                transaction("INSERT INTO \"Matrix\" VALUE {'pk': 'alice', 'sk': '" + unique("en") + "'}"),
                statement("INSERT INTO \"Matrix\" VALUE {'pk': 'alice', 'sk': '" + unique("en") + "'}")));
        c.add(new Cell("EnclosingOperation", "PartiQLUpdate", enc,
                transaction("UPDATE \"Matrix\" SET open = 'c' WHERE pk = 'alice' AND sk = '1'"),
                batchStatement("UPDATE \"Matrix\" SET open = 'c' WHERE pk = 'alice' AND sk = '1'")));
        c.add(new Cell("EnclosingOperation", "PartiQLDelete", enc,
                transaction("DELETE FROM \"Matrix\" WHERE pk = 'alice' AND sk = '" + unique("en") + "'"),
                statement("DELETE FROM \"Matrix\" WHERE pk = 'alice' AND sk = '" + unique("en") + "'")));

        // dynamodb:FullTableScan: a SELECT that names its partitions is allowed, a scan is not.
        String scan = "SCAN";
        c.add(new Cell("FullTableScan", "PartiQLSelect", scan, statement("SELECT * FROM \"Matrix\" WHERE pk = 'alice'"),
                statement("SELECT * FROM \"Matrix\"")));
        c.add(new Cell("FullTableScan", "PartiQLSelect IN", scan,
                statement("SELECT * FROM \"Matrix\" WHERE pk IN ['alice', 'bob'] AND open = 'o'"),
                statement("SELECT * FROM \"Matrix\" WHERE open = 'o'")));
        c.add(new Cell("FullTableScan", "PartiQLSelect OR", scan,
                statement("SELECT * FROM \"Matrix\" WHERE pk = 'alice' OR pk = 'bob'"),
                statement("SELECT * FROM \"Matrix\" WHERE pk = 'alice' OR open = 'o'")));
        c.add(new Cell("FullTableScan", "PartiQLSelect sort key only", scan,
                statement("SELECT * FROM \"Matrix\" WHERE pk = 'alice' AND sk > '0'"),
                statement("SELECT * FROM \"Matrix\" WHERE sk = '1'")));
        c.add(new Cell("FullTableScan", "PartiQLSelect on an index", scan,
                statement("SELECT * FROM \"Matrix\".\"ByGame\" WHERE game = 'chess'"),
                statement("SELECT * FROM \"Matrix\".\"ByGame\"")));
        // aws:ResourceTag/${TagKey}: the blue team's table, not the red team's, through every front end.
        String tag = "TAG";
        c.add(new Cell("ResourceTag", "GetItem", tag, x -> x.getItem(b -> b.tableName(T).key(key("alice", "1"))),
                x -> x.getItem(b -> b.tableName(OTHER).key(key("alice", "1")))));
        c.add(new Cell("ResourceTag", "PutItem", tag, x -> x.putItem(b -> b.tableName(T).item(item("alice", unique("tg")))),
                x -> x.putItem(b -> b.tableName(OTHER).item(item("alice", unique("tg"))))));
        c.add(new Cell("ResourceTag", "Query on an index", tag,
                x -> x.query(b -> b.tableName(T).indexName("ByGame").keyConditionExpression("game = :g")
                        .expressionAttributeValues(Map.of(":g", AttributeValue.fromS("chess")))),
                x -> x.query(b -> b.tableName(OTHER).indexName("ByGame").keyConditionExpression("game = :g")
                        .expressionAttributeValues(Map.of(":g", AttributeValue.fromS("chess"))))));
        c.add(new Cell("ResourceTag", "PartiQLSelect (ExecuteStatement)", tag, statement("SELECT * FROM \"Matrix\""),
                statement("SELECT * FROM \"MatrixOther\"")));
        c.add(new Cell("ResourceTag", "DescribeTable", tag, x -> x.describeTable(b -> b.tableName(T)),
                x -> x.describeTable(b -> b.tableName(OTHER))));
        c.add(new Cell("ResourceTag", "GetRecords", tag,
                x -> streamsAs(tag).getRecords(b -> b.shardIterator(iterator(streamArn(T)))),
                x -> streamsAs(tag).getRecords(b -> b.shardIterator(iterator(streamArn(OTHER))))));
        // aws:RequestTag/${TagKey} and aws:TagKeys: only the team tag, only blue.
        String tagger = "TAGGER";
        c.add(new Cell("RequestTag", "CreateTable", tagger,
                x -> x.createTable(b -> b.tableName(unique("MatrixTagged")).billingMode(BillingMode.PAY_PER_REQUEST)
                        .attributeDefinitions(a -> a.attributeName("id").attributeType("S"))
                        .keySchema(k -> k.attributeName("id").keyType("HASH")).tags(t -> t.key("team").value("blue"))),
                x -> x.createTable(b -> b.tableName(unique("MatrixTagged")).billingMode(BillingMode.PAY_PER_REQUEST)
                        .attributeDefinitions(a -> a.attributeName("id").attributeType("S"))
                        .keySchema(k -> k.attributeName("id").keyType("HASH")).tags(t -> t.key("team").value("red")))));
        c.add(new Cell("RequestTag", "TagResource", tagger,
                x -> x.tagResource(b -> b.resourceArn(ARN + SCRATCH).tags(t -> t.key("team").value("blue"))),
                x -> x.tagResource(b -> b.resourceArn(ARN + SCRATCH).tags(t -> t.key("team").value("red")))));
        c.add(new Cell("TagKeys", "TagResource", tagger,
                x -> x.tagResource(b -> b.resourceArn(ARN + SCRATCH).tags(t -> t.key("team").value("blue"))),
                x -> x.tagResource(b -> b.resourceArn(ARN + SCRATCH).tags(t -> t.key("team").value("blue"),
                        t -> t.key("owner").value("mallory")))));
        c.add(new Cell("TagKeys", "UntagResource", tagger,
                x -> x.untagResource(b -> b.resourceArn(ARN + SCRATCH).tagKeys("team")),
                x -> x.untagResource(b -> b.resourceArn(ARN + SCRATCH).tagKeys("team", "owner"))));
        return c;
    }

    private static String streamArn(String table) {
        return admin.describeTable(b -> b.tableName(table)).table().latestStreamArn();
    }

    /**
     * Every cell both ways, then what the denied requests would have changed: bob's items, and
     * anything holding the attribute "secret", are as seeded.
     */
    @TestFactory
    Stream<DynamicTest> everyConditionKeyIsCarriedByEveryFrontEnd() {
        Stream<DynamicTest> cells = cells().stream().map(cell -> DynamicTest.dynamicTest(
                cell.key() + " x " + cell.action() + ": " + cell.user(), () -> {
                    assertAllowed(cell.user(), cell.allowed());
                    assertDenied(cell.user(), cell.denied());
                }));
        return Stream.concat(cells, Stream.of(DynamicTest.dynamicTest("denied requests changed nothing", () -> {
            List<Map<String, AttributeValue>> all = admin.scan(b -> b.tableName(T).consistentRead(true)).items();
            List<Map<String, AttributeValue>> bobs = all.stream().filter(i -> i.get("pk").s().equals("bob")).toList();
            assertEquals(List.of(item("bob", "1", "game", "go", "open", "o", "secret", "s")),
                    bobs.stream().map(LinkedHashMap::new).toList());
            List<Map<String, AttributeValue>> secrets = all.stream().filter(i -> i.containsKey("secret")).toList();
            assertEquals(2, secrets.size(), "only the seeded items hold a secret: " + secrets);
            for (Map<String, AttributeValue> i : secrets) assertEquals("s", i.get("secret").s());
        })));
    }

    // ---- every action asks -------------------------------------------------------------------

    /** A request of every served action that reaches its authorization (valid, on real resources where needed). */
    private static Map<String, Call> everyAction(String user) {
        DynamoDbStreamsClient streams = streamsAs(user);
        String streamArn = admin.describeTable(b -> b.tableName(T)).table().latestStreamArn();
        String shardId = adminStreams.describeStream(b -> b.streamArn(streamArn)).streamDescription().shards().get(0).shardId();
        String iterator = adminStreams.getShardIterator(b -> b.streamArn(streamArn).shardId(shardId)
                .shardIteratorType(ShardIteratorType.TRIM_HORIZON)).shardIterator();
        String scratchArn = ARN + SCRATCH;
        String backupArn = ARN + T + "/backup/01700000000000-0000abcd";
        Map<String, Call> calls = new LinkedHashMap<>();
        calls.put("CreateTable", x -> StatorTestServer.createTable(x, unique("MatrixCreated")));
        calls.put("DescribeTable", x -> x.describeTable(b -> b.tableName(T)));
        calls.put("ListTables", DynamoDbClient::listTables);
        calls.put("UpdateTable", x -> x.updateTable(b -> b.tableName(SCRATCH).deletionProtectionEnabled(false)));
        calls.put("DeleteTable", x -> x.deleteTable(b -> b.tableName(unique("MatrixNone"))));
        calls.put("TagResource", x -> x.tagResource(b -> b.resourceArn(scratchArn).tags(t -> t.key("k").value("v"))));
        calls.put("UntagResource", x -> x.untagResource(b -> b.resourceArn(scratchArn).tagKeys("k")));
        calls.put("ListTagsOfResource", x -> x.listTagsOfResource(b -> b.resourceArn(scratchArn)));
        calls.put("DescribeEndpoints", DynamoDbClient::describeEndpoints);
        calls.put("DescribeLimits", DynamoDbClient::describeLimits);
        calls.put("PutItem", x -> x.putItem(b -> b.tableName(T).item(item("alice", unique("every")))));
        calls.put("GetItem", x -> x.getItem(b -> b.tableName(T).key(key("alice", "1"))));
        calls.put("DeleteItem", x -> x.deleteItem(b -> b.tableName(T).key(key("alice", unique("every")))));
        calls.put("UpdateItem", x -> x.updateItem(b -> b.tableName(T).key(key("alice", unique("every")))));
        calls.put("Query", x -> x.query(b -> b.tableName(T).keyConditionExpression("pk = :p")
                .expressionAttributeValues(Map.of(":p", AttributeValue.fromS("alice")))));
        calls.put("Scan", x -> x.scan(b -> b.tableName(T)));
        calls.put("SearchVectors", x -> x.searchVectors(b -> b.tableName(T).indexName("ByEmbedding")
                .searchVector(AttributeValue.fromN("1"), AttributeValue.fromN("2")).topK(1)));
        calls.put("BatchGetItem", x -> x.batchGetItem(b -> b.requestItems(Map.of(T,
                software.amazon.awssdk.services.dynamodb.model.KeysAndAttributes.builder().keys(key("alice", "1")).build()))));
        calls.put("BatchWriteItem", x -> x.batchWriteItem(b -> b.requestItems(Map.of(T, List.of(WriteRequest.builder()
                .putRequest(PutRequest.builder().item(item("alice", unique("every"))).build()).build())))));
        calls.put("TransactWriteItems", transactWrite(TransactWriteItem.builder()
                .put(p -> p.tableName(T).item(item("alice", unique("every")))).build()));
        calls.put("TransactGetItems", transactGet(TransactGetItem.builder().get(g -> g.tableName(T).key(key("alice", "1"))).build()));
        calls.put("ExecuteStatement", statement("SELECT * FROM \"Matrix\" WHERE pk = 'alice'"));
        calls.put("BatchExecuteStatement", batchStatement("SELECT * FROM \"Matrix\" WHERE pk = 'alice' AND sk = '1'"));
        calls.put("ExecuteTransaction", transaction("SELECT * FROM \"Matrix\" WHERE pk = 'alice' AND sk = '1'"));
        calls.put("PutResourcePolicy", x -> x.putResourcePolicy(b -> b.resourceArn(scratchArn).policy(
                "{\"Version\": \"2012-10-17\", \"Statement\": {\"Effect\": \"Deny\", \"Principal\": {\"AWS\": \"arn:aws:iam::"
                        + ACCOUNT + ":user/nobody-at-all\"}, \"Action\": \"dynamodb:GetItem\", \"Resource\": \"" + scratchArn + "\"}}")));
        calls.put("GetResourcePolicy", x -> x.getResourcePolicy(b -> b.resourceArn(scratchArn)));
        calls.put("DeleteResourcePolicy", x -> x.deleteResourcePolicy(b -> b.resourceArn(scratchArn)));
        calls.put("UpdateTimeToLive", x -> x.updateTimeToLive(b -> b.tableName(SCRATCH)
                .timeToLiveSpecification(t -> t.attributeName("expires").enabled(true))));
        calls.put("DescribeTimeToLive", x -> x.describeTimeToLive(b -> b.tableName(SCRATCH)));
        calls.put("DescribeKinesisStreamingDestination", x -> x.describeKinesisStreamingDestination(b -> b.tableName(SCRATCH)));
        String kinesisStream = "arn:aws:kinesis:us-east-1:" + ACCOUNT + ":stream/matrix";
        // Without --kinesis-endpoint an Enable is accepted and fails later; Disable and Update then
        // refuse (the destination is not ACTIVE) once authorized.
        calls.put("EnableKinesisStreamingDestination", x -> x.enableKinesisStreamingDestination(b -> b.tableName(SCRATCH)
                .streamArn(kinesisStream)));
        calls.put("DisableKinesisStreamingDestination", x -> x.disableKinesisStreamingDestination(b -> b.tableName(SCRATCH)
                .streamArn(kinesisStream)));
        calls.put("UpdateKinesisStreamingDestination", x -> x.updateKinesisStreamingDestination(b -> b.tableName(SCRATCH)
                .streamArn(kinesisStream).updateKinesisStreamingConfiguration(c -> c.approximateCreationDateTimePrecision("MICROSECOND"))));
        // The legacy global tables' operations refuse (or find nothing) once authorized.
        calls.put("CreateGlobalTable", x -> x.createGlobalTable(b -> b.globalTableName(T).replicationGroup(r -> r.regionName("us-east-1"))));
        calls.put("UpdateGlobalTable", x -> x.updateGlobalTable(b -> b.globalTableName(T)
                .replicaUpdates(u -> u.delete(d -> d.regionName("us-west-2")))));
        calls.put("DescribeGlobalTable", x -> x.describeGlobalTable(b -> b.globalTableName(T)));
        calls.put("ListGlobalTables", x -> x.listGlobalTables(b -> { }));
        calls.put("DescribeGlobalTableSettings", x -> x.describeGlobalTableSettings(b -> b.globalTableName(T)));
        calls.put("UpdateGlobalTableSettings", x -> x.updateGlobalTableSettings(b -> b.globalTableName(T)
                .globalTableBillingMode(BillingMode.PAY_PER_REQUEST)));
        calls.put("CreateBackup", x -> x.createBackup(b -> b.tableName(T).backupName(unique("every"))));
        calls.put("DescribeBackup", x -> x.describeBackup(b -> b.backupArn(backupArn)));
        calls.put("ListBackups", DynamoDbClient::listBackups);
        calls.put("DeleteBackup", x -> x.deleteBackup(b -> b.backupArn(backupArn)));
        calls.put("RestoreTableFromBackup", x -> x.restoreTableFromBackup(b -> b.backupArn(backupArn)
                .targetTableName(unique("MatrixRestored"))));
        calls.put("UpdateContinuousBackups", x -> x.updateContinuousBackups(b -> b.tableName(SCRATCH)
                .pointInTimeRecoverySpecification(p -> p.pointInTimeRecoveryEnabled(true))));
        calls.put("DescribeContinuousBackups", x -> x.describeContinuousBackups(b -> b.tableName(SCRATCH)));
        calls.put("RestoreTableToPointInTime", x -> x.restoreTableToPointInTime(b -> b.sourceTableName(SCRATCH)
                .targetTableName(unique("MatrixRestored")).useLatestRestorableTime(true)));
        calls.put("ExportTableToPointInTime", x -> x.exportTableToPointInTime(b -> b.tableArn(ARN + SCRATCH).s3Bucket("bucket")));
        calls.put("DescribeExport", x -> x.describeExport(b -> b.exportArn(ARN + SCRATCH + "/export/01700000000000-0000abcd")));
        calls.put("ListExports", x -> x.listExports(b -> b.tableArn(ARN + SCRATCH)));
        calls.put("ImportTable", x -> x.importTable(b -> b.s3BucketSource(s -> s.s3Bucket("nobucket")).inputFormat("DYNAMODB_JSON")
                .tableCreationParameters(t -> t.tableName(unique("MatrixImported")).billingMode(BillingMode.PAY_PER_REQUEST)
                        .attributeDefinitions(a -> a.attributeName("pk").attributeType("S"))
                        .keySchema(k -> k.attributeName("pk").keyType("HASH")))));
        calls.put("DescribeImport", x -> x.describeImport(b -> b.importArn(ARN + SCRATCH + "/import/01700000000000-0000abcd")));
        calls.put("ListImports", x -> x.listImports(b -> b.tableArn(ARN + SCRATCH)));
        calls.put("UpdateContributorInsights", x -> x.updateContributorInsights(b -> b.tableName(SCRATCH)
                .contributorInsightsAction(software.amazon.awssdk.services.dynamodb.model.ContributorInsightsAction.ENABLE)));
        calls.put("DescribeContributorInsights", x -> x.describeContributorInsights(b -> b.tableName(SCRATCH)));
        calls.put("ListContributorInsights", x -> x.listContributorInsights(b -> { }));
        calls.put("ListStreams", x -> streams.listStreams(b -> b.tableName(T)));
        calls.put("DescribeStream", x -> streams.describeStream(b -> b.streamArn(streamArn)));
        calls.put("GetShardIterator", x -> streams.getShardIterator(b -> b.streamArn(streamArn).shardId(shardId)
                .shardIteratorType(ShardIteratorType.LATEST)));
        calls.put("GetRecords", x -> streams.getRecords(b -> b.shardIterator(iterator)));
        return calls;
    }

    /** Every action the server serves is in the table above: a new one must join it. */
    @Test
    void everyServedActionIsInTheMatrix() {
        assertEquals(new Actions(server.engine(), () -> "localhost").names(), new TreeSet<>(everyAction("ALL").keySet()));
    }

    @TestFactory
    Stream<DynamicTest> everyActionAsksTheAuthorizer() {
        return everyAction("NOBODY").entrySet().stream().map(e -> DynamicTest.dynamicTest(e.getKey(), () -> {
            assertDenied("NOBODY", e.getValue());
            Call asAll = everyAction("ALL").get(e.getKey());
            try {
                asAll.run(as("ALL"));
            } catch (DynamoDbException refused) {
                assertNotEquals("AccessDeniedException", refused.awsErrorDetails().errorCode(), refused.getMessage());
            } catch (MemberError refused) {
                assertNotEquals("AccessDenied", refused.code, refused.getMessage());
            }
        }));
    }

    // ---- the advisor's read API ------------------------------------------------------------------

    private static RawHttp.Response advisor(String user, String route, Map<String, String> parameters) {
        RawHttp.Request request = new ManualSigV4("AKID" + user, "secret-" + user, "us-east-1")
                .signGet(server.port(), "/stator/advisor/" + route, new java.util.TreeMap<>(parameters), Instant.now());
        return RawHttp.exchange(server.port(), request);
    }

    /**
     * With --policies the advisor's answers go to signed callers their policies allow: top-keys and
     * partitions on dynamodb:DescribeContributorInsights of the table or index, access-patterns and
     * a table's findings on dynamodb:DescribeTable, every table's findings on dynamodb:ListTables.
     */
    @Test
    void theAdvisorsReadApiAnswersSignedCallersThePoliciesAllow() {
        RawHttp.Response unsigned = RawHttp.exchange(server.port(), new RawHttp.Request("GET",
                "/stator/advisor/top-keys?table=" + T, Map.of(), new byte[0]));
        assertEquals(400, unsigned.status(), unsigned.toString());
        assertTrue(unsigned.bodyText().contains("MissingAuthenticationToken"), unsigned.toString());
        for (String route : List.of("top-keys", "partitions", "access-patterns", "findings", "table", "heat-map",
                "throttle-events", "cost")) {
            assertEquals(200, advisor("ALL", route, Map.of("table", T)).status(), route);
            RawHttp.Response nobody = advisor("NOBODY", route, Map.of("table", T));
            assertEquals(400, nobody.status(), route);
            assertTrue(nobody.bodyText().contains("AccessDeniedException"), nobody.toString());
        }
        assertEquals(200, advisor("ALL", "findings", Map.of()).status());
        assertEquals(200, advisor("INSIGHTS", "top-keys", Map.of("table", T)).status());
        assertEquals(200, advisor("INSIGHTS", "top-keys", Map.of("table", T, "index", "ByGame")).status());
        assertEquals(200, advisor("INSIGHTS", "partitions", Map.of("table", T)).status());
        RawHttp.Response other = advisor("INSIGHTS", "top-keys", Map.of("table", OTHER));
        assertTrue(other.bodyText().contains("is not authorized to perform: dynamodb:DescribeContributorInsights on resource: "
                + ARN + OTHER + " "), other.toString());
        RawHttp.Response patterns = advisor("INSIGHTS", "access-patterns", Map.of("table", T));
        assertTrue(patterns.bodyText().contains("dynamodb:DescribeTable"), patterns.toString());
        RawHttp.Response everyTable = advisor("INSIGHTS", "findings", Map.of());
        assertTrue(everyTable.bodyText().contains("dynamodb:ListTables"), everyTable.toString());
        // Authorized before the table is looked up: a stranger learns nothing of what exists.
        RawHttp.Response missing = advisor("INSIGHTS", "top-keys", Map.of("table", "NoSuchTable"));
        assertTrue(missing.bodyText().contains("AccessDeniedException"), missing.toString());
    }

    private static RawHttp.Response console(String user, String path) {
        RawHttp.Request request = user == null ? new RawHttp.Request("GET", path, Map.of(), new byte[0])
                : new ManualSigV4("AKID" + user, "secret-" + user, "us-east-1")
                        .signGet(server.port(), path, new java.util.TreeMap<>(), Instant.now());
        return RawHttp.exchange(server.port(), request);
    }

    /**
     * The console shows whoever reaches it what /metrics shows; keys, items and findings only to a
     * caller the policies let read them: an unsigned browser sees none, a signed caller what its
     * policies allow (items need dynamodb:Scan, keys dynamodb:DescribeContributorInsights).
     */
    @Test
    void theConsoleShowsKeysAndItemsOnlyToCallersThePoliciesAllow() {
        for (String user : new String[] {null, "NOBODY"}) {
            RawHttp.Response table = console(user, "/console/tables/" + T);
            assertEquals(200, table.status(), String.valueOf(user));
            assertTrue(table.bodyText().contains("Hidden: your request may not Scan this table."), table.bodyText());
            assertFalse(table.bodyText().contains("alice"), "no item leaves: " + user);
            assertTrue(table.bodyText().contains("This server enforces --policies"), table.bodyText());
            RawHttp.Response top = console(user, "/console/tables/" + T + "/top-keys");
            assertTrue(top.bodyText().contains("Hidden: your request may not read this table's keys."), top.bodyText());
            RawHttp.Response findings = console(user, "/console/findings");
            assertFalse(findings.bodyText().contains("<article"), findings.bodyText());
            RawHttp.Response patterns = console(user, "/console/tables/" + T + "/access-patterns");
            assertTrue(patterns.bodyText().contains("Hidden: your request may not describe this table"),
                    patterns.bodyText());
        }
        assertFalse(console("ALL", "/console/tables/" + T + "/access-patterns").bodyText().contains("Hidden:"));
        RawHttp.Response all = console("ALL", "/console/tables/" + T);
        assertTrue(all.bodyText().contains("\"alice\""), all.bodyText());
        assertFalse(all.bodyText().contains("Hidden:"), all.bodyText());
        RawHttp.Response insights = console("INSIGHTS", "/console/tables/" + T);
        assertTrue(insights.bodyText().contains("Hidden: your request may not Scan this table."), insights.bodyText());
        RawHttp.Response insightsTop = console("INSIGHTS", "/console/tables/" + T + "/top-keys");
        assertFalse(insightsTop.bodyText().contains("Hidden:"), insightsTop.bodyText());
    }

    // ---- restores, streams ---------------------------------------------------------------------

    @Test
    void aRestoreNeedsTheDataActionsOnTheTableItFills() throws InterruptedException {
        String backupArn = admin.createBackup(b -> b.tableName(T).backupName(unique("restore"))).backupDetails().backupArn();
        while (!admin.describeBackup(b -> b.backupArn(backupArn)).backupDescription().backupDetails()
                .backupStatusAsString().equals("AVAILABLE")) {
            Thread.sleep(20);
        }
        String target = unique("MatrixRestored");
        DynamoDbException e = assertThrows(DynamoDbException.class, () -> as("RESTORER").restoreTableFromBackup(
                b -> b.backupArn(backupArn).targetTableName(target)));
        assertEquals("User: arn:aws:iam::" + ACCOUNT + ":user/restorer is not authorized to perform: dynamodb:BatchWriteItem"
                + " on resource: " + ARN + target + " because no identity-based policy allows the dynamodb:BatchWriteItem action",
                e.awsErrorDetails().errorMessage());
        assertTrue(admin.listTables().tableNames().stream().noneMatch(target::equals));
        as("ALL").restoreTableFromBackup(b -> b.backupArn(backupArn).targetTableName(target));
    }

    @Test
    void aStreamIsReadOnlyByWhoMayReadItWhoeverHoldsTheIterator() {
        String matrixStream = admin.describeTable(b -> b.tableName(T)).table().latestStreamArn();
        String otherStream = admin.describeTable(b -> b.tableName(OTHER)).table().latestStreamArn();
        String matrixIterator = iterator(matrixStream);
        String otherIterator = iterator(otherStream);
        // A key allowed only ListTables, with another key's iterator.
        DynamoDbException lister = assertThrows(DynamoDbException.class,
                () -> streamsAs("LISTER").getRecords(b -> b.shardIterator(matrixIterator)));
        assertEquals("User: arn:aws:iam::" + ACCOUNT + ":user/lister is not authorized to perform: dynamodb:GetRecords"
                + " on resource: " + matrixStream + " because no identity-based policy allows the dynamodb:GetRecords action",
                lister.awsErrorDetails().errorMessage());
        // A key allowed one table's stream reads it, but not another table's with its iterator.
        assertTrue(streamsAs("STREAMER").getRecords(b -> b.shardIterator(matrixIterator)).hasRecords());
        DynamoDbException streamer = assertThrows(DynamoDbException.class,
                () -> streamsAs("STREAMER").getRecords(b -> b.shardIterator(otherIterator)));
        assertEquals("AccessDeniedException", streamer.awsErrorDetails().errorCode());
        assertTrue(streamer.awsErrorDetails().errorMessage().contains("on resource: " + otherStream + " "));
    }

    private static String iterator(String streamArn) {
        String shardId = adminStreams.describeStream(b -> b.streamArn(streamArn)).streamDescription().shards().get(0).shardId();
        return adminStreams.getShardIterator(b -> b.streamArn(streamArn).shardId(shardId)
                .shardIteratorType(ShardIteratorType.TRIM_HORIZON)).shardIterator();
    }

    /**
     * Iterators are the server's word: one made by hand (the old plain form, position 0, issued
     * ten years ahead), one changed by a character, one cut short, are all refused before
     * anything is read or authorized.
     */
    @Test
    void forgedIteratorsAreRefused() {
        String matrixStream = admin.describeTable(b -> b.tableName(T)).table().latestStreamArn();
        String genuine = iterator(matrixStream);
        long tenYears = Instant.now().plusSeconds(10L * 365 * 24 * 3600).toEpochMilli();
        List<String> forged = new ArrayList<>();
        forged.add(Base64.getUrlEncoder().withoutPadding().encodeToString(
                (T + "|" + Instant.now().toEpochMilli() + "|0|0|0|" + tenYears).getBytes(StandardCharsets.UTF_8)));
        char last = genuine.charAt(genuine.length() - 1);
        forged.add(genuine.substring(0, genuine.length() - 1) + (last == 'A' ? 'B' : 'A'));
        char middle = genuine.charAt(genuine.length() / 2);
        forged.add(genuine.substring(0, genuine.length() / 2) + (middle == 'A' ? 'B' : 'A')
                + genuine.substring(genuine.length() / 2 + 1));
        forged.add(genuine.substring(0, genuine.length() - 8));
        forged.add(genuine + "AAAA");
        for (String it : forged) {
            for (String user : List.of("ALL", "STREAMER", "NOBODY")) {
                DynamoDbException e = assertThrows(DynamoDbException.class,
                        () -> streamsAs(user).getRecords(b -> b.shardIterator(it)), it);
                assertEquals("ValidationException", e.awsErrorDetails().errorCode(), it);
                assertEquals("Invalid ShardIterator", e.awsErrorDetails().errorMessage(), it);
            }
        }
    }
}
