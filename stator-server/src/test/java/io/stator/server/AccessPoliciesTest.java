package io.stator.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stator.server.testing.StatorTestServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.PutRequest;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;
import software.amazon.awssdk.services.dynamodb.model.Select;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/**
 * Who may do what, through the AWS SDK against a server started with --credentials and
 * --policies: IAM's evaluation of identity-based policies (allow, explicit deny, default deny),
 * DynamoDB's fine-grained access (leading keys, attributes, Select, ReturnValues), index
 * resources, resource-based policies, and batches and transactions checked item by item. The
 * policies are the DynamoDB Developer Guide's examples ("Using IAM policy conditions for
 * fine-grained access control", "Using IAM with DynamoDB transactions").
 */
class AccessPoliciesTest {

    private static final String ACCOUNT = "000000000000";
    private static final String GAMES = "Games";
    private static final String GAMES_ARN = "arn:aws:dynamodb:us-east-1:" + ACCOUNT + ":table/" + GAMES;

    private static final String OWN_ITEMS = "{\"Version\": \"2012-10-17\", \"Statement\": [{\"Effect\": \"Allow\", "
            + "\"Action\": [\"dynamodb:GetItem\", \"dynamodb:PutItem\", \"dynamodb:UpdateItem\", \"dynamodb:DeleteItem\", "
            + "\"dynamodb:Query\", \"dynamodb:BatchGetItem\", \"dynamodb:BatchWriteItem\", \"dynamodb:ConditionCheckItem\"], "
            + "\"Resource\": \"arn:aws:dynamodb:*:*:table/Games\", "
            + "\"Condition\": {\"ForAllValues:StringEquals\": {\"dynamodb:LeadingKeys\": [\"${aws:username}\"]}}}]}";

    private static final String POLICIES = "{\n"
            + "  \"" + StatorTestServer.ACCESS_KEY + "\": {\"UserName\": \"admin\", \"Policies\": {\"Version\": \"2012-10-17\","
            + "    \"Statement\": {\"Effect\": \"Allow\", \"Action\": \"dynamodb:*\", \"Resource\": \"*\"}}},\n"
            + "  \"AKIDALICE\": {\"UserName\": \"alice\", \"Policies\": " + OWN_ITEMS + "},\n"
            + "  \"AKIDBOB\": {\"UserName\": \"bob\", \"Policies\": [" + OWN_ITEMS + "]},\n"
            + "  \"AKIDCAROL\": {\"UserName\": \"carol\", \"Policies\": {\"Version\": \"2012-10-17\", \"Statement\": ["
            + "    {\"Effect\": \"Allow\", \"Action\": [\"dynamodb:GetItem\", \"dynamodb:Query\", \"dynamodb:UpdateItem\"],"
            + "     \"Resource\": \"arn:aws:dynamodb:*:*:table/Games\", \"Condition\": {"
            + "       \"ForAllValues:StringEquals\": {\"dynamodb:Attributes\": [\"pk\", \"sk\", \"TopScore\"]},"
            + "       \"StringEqualsIfExists\": {\"dynamodb:Select\": \"SPECIFIC_ATTRIBUTES\","
            + "         \"dynamodb:ReturnValues\": [\"NONE\", \"UPDATED_OLD\", \"UPDATED_NEW\"]}}}]}},\n"
            + "  \"AKIDDAVE\": {\"UserName\": \"dave\", \"Policies\": [{\"Version\": \"2012-10-17\", \"Statement\": ["
            + "    {\"Effect\": \"Allow\", \"Action\": \"dynamodb:*\", \"Resource\": \"*\"},"
            + "    {\"Effect\": \"Deny\", \"Action\": \"dynamodb:DeleteItem\", \"Resource\": \"*\"}]}]},\n"
            + "  \"AKIDFRANK\": {\"Version\": \"2012-10-17\", \"Statement\": {\"Effect\": \"Allow\", \"Action\": \"dynamodb:Query\","
            + "    \"Resource\": \"" + GAMES_ARN + "/index/*\"}},\n"
            + "  \"AKIDGRACE\": {\"UserName\": \"grace\", \"Policies\": {\"Version\": \"2012-10-17\", \"Statement\": {"
            + "    \"Effect\": \"Allow\", \"Action\": [\"dynamodb:PutItem\", \"dynamodb:ConditionCheckItem\"],"
            + "    \"Resource\": \"arn:aws:dynamodb:*:*:table/Games\", \"Condition\": {\"ForAnyValue:StringEquals\": "
            + "    {\"dynamodb:EnclosingOperation\": [\"TransactWriteItems\"]}}}}}\n"
            + "}\n";

