package io.stator.server.api;

import static io.stator.server.testing.DynamoAssertions.assertError;
import static io.stator.server.testing.DynamoAssertions.assertValidation;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stator.server.testing.DynamoSize;
import io.stator.server.testing.Eventually;
import io.stator.server.testing.SharedServer;
import io.stator.server.testing.StatorTestServer;
import io.stator.server.testing.StreamReading;
import io.stator.server.testing.Tables;
import io.stator.server.testing.TestBackend;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.PutRequest;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.Tag;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;
import software.amazon.awssdk.services.dynamodb.model.Record;

/**
 * The write isolation per table (Alternator's tag system:write_isolation, docs/cassandra.md "Write
 * isolation"): the tag's values, and each setting's writes on both backends. On Cassandra a
 * relaxed table's plain put is charged on the new item alone (it does not read the old one),
 * which is how these tests see that the plain write was taken; on RocksDB every setting writes
 * as always (one server orders every write), and charges the larger of the old and new items.
 */
class WriteIsolationTest {

    private static final String TAG = "system:write_isolation";
    private static final String ALLOWED = "always_use_lwt, only_rmw_uses_lwt, forbid_rmw, unsafe_rmw";
    /** Alternator's text (alternator/executor.cc), pointing at Stator's documentation. */
    private static final String FORBIDDEN = "Read-modify-write operations are disabled by 'forbid_rmw' write "
            + "isolation policy. Refer to docs/cassandra.md#write-isolation for more information.";

    @RegisterExtension
    static final SharedServer server = new SharedServer();

    private static DynamoDbClient dynamo() {
        return server.client();
    }

    private static String table(String isolation) {
        String name = StatorTestServer.tableName();
        var create = Tables.onDemand(name);
        if (isolation != null) create.tags(Tag.builder().key(TAG).value(isolation).build());
        dynamo().createTable(create.build());
        return name;
    }

    private static String arn(String table) {
        return dynamo().describeTable(b -> b.tableName(table)).table().tableArn();
    }

    private static Map<String, AttributeValue> key(String pk) {
        return Map.of("pk", AttributeValue.fromS(pk));
    }

    private static Map<String, AttributeValue> item(String pk, String v) {
        return Map.of("pk", AttributeValue.fromS(pk), "v", AttributeValue.fromS(v));
    }

