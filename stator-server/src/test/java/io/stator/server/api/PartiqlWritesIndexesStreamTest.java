package io.stator.server.api;

import static io.stator.server.testing.Attrs.n;
import static io.stator.server.testing.Attrs.s;
import static io.stator.server.testing.DynamoAssertions.assertSameItem;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stator.server.testing.Eventually;
import io.stator.server.testing.SharedServer;
import io.stator.server.testing.StreamReading;
import io.stator.server.testing.Tables;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.ConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.OperationType;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/**
 * PartiQL's INSERT, UPDATE and DELETE are writes like the JSON API's: they maintain a global and
 * a local secondary index (entries appear, move and disappear), they put INSERT, MODIFY and
 * REMOVE records with both images on a NEW_AND_OLD_IMAGES stream, and ConsumedCapacity with
 * INDEXES counts the table's, the GSI's and the LSI's units as the equivalent PutItem, UpdateItem
 * and DeleteItem on a twin table do. The twin's stream is compared record by record too.
 */
class PartiqlWritesIndexesStreamTest {

    private static final String TABLE = "pq_idx_stream";
    private static final String TWIN = "pq_idx_stream_twin";

    @RegisterExtension
    static final SharedServer server = new SharedServer();

    private static DynamoDbStreamsClient streams;

    private static DynamoDbClient client() {
        return server.client();
    }

    @BeforeAll
    static void createTables() {
        for (String table : List.of(TABLE, TWIN)) {
            client().createTable(b -> b.tableName(table).billingMode(BillingMode.PAY_PER_REQUEST)
                    .attributeDefinitions(Tables.definition("pk", ScalarAttributeType.S),
                            Tables.definition("sk", ScalarAttributeType.N),
                            Tables.definition("genre", ScalarAttributeType.S),
                            Tables.definition("n", ScalarAttributeType.N),
                            Tables.definition("txt", ScalarAttributeType.S))
                    .keySchema(Tables.key("pk", KeyType.HASH), Tables.key("sk", KeyType.RANGE))
                    .globalSecondaryIndexes(i -> i.indexName("byGenre")
                            .keySchema(Tables.key("genre", KeyType.HASH), Tables.key("n", KeyType.RANGE))
                            .projection(p -> p.projectionType(ProjectionType.ALL)))
                    .localSecondaryIndexes(i -> i.indexName("byTxt")
                            .keySchema(Tables.key("pk", KeyType.HASH), Tables.key("txt", KeyType.RANGE))
                            .projection(p -> p.projectionType(ProjectionType.ALL)))
                    .streamSpecification(st -> st.streamEnabled(true).streamViewType(StreamViewType.NEW_AND_OLD_IMAGES)));
        }
        streams = StreamReading.client(server.endpoint(), "us-east-1");
    }

    @AfterAll
    static void closeStreams() {
        streams.close();
    }

    private static ConsumedCapacity partiql(String statement) {
        return client().executeStatement(b -> b.statement(statement)
                .returnConsumedCapacity(ReturnConsumedCapacity.INDEXES)).consumedCapacity();
    }

    private static List<Map<String, AttributeValue>> gsi(String table, String genre) {
        return client().query(b -> b.tableName(table).indexName("byGenre").keyConditionExpression("genre = :g")
                .expressionAttributeValues(Map.of(":g", s(genre)))).items();
    }

    private static List<Map<String, AttributeValue>> lsi(String table, String pk) {
        return client().query(b -> b.tableName(table).indexName("byTxt").keyConditionExpression("pk = :p")
                .consistentRead(true).expressionAttributeValues(Map.of(":p", s(pk)))).items();
    }

    private static Map<String, AttributeValue> item(String table, String pk) {
        Map<String, AttributeValue> item = client().getItem(b -> b.tableName(table).consistentRead(true)
                .key(Map.of("pk", s(pk), "sk", n(1)))).item();
        return item == null || item.isEmpty() ? null : item;
    }

    /** The two capacities are equal, part by part, and name their own tables. */
    private static void assertSameCapacity(ConsumedCapacity json, ConsumedCapacity partiql, double table, double gsi,
                                           double lsi) {
        assertEquals(TWIN, json.tableName());
        assertEquals(TABLE, partiql.tableName());
        assertEquals(json.toBuilder().tableName(null).build(), partiql.toBuilder().tableName(null).build());
        assertEquals(table, partiql.table().capacityUnits(), "table units");
        if (gsi == 0) {
            assertFalse(partiql.hasGlobalSecondaryIndexes() && partiql.globalSecondaryIndexes().containsKey("byGenre"),
                    "no GSI units: " + partiql);
        } else {
            assertEquals(gsi, partiql.globalSecondaryIndexes().get("byGenre").capacityUnits(), "GSI units");
        }
        if (lsi == 0) {
            assertFalse(partiql.hasLocalSecondaryIndexes() && partiql.localSecondaryIndexes().containsKey("byTxt"),
                    "no LSI units: " + partiql);
        } else {
            assertEquals(lsi, partiql.localSecondaryIndexes().get("byTxt").capacityUnits(), "LSI units");
        }
        assertEquals(table + gsi + lsi, partiql.capacityUnits(), "total");
    }