    private static Path directory;
    private static StatorTestServer server;
    private static DynamoDbClient admin;

    @BeforeAll
    static void start() throws IOException {
        directory = Files.createTempDirectory("stator-policies-");
        Path credentials = directory.resolve("credentials.txt");
        StringBuilder keys = new StringBuilder(StatorTestServer.ACCESS_KEY + " " + StatorTestServer.SECRET_KEY + "\n");
        for (String user : List.of("ALICE", "BOB", "CAROL", "DAVE", "ERIN", "FRANK", "GRACE")) {
            keys.append("AKID").append(user).append(" secret-").append(user).append('\n');
        }
        Files.writeString(credentials, keys);
        Path policies = directory.resolve("policies.json");
        Files.writeString(policies, POLICIES);
        server = StatorTestServer.start(o -> o.withCredentials(credentials).withPolicies(policies));
        admin = server.client();
        admin.createTable(b -> b.tableName(GAMES).billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(a -> a.attributeName("pk").attributeType("S"),
                        a -> a.attributeName("sk").attributeType("S"), a -> a.attributeName("game").attributeType("S"))
                .keySchema(k -> k.attributeName("pk").keyType("HASH"), k -> k.attributeName("sk").keyType("RANGE"))
                .globalSecondaryIndexes(g -> g.indexName("ByGame").keySchema(k -> k.attributeName("game").keyType("HASH"))
                        .projection(p -> p.projectionType(ProjectionType.ALL))));
    }

    @AfterAll
    static void stop() {
        server.close();
        StatorTestServer.deleteRecursively(directory);
    }

    private static DynamoDbClient as(String user) {
        return server.newClient("AKID" + user, "secret-" + user);
    }

    private static Map<String, AttributeValue> key(String pk, String sk) {
        return Map.of("pk", AttributeValue.fromS(pk), "sk", AttributeValue.fromS(sk));
    }

    private static Map<String, AttributeValue> item(String pk, String sk, String game) {
        return Map.of("pk", AttributeValue.fromS(pk), "sk", AttributeValue.fromS(sk), "game", AttributeValue.fromS(game),
                "TopScore", AttributeValue.fromN("10"), "Secret", AttributeValue.fromS("hidden"));
    }

    private static String denied(String user, String action, String resource, String because) {
        return "User: arn:aws:iam::" + ACCOUNT + ":user/" + user + " is not authorized to perform: dynamodb:" + action
                + " on resource: " + resource + because;
    }

    private static String noPolicyAllows(String action) {
        return " because no identity-based policy allows the dynamodb:" + action + " action";
    }

    private static void assertDenied(String message, Executable call) {
        DynamoDbException e = assertThrows(DynamoDbException.class, call);
        assertEquals(400, e.statusCode());
        assertEquals("AccessDeniedException", e.awsErrorDetails().errorCode());
        assertEquals(message, e.awsErrorDetails().errorMessage());
    }

    @Test
    void whatAPolicyAllowsIsAllowed() {
        admin.putItem(b -> b.tableName(GAMES).item(item("admin", "1", "chess")));
        assertTrue(admin.listTables().tableNames().contains(GAMES));
    }

    @Test
    void aKeyWithoutPoliciesMayDoNothingAndIsToldWhy() {
        try (DynamoDbClient erin = as("ERIN")) {
            assertDenied(denied("AKIDERIN", "ListTables", "*", noPolicyAllows("ListTables")), erin::listTables);
            assertDenied(denied("AKIDERIN", "GetItem", GAMES_ARN, noPolicyAllows("GetItem")),
                    () -> erin.getItem(b -> b.tableName(GAMES).key(key("admin", "1"))));
        }
    }