    /** The write units a put of a 100-byte item over a 2,500-byte one is charged. */
    private static double overwriteUnits(String table, String pk) {
        dynamo().putItem(b -> b.tableName(table).item(DynamoSize.padded(key(pk), 2_500)));
        return dynamo().putItem(b -> b.tableName(table).item(DynamoSize.padded(key(pk), 100))
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)).consumedCapacity().capacityUnits();
    }

    /** What a relaxed plain put is charged over a larger item: the new item's 1 unit on Cassandra, else 3. */
    private static double relaxedUnits() {
        return TestBackend.cassandra() ? 1.0 : 3.0;
    }

    // ---- the tag ------------------------------------------------------------------------------

    @Test
    void everyAlternatorSettingIsATagValueAndUntaggingGoesBackToTheDefault() {
        String table = table(null);
        String arn = arn(table);
        for (String value : List.of("always_use_lwt", "only_rmw_uses_lwt", "forbid_rmw", "unsafe_rmw")) {
            dynamo().tagResource(b -> b.resourceArn(arn).tags(Tag.builder().key(TAG).value(value).build()));
            assertEquals(List.of(Tag.builder().key(TAG).value(value).build()),
                    dynamo().listTagsOfResource(b -> b.resourceArn(arn)).tags());
        }
        dynamo().tagResource(b -> b.resourceArn(arn).tags(Tag.builder().key(TAG).value("only_rmw_uses_lwt").build()));
        assertEquals(relaxedUnits(), overwriteUnits(table, "a"));

        dynamo().untagResource(b -> b.resourceArn(arn).tagKeys(TAG));

        assertTrue(dynamo().listTagsOfResource(b -> b.resourceArn(arn)).tags().isEmpty());
        assertEquals(3.0, overwriteUnits(table, "b"), "the default, always_use_lwt, reads the old item");
    }

    @Test
    void aBadValueIsRefusedWithAlternatorsMessageAndChangesNothing() {
        String table = table(null);
        String arn = arn(table);
        // Alternator's one-letter and short aliases are not taken: one spelling per setting.
        for (String bad : List.of("bah", "o", "always", "ONLY_RMW_USES_LWT", "")) {
            assertValidation("Incorrect write isolation tag " + bad + ". Allowed values: " + ALLOWED,
                    () -> dynamo().tagResource(b -> b.resourceArn(arn).tags(Tag.builder().key("other").value("x").build(),
                            Tag.builder().key(TAG).value(bad).build())));
        }
        assertTrue(dynamo().listTagsOfResource(b -> b.resourceArn(arn)).tags().isEmpty(), "no tag of the request added");

        String refused = StatorTestServer.tableName();
        assertValidation("Incorrect write isolation tag bah. Allowed values: " + ALLOWED,
                () -> dynamo().createTable(Tables.onDemand(refused).tags(Tag.builder().key(TAG).value("bah").build()).build()));
        assertThrows(ResourceNotFoundException.class, () -> dynamo().describeTable(b -> b.tableName(refused)));
    }

    // ---- only_rmw_uses_lwt --------------------------------------------------------------------

    @Test
    void aRelaxedTableRoundTripsPutsDeletesAndBatches() {
        String table = table("only_rmw_uses_lwt");
        dynamo().putItem(b -> b.tableName(table).item(item("a", "1")));
        dynamo().putItem(b -> b.tableName(table).item(item("a", "2")));
        assertEquals(item("a", "2"), dynamo().getItem(b -> b.tableName(table).key(key("a")).consistentRead(true)).item());
        assertEquals(item("a", "2"), dynamo().getItem(b -> b.tableName(table).key(key("a"))).item());

        dynamo().deleteItem(b -> b.tableName(table).key(key("a")));
        assertFalse(dynamo().getItem(b -> b.tableName(table).key(key("a")).consistentRead(true)).hasItem());
        dynamo().deleteItem(b -> b.tableName(table).key(key("never")));

        dynamo().batchWriteItem(b -> b.requestItems(Map.of(table, List.of(
                WriteRequest.builder().putRequest(PutRequest.builder().item(item("b", "1")).build()).build(),
                WriteRequest.builder().putRequest(PutRequest.builder().item(item("c", "1")).build()).build()))));
        dynamo().batchWriteItem(b -> b.requestItems(Map.of(table, List.of(
                WriteRequest.builder().deleteRequest(d -> d.key(key("b"))).build(),
                WriteRequest.builder().putRequest(PutRequest.builder().item(item("c", "2")).build()).build()))));
        assertEquals(List.of(item("c", "2")), dynamo().scan(b -> b.tableName(table).consistentRead(true)).items());

        assertEquals(relaxedUnits(), overwriteUnits(table, "d"));
    }

    @Test
    void aConditionalPutOnARelaxedTableIsStillChecked() {
        String table = table("only_rmw_uses_lwt");
        dynamo().putItem(b -> b.tableName(table).item(item("a", "1")));

        assertThrows(ConditionalCheckFailedException.class, () -> dynamo().putItem(b -> b.tableName(table)
                .item(item("a", "2")).conditionExpression("attribute_not_exists(pk)")));
        assertEquals(item("a", "1"), dynamo().getItem(b -> b.tableName(table).key(key("a")).consistentRead(true)).item());

        // ReturnValues of the old item reads it: still the old one, and charged on the larger.
        var put = dynamo().putItem(b -> b.tableName(table).item(item("a", "3")).returnValues(ReturnValue.ALL_OLD));
        assertEquals(item("a", "1"), put.attributes());
        dynamo().putItem(b -> b.tableName(table).item(DynamoSize.padded(key("big"), 2_500)));
        assertEquals(3.0, dynamo().putItem(b -> b.tableName(table).item(key("big")).conditionExpression("attribute_exists(pk)")
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)).consumedCapacity().capacityUnits());
        dynamo().putItem(b -> b.tableName(table).item(DynamoSize.padded(key("big2"), 2_500)));
        assertEquals(3.0, dynamo().updateItem(b -> b.tableName(table).key(key("big2")).updateExpression("SET v = :v")
                .expressionAttributeValues(Map.of(":v", AttributeValue.fromS("x")))
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)).consumedCapacity().capacityUnits());
    }

    private static List<Map<String, AttributeValue>> byG(String table, String g) {
        return dynamo().query(b -> b.tableName(table).indexName("by-g").keyConditionExpression("g = :g")
                .expressionAttributeValues(Map.of(":g", AttributeValue.fromS(g)))).items();
    }

    @Test
    void aTableWithAGlobalIndexAndAStreamWritesByCompareAndSetWhateverTheSetting() {
        String table = StatorTestServer.tableName();
        dynamo().createTable(Tables.onDemand(table)
                .attributeDefinitions(Tables.definition("pk", ScalarAttributeType.S), Tables.definition("g", ScalarAttributeType.S))
                .globalSecondaryIndexes(GlobalSecondaryIndex.builder().indexName("by-g")
                        .keySchema(Tables.key("g", KeyType.HASH)).projection(p -> p.projectionType(ProjectionType.ALL)).build())
                .streamSpecification(s -> s.streamEnabled(true).streamViewType("NEW_AND_OLD_IMAGES"))
                .tags(Tag.builder().key(TAG).value("only_rmw_uses_lwt").build()).build());
        Map<String, AttributeValue> first = Map.of("pk", AttributeValue.fromS("a"), "g", AttributeValue.fromS("g1"));
        Map<String, AttributeValue> second = Map.of("pk", AttributeValue.fromS("a"), "g", AttributeValue.fromS("g2"));
        dynamo().putItem(b -> b.tableName(table).item(first));
        dynamo().putItem(b -> b.tableName(table).item(second));

        // The old index entry went with the overwrite: found from the old item, read. (The index
        // follows the table a moment later, as DynamoDB's global indexes do.)
        assertTrue(Eventually.until("the index without g1", () -> byG(table, "g1"), List::isEmpty).isEmpty());
        assertEquals(List.of(second), Eventually.until("the index with g2", () -> byG(table, "g2"), l -> !l.isEmpty()));
        String streamArn = dynamo().describeTable(b -> b.tableName(table)).table().latestStreamArn();
        try (DynamoDbStreamsClient streams = StreamReading.client(server.endpoint(), "us-east-1")) {
            List<Record> records = StreamReading.readAll(streams, streamArn);
            assertEquals(List.of("INSERT", "MODIFY"), records.stream().map(r -> r.eventNameAsString()).toList());
            assertEquals("g1", records.get(1).dynamodb().oldImage().get("g").s());
        }
        assertEquals(3.0, overwriteUnits(table, "big"), "charged on the larger item: the old one was read");
    }

    @Test
    void transactionsOnARelaxedTableAreStillAllOrNothing() {
        String table = table("only_rmw_uses_lwt");
        dynamo().putItem(b -> b.tableName(table).item(item("a", "1")));

        assertThrows(TransactionCanceledException.class, () -> dynamo().transactWriteItems(b -> b.transactItems(
                t -> t.put(p -> p.tableName(table).item(item("b", "1"))),
                t -> t.put(p -> p.tableName(table).item(item("a", "2")).conditionExpression("attribute_not_exists(pk)")))));
        assertFalse(dynamo().getItem(b -> b.tableName(table).key(key("b")).consistentRead(true)).hasItem());
        assertEquals(item("a", "1"), dynamo().getItem(b -> b.tableName(table).key(key("a")).consistentRead(true)).item());

        dynamo().transactWriteItems(b -> b.transactItems(
                t -> t.put(p -> p.tableName(table).item(item("b", "1"))),
                t -> t.put(p -> p.tableName(table).item(item("a", "2")).conditionExpression("attribute_exists(pk)"))));
        assertEquals(item("b", "1"), dynamo().getItem(b -> b.tableName(table).key(key("b")).consistentRead(true)).item());
        assertEquals(item("a", "2"), dynamo().getItem(b -> b.tableName(table).key(key("a")).consistentRead(true)).item());
    }

    // ---- forbid_rmw ---------------------------------------------------------------------------

    @Test
    void forbidRmwRefusesEveryWriteThatReadsFirstAndTakesThePlainOnes() {
        String table = table("forbid_rmw");
        dynamo().putItem(b -> b.tableName(table).item(item("a", "1")));
        dynamo().batchWriteItem(b -> b.requestItems(Map.of(table, List.of(
                WriteRequest.builder().putRequest(PutRequest.builder().item(item("b", "1")).build()).build()))));

        assertValidation(FORBIDDEN, () -> dynamo().putItem(b -> b.tableName(table).item(item("a", "2"))
                .conditionExpression("attribute_exists(pk)")));
        assertValidation(FORBIDDEN, () -> dynamo().putItem(b -> b.tableName(table).item(item("a", "2"))
                .returnValues(ReturnValue.ALL_OLD)));
        assertValidation(FORBIDDEN, () -> dynamo().deleteItem(b -> b.tableName(table).key(key("a"))
                .conditionExpression("attribute_exists(pk)")));
        // UpdateItem reads the item whatever its expression: items are stored whole.
        assertValidation(FORBIDDEN, () -> dynamo().updateItem(b -> b.tableName(table).key(key("a"))
                .updateExpression("SET v = :v").expressionAttributeValues(Map.of(":v", AttributeValue.fromS("2")))));
        assertValidation(FORBIDDEN, () -> dynamo().transactWriteItems(b -> b.transactItems(
                t -> t.put(p -> p.tableName(table).item(item("c", "1"))),
                t -> t.conditionCheck(c -> c.tableName(table).key(key("a")).conditionExpression("attribute_exists(pk)")))));
        assertEquals(item("a", "1"), dynamo().getItem(b -> b.tableName(table).key(key("a")).consistentRead(true)).item());
        assertFalse(dynamo().getItem(b -> b.tableName(table).key(key("c")).consistentRead(true)).hasItem());

        dynamo().deleteItem(b -> b.tableName(table).key(key("a")));
        assertFalse(dynamo().getItem(b -> b.tableName(table).key(key("a")).consistentRead(true)).hasItem());
        assertError("ValidationException", FORBIDDEN, () -> dynamo().deleteItem(b -> b.tableName(table).key(key("b"))
                .returnValues(ReturnValue.ALL_OLD)));
    }
}