    private static String streamArn(String table) {
        return client().describeTable(b -> b.tableName(table)).table().latestStreamArn();
    }

    private static List<Record> records(String table, String pk) {
        List<Record> all = new ArrayList<>();
        for (Record r : StreamReading.readAll(streams, streamArn(table))) {
            if (r.dynamodb().keys().get("pk").s().equals(pk)) all.add(r);
        }
        return all;
    }

    @Test
    void insertUpdateDeleteMaintainBothIndexesTheStreamAndCountTheirCapacity() {
        String pk = "life";
        Map<String, AttributeValue> inserted = new LinkedHashMap<>(Map.of("pk", s(pk), "sk", n(1), "genre", s("rock"),
                "n", n(1), "txt", s("hello"), "v", s("a")));

        // INSERT: the item appears in the table, the GSI and the LSI; one unit each.
        ConsumedCapacity p = partiql("INSERT INTO \"" + TABLE + "\" VALUE {'pk': 'life', 'sk': 1, 'genre': 'rock',"
                + " 'n': 1, 'txt': 'hello', 'v': 'a'}");
        ConsumedCapacity j = client().putItem(b -> b.tableName(TWIN).item(inserted)
                .conditionExpression("attribute_not_exists(pk)").returnConsumedCapacity(ReturnConsumedCapacity.INDEXES))
                .consumedCapacity();
        assertSameCapacity(j, p, 1, 1, 1);
        assertSameItem(inserted, item(TABLE, pk));
        List<Map<String, AttributeValue>> rock = Eventually.until("the GSI shows the inserted item",
                () -> gsi(TABLE, "rock"), items -> items.size() == 1);
        assertSameItem(inserted, rock.get(0));
        assertEquals(1, lsi(TABLE, pk).size());
        assertSameItem(inserted, lsi(TABLE, pk).get(0));

        // UPDATE of both index keys: the entries move; a GSI update that changes its key is a delete
        // and a put there, as UpdateItem's is.
        String update = "SET genre = 'jazz', txt = 'world', v = 'b'";
        p = partiql("UPDATE \"" + TABLE + "\" " + update + " WHERE pk = 'life' AND sk = 1 AND v = 'a'");
        j = client().updateItem(b -> b.tableName(TWIN).key(Map.of("pk", s(pk), "sk", n(1)))
                .updateExpression("SET genre = :g, txt = :t, v = :v").conditionExpression("attribute_exists(pk) AND v = :a")
                .expressionAttributeValues(Map.of(":g", s("jazz"), ":t", s("world"), ":v", s("b"), ":a", s("a")))
                .returnConsumedCapacity(ReturnConsumedCapacity.INDEXES)).consumedCapacity();
        assertSameCapacity(j, p, 1, 2, 2);
        Map<String, AttributeValue> updated = new LinkedHashMap<>(inserted);
        updated.putAll(Map.of("genre", s("jazz"), "txt", s("world"), "v", s("b")));
        assertSameItem(updated, item(TABLE, pk));
        Eventually.until("the GSI entry moves from rock to jazz",
                () -> List.of(gsi(TABLE, "rock").size(), gsi(TABLE, "jazz").size()), sizes -> sizes.equals(List.of(0, 1)));
        assertSameItem(updated, gsi(TABLE, "jazz").get(0));
        assertEquals(List.of(s("world")), lsi(TABLE, pk).stream().map(i -> i.get("txt")).toList());

        // A failed condition changes nothing: no index entry, no stream record.
        assertThrows(ConditionalCheckFailedException.class,
                () -> partiql("UPDATE \"" + TABLE + "\" SET genre = 'pop' WHERE pk = 'life' AND sk = 1 AND v = 'nope'"));
        assertThrows(ConditionalCheckFailedException.class,
                () -> client().updateItem(b -> b.tableName(TWIN).key(Map.of("pk", s(pk), "sk", n(1)))
                        .updateExpression("SET genre = :g").conditionExpression("attribute_exists(pk) AND v = :nope")
                        .expressionAttributeValues(Map.of(":g", s("pop"), ":nope", s("nope")))));

        // UPDATE that removes the LSI's key and changes a non-key attribute: the LSI entry goes,
        // the GSI entry is rewritten in place.
        p = partiql("UPDATE \"" + TABLE + "\" SET v = 'c' REMOVE txt WHERE pk = 'life' AND sk = 1");
        j = client().updateItem(b -> b.tableName(TWIN).key(Map.of("pk", s(pk), "sk", n(1)))
                .updateExpression("SET v = :v REMOVE txt").conditionExpression("attribute_exists(pk)")
                .expressionAttributeValues(Map.of(":v", s("c")))
                .returnConsumedCapacity(ReturnConsumedCapacity.INDEXES)).consumedCapacity();
        assertSameCapacity(j, p, 1, 1, 1);
        Map<String, AttributeValue> removed = new LinkedHashMap<>(updated);
        removed.remove("txt");
        removed.put("v", s("c"));
        assertSameItem(removed, item(TABLE, pk));
        assertEquals(List.of(), lsi(TABLE, pk));
        Eventually.until("the GSI entry shows v = c", () -> gsi(TABLE, "jazz"),
                items -> items.size() == 1 && s("c").equals(items.get(0).get("v")));

        // DELETE: the item leaves the table and the GSI (the LSI no longer held it).
        p = partiql("DELETE FROM \"" + TABLE + "\" WHERE pk = 'life' AND sk = 1 AND genre = 'jazz'");
        j = client().deleteItem(b -> b.tableName(TWIN).key(Map.of("pk", s(pk), "sk", n(1)))
                .conditionExpression("genre = :g").expressionAttributeValues(Map.of(":g", s("jazz")))
                .returnConsumedCapacity(ReturnConsumedCapacity.INDEXES)).consumedCapacity();
        assertSameCapacity(j, p, 1, 1, 0);
        assertNull(item(TABLE, pk));
        Eventually.until("the GSI no longer holds the item", () -> gsi(TABLE, "jazz"), List::isEmpty);
        assertEquals(List.of(), lsi(TABLE, pk));

        // The stream: INSERT, MODIFY, MODIFY, REMOVE with their images; nothing for the failed UPDATE.
        List<Record> records = records(TABLE, pk);
        assertEquals(List.of(OperationType.INSERT, OperationType.MODIFY, OperationType.MODIFY, OperationType.REMOVE),
                records.stream().map(Record::eventName).toList());
        assertImages(records.get(0), null, inserted);
        assertImages(records.get(1), inserted, updated);
        assertImages(records.get(2), updated, removed);
        assertImages(records.get(3), removed, null);
        for (Record r : records) {
            assertEquals(StreamViewType.NEW_AND_OLD_IMAGES, r.dynamodb().streamViewType());
            assertSameItem(Map.of("pk", s(pk), "sk", n(1)), r.dynamodb().keys());
        }
        // The JSON twin's stream says the same.
        List<Record> twin = records(TWIN, pk);
        assertEquals(records.size(), twin.size());
        for (int i = 0; i < records.size(); i++) {
            assertEquals(twin.get(i).eventName(), records.get(i).eventName());
            assertSameItem(twin.get(i).dynamodb().oldImage(), records.get(i).dynamodb().oldImage());
            assertSameItem(twin.get(i).dynamodb().newImage(), records.get(i).dynamodb().newImage());
            assertEquals(twin.get(i).dynamodb().sizeBytes(), records.get(i).dynamodb().sizeBytes());
        }
    }