    @Test
    void aTableThatDoesNotExistIsNotRevealedToWhoMayNotUseIt() {
        String missing = "arn:aws:dynamodb:us-east-1:" + ACCOUNT + ":table/NoSuchTable";
        try (DynamoDbClient erin = as("ERIN")) {
            assertDenied(denied("AKIDERIN", "DescribeTable", missing, noPolicyAllows("DescribeTable")),
                    () -> erin.describeTable(b -> b.tableName("NoSuchTable")));
        }
        DynamoDbException e = assertThrows(DynamoDbException.class, () -> admin.describeTable(b -> b.tableName("NoSuchTable")));
        assertEquals("ResourceNotFoundException", e.awsErrorDetails().errorCode());
    }

    @Test
    void timeToLiveIsAuthorizedAsATableAction() {
        try (DynamoDbClient erin = as("ERIN"); DynamoDbClient dave = as("DAVE")) {
            assertDenied(denied("AKIDERIN", "DescribeTimeToLive", GAMES_ARN, noPolicyAllows("DescribeTimeToLive")),
                    () -> erin.describeTimeToLive(b -> b.tableName(GAMES)));
            assertDenied(denied("AKIDERIN", "UpdateTimeToLive", GAMES_ARN, noPolicyAllows("UpdateTimeToLive")),
                    () -> erin.updateTimeToLive(b -> b.tableName(GAMES)
                            .timeToLiveSpecification(t -> t.enabled(true).attributeName("ttl"))));
            assertEquals("DISABLED", dave.describeTimeToLive(b -> b.tableName(GAMES)).timeToLiveDescription()
                    .timeToLiveStatusAsString());
        }
    }

    @Test
    void anExplicitDenyWinsOverAnAllow() {
        try (DynamoDbClient dave = as("DAVE")) {
            dave.putItem(b -> b.tableName(GAMES).item(item("dave", "1", "go")));
            assertDenied(denied("dave", "DeleteItem", GAMES_ARN, " with an explicit deny in an identity-based policy"),
                    () -> dave.deleteItem(b -> b.tableName(GAMES).key(key("dave", "1"))));
        }
    }

    @Test
    void leadingKeysKeepEachUserToTheirOwnPartition() {
        try (DynamoDbClient alice = as("ALICE"); DynamoDbClient bob = as("BOB")) {
            alice.putItem(b -> b.tableName(GAMES).item(item("alice", "1", "chess")));
            bob.putItem(b -> b.tableName(GAMES).item(item("bob", "1", "go")));

            assertEquals("chess", alice.getItem(b -> b.tableName(GAMES).key(key("alice", "1"))).item().get("game").s());
            assertDenied(denied("bob", "GetItem", GAMES_ARN, noPolicyAllows("GetItem")),
                    () -> bob.getItem(b -> b.tableName(GAMES).key(key("alice", "1"))));
            assertDenied(denied("alice", "PutItem", GAMES_ARN, noPolicyAllows("PutItem")),
                    () -> alice.putItem(b -> b.tableName(GAMES).item(item("bob", "2", "chess"))));
            assertDenied(denied("alice", "UpdateItem", GAMES_ARN, noPolicyAllows("UpdateItem")),
                    () -> alice.updateItem(b -> b.tableName(GAMES).key(key("bob", "1"))
                            .updateExpression("SET TopScore = :s").expressionAttributeValues(Map.of(":s", AttributeValue.fromN("0")))));

            assertEquals(1, alice.query(b -> b.tableName(GAMES).keyConditionExpression("pk = :me")
                    .expressionAttributeValues(Map.of(":me", AttributeValue.fromS("alice")))).count());
            assertDenied(denied("alice", "Query", GAMES_ARN, noPolicyAllows("Query")),
                    () -> alice.query(b -> b.tableName(GAMES).keyConditionExpression("pk = :other")
                            .expressionAttributeValues(Map.of(":other", AttributeValue.fromS("bob")))));
            // Scan reads every partition: the policy (as the guide's) does not grant it.
            assertDenied(denied("alice", "Scan", GAMES_ARN, noPolicyAllows("Scan")), () -> alice.scan(b -> b.tableName(GAMES)));
            assertEquals("go", admin.getItem(b -> b.tableName(GAMES).key(key("bob", "1"))).item().get("game").s());
        }
    }

    @Test
    void attributesLimitWhatAUserMayReadWriteAndAskBack() {
        admin.putItem(b -> b.tableName(GAMES).item(item("carol", "1", "chess")));
        try (DynamoDbClient carol = as("CAROL")) {
            Map<String, AttributeValue> got = carol.getItem(b -> b.tableName(GAMES).key(key("carol", "1"))
                    .projectionExpression("pk, sk, TopScore")).item();
            assertEquals(Map.of("pk", AttributeValue.fromS("carol"), "sk", AttributeValue.fromS("1"),
                    "TopScore", AttributeValue.fromN("10")), got);
            // All attributes (no projection), or one not listed, are refused.
            assertDenied(denied("carol", "GetItem", GAMES_ARN, noPolicyAllows("GetItem")),
                    () -> carol.getItem(b -> b.tableName(GAMES).key(key("carol", "1"))));
            assertDenied(denied("carol", "GetItem", GAMES_ARN, noPolicyAllows("GetItem")),
                    () -> carol.getItem(b -> b.tableName(GAMES).key(key("carol", "1")).projectionExpression("Secret")));
            assertDenied(denied("carol", "Query", GAMES_ARN, noPolicyAllows("Query")),
                    () -> carol.query(b -> b.tableName(GAMES).keyConditionExpression("pk = :p")
                            .expressionAttributeValues(Map.of(":p", AttributeValue.fromS("carol"))).select(Select.ALL_ATTRIBUTES)));
            assertEquals(1, carol.query(b -> b.tableName(GAMES).keyConditionExpression("pk = :p")
                    .expressionAttributeValues(Map.of(":p", AttributeValue.fromS("carol")))
                    .projectionExpression("TopScore")).count());
            assertEquals(Map.of("TopScore", AttributeValue.fromN("10")), carol.query(b -> b.tableName(GAMES)
                    .keyConditionExpression("pk = :p").expressionAttributeValues(Map.of(":p", AttributeValue.fromS("carol")))
                    .select(Select.SPECIFIC_ATTRIBUTES).projectionExpression("TopScore")).items().get(0));
            assertDenied(denied("carol", "Query", GAMES_ARN, noPolicyAllows("Query")),
                    () -> carol.query(b -> b.tableName(GAMES).keyConditionExpression("pk = :p")
                            .expressionAttributeValues(Map.of(":p", AttributeValue.fromS("carol")))
                            .select(Select.SPECIFIC_ATTRIBUTES).projectionExpression("TopScore, Secret")));

            // ReturnValues limited to what returns only the updated (allowed) attributes.
            assertEquals("11", carol.updateItem(b -> b.tableName(GAMES).key(key("carol", "1"))
                    .updateExpression("SET TopScore = :s").expressionAttributeValues(Map.of(":s", AttributeValue.fromN("11")))
                    .returnValues(ReturnValue.UPDATED_NEW)).attributes().get("TopScore").n());
            assertDenied(denied("carol", "UpdateItem", GAMES_ARN, noPolicyAllows("UpdateItem")),
                    () -> carol.updateItem(b -> b.tableName(GAMES).key(key("carol", "1"))
                            .updateExpression("SET TopScore = :s").expressionAttributeValues(Map.of(":s", AttributeValue.fromN("12")))
                            .returnValues(ReturnValue.ALL_NEW)));
            // Neither writing nor conditioning on an attribute not listed.
            assertDenied(denied("carol", "UpdateItem", GAMES_ARN, noPolicyAllows("UpdateItem")),
                    () -> carol.updateItem(b -> b.tableName(GAMES).key(key("carol", "1"))
                            .updateExpression("SET Secret = :s").expressionAttributeValues(Map.of(":s", AttributeValue.fromS("x")))));
            assertDenied(denied("carol", "UpdateItem", GAMES_ARN, noPolicyAllows("UpdateItem")),
                    () -> carol.updateItem(b -> b.tableName(GAMES).key(key("carol", "1"))
                            .updateExpression("SET TopScore = :s").conditionExpression("attribute_exists(Secret)")
                            .expressionAttributeValues(Map.of(":s", AttributeValue.fromN("13")))));
        }
        assertEquals("hidden", admin.getItem(b -> b.tableName(GAMES).key(key("carol", "1"))).item().get("Secret").s());
    }