    private static void assertImages(Record r, Map<String, AttributeValue> oldImage, Map<String, AttributeValue> newImage) {
        if (oldImage == null) assertTrue(r.dynamodb().oldImage().isEmpty(), "no old image: " + r);
        else assertSameItem(oldImage, r.dynamodb().oldImage());
        if (newImage == null) assertTrue(r.dynamodb().newImage().isEmpty(), "no new image: " + r);
        else assertSameItem(newImage, r.dynamodb().newImage());
    }

    @Test
    void updateReturningAndBatchWritesReachTheIndexesAndTheStream() {
        String pk = "batch";
        var batch = client().batchExecuteStatement(b -> b.returnConsumedCapacity(ReturnConsumedCapacity.INDEXES)
                .statements(st -> st.statement("INSERT INTO \"" + TABLE + "\" VALUE {'pk': 'batch', 'sk': 1,"
                        + " 'genre': 'folk', 'n': 7, 'txt': 'x'}")));
        assertNull(batch.responses().get(0).error(), "batch insert: " + batch);
        Eventually.until("the GSI shows the batch insert", () -> gsi(TABLE, "folk"), items -> items.size() == 1);
        assertEquals(1, lsi(TABLE, pk).size());

        var returned = client().executeStatement(b -> b.statement("UPDATE \"" + TABLE + "\" SET n = n + 1"
                + " WHERE pk = 'batch' AND sk = 1 RETURNING MODIFIED NEW *")
                .returnConsumedCapacity(ReturnConsumedCapacity.INDEXES));
        assertEquals(List.of(Map.of("n", n(8))), returned.items());
        // The GSI's sort key changed: a delete and a put there; the LSI's entry is rewritten.
        assertEquals(2.0, returned.consumedCapacity().globalSecondaryIndexes().get("byGenre").capacityUnits());
        assertEquals(1.0, returned.consumedCapacity().localSecondaryIndexes().get("byTxt").capacityUnits());
        Eventually.until("the GSI entry's sort key is 8", () -> gsi(TABLE, "folk"),
                items -> items.size() == 1 && n(8).equals(items.get(0).get("n")));

        client().batchExecuteStatement(b -> b.statements(st -> st.statement("DELETE FROM \"" + TABLE
                + "\" WHERE pk = 'batch' AND sk = 1")));
        Eventually.until("the GSI no longer holds the batch item", () -> gsi(TABLE, "folk"), List::isEmpty);
        assertEquals(List.of(), lsi(TABLE, pk));
        assertEquals(List.of(OperationType.INSERT, OperationType.MODIFY, OperationType.REMOVE),
                records(TABLE, pk).stream().map(Record::eventName).toList());
    }
}