    @Test
    void anIndexIsItsOwnResource() {
        admin.putItem(b -> b.tableName(GAMES).item(item("frank", "1", "backgammon")));
        try (DynamoDbClient frank = as("FRANK")) {
            assertEquals(1, frank.query(b -> b.tableName(GAMES).indexName("ByGame").keyConditionExpression("game = :g")
                    .expressionAttributeValues(Map.of(":g", AttributeValue.fromS("backgammon")))).count());
            assertDenied(denied("AKIDFRANK", "Query", GAMES_ARN, noPolicyAllows("Query")),
                    () -> frank.query(b -> b.tableName(GAMES).keyConditionExpression("pk = :p")
                            .expressionAttributeValues(Map.of(":p", AttributeValue.fromS("frank")))));
            assertDenied(denied("AKIDFRANK", "Scan", GAMES_ARN + "/index/ByGame", noPolicyAllows("Scan")),
                    () -> frank.scan(b -> b.tableName(GAMES).indexName("ByGame")));
        }
    }

    @Test
    void aBatchIsCheckedItemByItemAndRefusedWhole() {
        try (DynamoDbClient alice = as("ALICE")) {
            WriteRequest own = WriteRequest.builder().putRequest(PutRequest.builder().item(item("alice", "b1", "chess")).build())
                    .build();
            WriteRequest other = WriteRequest.builder().putRequest(PutRequest.builder().item(item("bob", "b1", "chess")).build())
                    .build();
            assertDenied(denied("alice", "BatchWriteItem", GAMES_ARN, noPolicyAllows("BatchWriteItem")),
                    () -> alice.batchWriteItem(b -> b.requestItems(Map.of(GAMES, List.of(own, other)))));
            assertFalse(admin.getItem(b -> b.tableName(GAMES).key(key("alice", "b1"))).hasItem());
            alice.batchWriteItem(b -> b.requestItems(Map.of(GAMES, List.of(own))));
            assertTrue(admin.getItem(b -> b.tableName(GAMES).key(key("alice", "b1"))).hasItem());

            assertDenied(denied("alice", "BatchGetItem", GAMES_ARN, noPolicyAllows("BatchGetItem")),
                    () -> alice.batchGetItem(b -> b.requestItems(Map.of(GAMES, software.amazon.awssdk.services.dynamodb.model
                            .KeysAndAttributes.builder().keys(key("alice", "b1"), key("bob", "1")).build()))));
            assertEquals(1, alice.batchGetItem(b -> b.requestItems(Map.of(GAMES, software.amazon.awssdk.services.dynamodb
                    .model.KeysAndAttributes.builder().keys(key("alice", "b1")).build()))).responses().get(GAMES).size());
        }
    }

    @Test
    void aTransactionIsCheckedActionByActionAsTheItemOperationsWithTheirEnclosingOperation() {
        admin.putItem(b -> b.tableName(GAMES).item(item("grace", "0", "chess")));
        try (DynamoDbClient grace = as("GRACE"); DynamoDbClient alice = as("ALICE")) {
            TransactWriteItem put = TransactWriteItem.builder().put(p -> p.tableName(GAMES).item(item("grace", "t1", "go")))
                    .build();
            TransactWriteItem check = TransactWriteItem.builder().conditionCheck(c -> c.tableName(GAMES)
                    .key(key("grace", "0")).conditionExpression("attribute_exists(pk)")).build();
            grace.transactWriteItems(b -> b.transactItems(put, check));
            assertTrue(admin.getItem(b -> b.tableName(GAMES).key(key("grace", "t1"))).hasItem());
            // The same PutItem outside a transaction is not allowed.
            assertDenied(denied("grace", "PutItem", GAMES_ARN, noPolicyAllows("PutItem")),
                    () -> grace.putItem(b -> b.tableName(GAMES).item(item("grace", "t2", "go"))));

            TransactWriteItem ownPut = TransactWriteItem.builder().put(p -> p.tableName(GAMES).item(item("alice", "t1", "go")))
                    .build();
            TransactWriteItem updateOther = TransactWriteItem.builder().update(u -> u.tableName(GAMES).key(key("bob", "1"))
                    .updateExpression("SET TopScore = :s").expressionAttributeValues(Map.of(":s", AttributeValue.fromN("0"))))
                    .build();
            assertDenied(denied("alice", "UpdateItem", GAMES_ARN, noPolicyAllows("UpdateItem")),
                    () -> alice.transactWriteItems(b -> b.transactItems(ownPut, updateOther)));
            assertFalse(admin.getItem(b -> b.tableName(GAMES).key(key("alice", "t1"))).hasItem());
        }
    }

    @Test
    void aResourcePolicyDeniesWhatAnIdentityPolicyAllowsAndGrantsWhatNoneDoes() {
        String table = "Shared";
        String arn = "arn:aws:dynamodb:us-east-1:" + ACCOUNT + ":table/" + table;
        StatorTestServer.createTable(admin, table);
        admin.putItem(b -> b.tableName(table).item(Map.of("id", AttributeValue.fromS("x"))));
        admin.putResourcePolicy(b -> b.resourceArn(arn).policy("{\"Version\": \"2012-10-17\", \"Statement\": ["
                + "{\"Effect\": \"Deny\", \"Principal\": {\"AWS\": \"arn:aws:iam::" + ACCOUNT + ":user/dave\"}, "
                + "\"Action\": \"dynamodb:PutItem\", \"Resource\": \"" + arn + "\"},"
                + "{\"Effect\": \"Allow\", \"Principal\": {\"AWS\": \"arn:aws:iam::" + ACCOUNT + ":user/AKIDERIN\"}, "
                + "\"Action\": \"dynamodb:GetItem\", \"Resource\": \"" + arn + "\"}]}"));
        try (DynamoDbClient dave = as("DAVE"); DynamoDbClient erin = as("ERIN")) {
            assertDenied(denied("dave", "PutItem", arn, " with an explicit deny in a resource-based policy"),
                    () -> dave.putItem(b -> b.tableName(table).item(Map.of("id", AttributeValue.fromS("y")))));
            dave.getItem(b -> b.tableName(table).key(Map.of("id", AttributeValue.fromS("x"))));
            assertTrue(erin.getItem(b -> b.tableName(table).key(Map.of("id", AttributeValue.fromS("x")))).hasItem());
            assertDenied(denied("AKIDERIN", "PutItem", arn, noPolicyAllows("PutItem")),
                    () -> erin.putItem(b -> b.tableName(table).item(Map.of("id", AttributeValue.fromS("z")))));
        }
    }

    @Test
    void aPolicyThatWouldLockTheCallerOutNeedsConfirming() {
        String table = "Locked";
        String arn = "arn:aws:dynamodb:us-east-1:" + ACCOUNT + ":table/" + table;
        StatorTestServer.createTable(admin, table);
        String lockout = "{\"Version\": \"2012-10-17\", \"Statement\": [{\"Effect\": \"Deny\", "
                + "\"Principal\": {\"AWS\": \"arn:aws:iam::" + ACCOUNT + ":user/admin\"}, "
                + "\"Action\": \"dynamodb:PutResourcePolicy\", \"Resource\": \"" + arn + "\"}]}";
        assertDenied("The new resource policy will not allow you to update the resource policy in the future.",
                () -> admin.putResourcePolicy(b -> b.resourceArn(arn).policy(lockout)));
        admin.putResourcePolicy(b -> b.resourceArn(arn).policy(lockout).confirmRemoveSelfResourceAccess(true));
        assertDenied(denied("admin", "PutResourcePolicy", arn, " with an explicit deny in a resource-based policy"),
                () -> admin.putResourcePolicy(b -> b.resourceArn(arn).policy(lockout).confirmRemoveSelfResourceAccess(true)));
        admin.deleteResourcePolicy(b -> b.resourceArn(arn));
    }
}
