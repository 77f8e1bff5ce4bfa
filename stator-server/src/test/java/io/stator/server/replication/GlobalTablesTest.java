package io.stator.server.replication;

import static io.stator.server.testing.GlobalTableRegions.ARRIVAL;
import static io.stator.server.testing.GlobalTableRegions.item;
import static io.stator.server.testing.GlobalTableRegions.key;
import static io.stator.server.testing.GlobalTableRegions.replica;
import static io.stator.server.testing.GlobalTableRegions.v;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stator.server.testing.ErrorAssertions;
import io.stator.server.testing.Eventually;
import io.stator.server.testing.GlobalTableRegions;
import io.stator.server.testing.PrometheusText;
import io.stator.server.testing.StatorTestServer;
import io.stator.server.testing.StreamReading;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.CreateGlobalSecondaryIndexAction;
import software.amazon.awssdk.services.dynamodb.model.CreateReplicationGroupMemberAction;
import software.amazon.awssdk.services.dynamodb.model.DeleteReplicationGroupMemberAction;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndexUpdate;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.Projection;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.Put;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.model.ReplicaDescription;
import software.amazon.awssdk.services.dynamodb.model.ReplicationGroupUpdate;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.TableClass;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/**
 * Global tables with multi-Region eventual consistency (MREC), through the SDK against three
 * Stator processes, one per region: a table turning global with its items, writes reaching every
 * region, streams and indexes in each, conditions and transactions local, Time to Live's deletes
 * and the shared settings replicated, replicas deleted, and DynamoDB's refusals.
 */
class GlobalTablesTest {

    private static final String A = "us-east-1";
    private static final String B = "us-west-2";
    private static final String C = "eu-west-1";

    private static GlobalTableRegions regions;

    @BeforeAll
    static void start() throws Exception {
        regions = GlobalTableRegions.start(List.of(A, B, C), Map.of());
    }

    @AfterAll
    static void stop() throws Exception {
        if (regions != null) regions.close();
    }

    @AfterEach
    void heal() throws Exception {
        regions.heal();
    }

    private static DynamoDbClient a() { return regions.client(A); }

    private static String newTable(String region) {
        String table = StatorTestServer.tableName();
        StatorTestServer.createTable(regions.client(region), table);
        return table;
    }

    @Test
    void aTableWithAThousandItemsGainsAReplicaWithAllOfThem() {
        String table = newTable(A);
        List<WriteRequest> batch = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            Map<String, AttributeValue> put = item("k" + i, "v" + i);
            batch.add(WriteRequest.builder().putRequest(p -> p.item(put)).build());
            if (batch.size() == 25) {
                List<WriteRequest> sent = List.copyOf(batch);
                a().batchWriteItem(r -> r.requestItems(Map.of(table, sent)));
                batch.clear();
            }
        }

        TableDescription updating = a().updateTable(r -> r.tableName(table).replicaUpdates(ReplicationGroupUpdate.builder()
                .create(CreateReplicationGroupMemberAction.builder().regionName(B).build()).build())).tableDescription();
        assertEquals("UPDATING", updating.tableStatusAsString());
        assertEquals("2019.11.21", updating.globalTableVersion());
        assertEquals("CREATING", replica(updating, B).replicaStatusAsString());
        // MREC replicates through the table's stream: DynamoDB turns one on.
        assertEquals("NEW_AND_OLD_IMAGES", updating.streamSpecification().streamViewTypeAsString());

        regions.awaitReplica(A, table, B, "ACTIVE");
        Eventually.until("ACTIVE in both", ARRIVAL, () -> List.of(regions.describe(A, table), regions.describe(B, table)),
                l -> l.get(1) != null && l.stream().allMatch(t -> t.tableStatusAsString().equals("ACTIVE")));
        TableDescription inA = regions.describe(A, table);
        TableDescription inB = regions.describe(B, table);
        // Replicas lists the other regions only, as DynamoDB's does ("never lists itself", observed 2026).
        assertEquals(List.of(B), inA.replicas().stream().map(ReplicaDescription::regionName).toList());
        assertEquals(List.of(A), inB.replicas().stream().map(ReplicaDescription::regionName).toList());
        assertEquals("ACTIVE", replica(inA, B).replicaStatusAsString());
        assertEquals("ACTIVE", replica(inB, A).replicaStatusAsString());
        assertEquals("2019.11.21", inA.globalTableVersion());
        assertEquals("2019.11.21", inB.globalTableVersion());
        assertTrue(inB.tableArn().contains(":" + B + ":"), inB.tableArn());

        long count = regions.client(B).scanPaginator(r -> r.tableName(table)).stream().mapToLong(p -> p.count()).sum();
        assertEquals(1000, count);
        assertEquals("v517", regions.get(B, table, key("k517")).get("v").s());
    }

    @Test
    void writesInEitherRegionReachTheOthers() {
        String table = newTable(A);
        regions.addReplica(A, table, B);
        a().putItem(r -> r.tableName(table).item(item("p", "1")));
        regions.await(B, table, key("p"), v("1"));
        a().updateItem(r -> r.tableName(table).key(key("p")).updateExpression("SET v = :v")
                .expressionAttributeValues(Map.of(":v", AttributeValue.fromS("2"))));
        regions.await(B, table, key("p"), v("2"));
        a().deleteItem(r -> r.tableName(table).key(key("p")));
        regions.await(B, table, key("p"), i -> i == null);

        regions.client(B).putItem(r -> r.tableName(table).item(item("q", "from B")));
        regions.await(A, table, key("q"), v("from B"));
    }

    @Test
    void replicatedWritesConsumeWriteCapacityInTheReceivingRegion() throws Exception {
        String table = newTable(A);
        regions.addReplica(A, table, B);
        for (int i = 0; i < 20; i++) {
            String id = "w" + i;
            a().putItem(r -> r.tableName(table).item(item(id, "1")));
        }
        regions.await(B, table, key("w19"), v("1"));
        // Each 1 KB write is one replicated write unit in B, as DynamoDB bills every replica's region.
        double consumed = Eventually.until("B's consumed write units", ARRIVAL, () -> consumedWriteUnits(B, table),
                units -> units >= 20);
        assertEquals(20, consumed, 0.001);
    }

    private static double consumedWriteUnits(String region, String table) {
        try {
            return PrometheusText.parse(regions.metrics(region)).sum("dynamodb_consumed_write_capacity_units_total",
                    "table", table, "index", "");
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void aThirdRegionJoinsFromAReplicaAndGetsEverything() {
        String table = newTable(A);
        for (int i = 0; i < 50; i++) {
            String id = "k" + i;
            a().putItem(r -> r.tableName(table).item(item(id, "a")));
        }
        regions.addReplica(A, table, B);
        regions.client(B).putItem(r -> r.tableName(table).item(item("fromB", "b")));
        // Asked of B; A, the table's first region, creates and fills C.
        regions.addReplica(B, table, C);
        regions.await(C, table, key("k49"), v("a"));
        regions.await(C, table, key("fromB"), v("b"));
        regions.client(B).putItem(r -> r.tableName(table).item(item("afterC", "b")));
        regions.await(C, table, key("afterC"), v("b"));
        regions.client(C).putItem(r -> r.tableName(table).item(item("fromC", "c")));
        regions.await(A, table, key("fromC"), v("c"));
        regions.await(B, table, key("fromC"), v("c"));
        Eventually.until("C's Replicas list A and B", ARRIVAL, () -> regions.describe(C, table),
                t -> t.hasReplicas() && t.replicas().size() == 2
                        && t.replicas().stream().allMatch(r -> r.replicaStatusAsString().equals("ACTIVE")));
        long inC = regions.client(C).scanPaginator(r -> r.tableName(table)).stream().mapToLong(p -> p.count()).sum();
        assertEquals(53, inC);
    }

    @Test
    void eachWriteIsOnceInEachRegionsStreamAndReachesItsIndexes() {
        String table = StatorTestServer.tableName();
        a().createTable(r -> r.tableName(table).billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(def("id"), def("g"))
                .keySchema(KeySchemaElement.builder().attributeName("id").keyType(KeyType.HASH).build())
                .globalSecondaryIndexes(gsi("byG", "g")));
        regions.addReplica(A, table, B);
        Map<String, AttributeValue> item = new HashMap<>(item("s", "1"));
        item.put("g", AttributeValue.fromS("group"));
        a().putItem(r -> r.tableName(table).item(item));
        Eventually.until("the item in B's index", ARRIVAL, () -> regions.client(B).query(r -> r.tableName(table)
                .indexName("byG").keyConditionExpression("g = :g")
                .expressionAttributeValues(Map.of(":g", AttributeValue.fromS("group")))).count(), n -> n == 1);
        // Time for a write to go round, had it been shipped back.
        Eventually.sleep(2_000);
        for (String region : List.of(A, B)) {
            List<Record> records = streamRecords(region, table);
            assertEquals(1, records.size(), region + ": " + records);
            assertEquals("INSERT", records.get(0).eventNameAsString());
            assertEquals("group", records.get(0).dynamodb().newImage().get("g").s());
        }
    }

    @Test
    void theStreamStaysWhileGlobalAndAfter() {
        String table = newTable(A);
        regions.addReplica(A, table, B);
        ErrorAssertions.assertErrorMatches("ValidationException", ".*not allowed.*Global Table.*",
                () -> a().updateTable(r -> r.tableName(table).streamSpecification(s -> s.streamEnabled(false))));
        ErrorAssertions.assertErrorMatches("ValidationException", ".*already has an enabled stream.*",
                () -> a().updateTable(r -> r.tableName(table)
                        .streamSpecification(s -> s.streamEnabled(true).streamViewType("KEYS_ONLY"))));

        a().putItem(r -> r.tableName(table).item(item("kept", "1")));
        regions.await(B, table, key("kept"), v("1"));
        regions.deleteReplica(A, table, B);
        TableDescription regional = regions.describe(A, table);
        assertFalse(regional.hasReplicas());
        assertNull(regional.globalTableVersion());
        assertTrue(regional.streamSpecification().streamEnabled(), "the stream stays enabled");
        assertEquals(v("1").test(regions.get(A, table, key("kept"))), true);
        assertThrows(ResourceNotFoundException.class,
                () -> regions.client(B).getItem(r -> r.tableName(table).key(key("kept"))));
        a().updateTable(r -> r.tableName(table).streamSpecification(s -> s.streamEnabled(false)));
        assertNull(regions.describe(A, table).streamSpecification());
    }

    @Test
    void conditionsAreLocalAndATransactionArrivesItemByItem() throws Exception {
        String table = newTable(A);
        regions.addReplica(A, table, B);
        a().putItem(r -> r.tableName(table).item(item("c", "1")));
        regions.await(B, table, key("c"), v("1"));

        regions.faults(A, Set.of(B), Map.of());
        a().putItem(r -> r.tableName(table).item(item("c", "2")));
        // B has not seen A's write: its condition holds against B's own copy.
        regions.client(B).putItem(r -> r.tableName(table).item(item("c", "3")).conditionExpression("v = :one")
                .expressionAttributeValues(Map.of(":one", AttributeValue.fromS("1"))));
        regions.heal();
        // The later write wins in both regions.
        regions.await(A, table, key("c"), v("3"));
        regions.await(B, table, key("c"), v("3"));

        a().transactWriteItems(r -> r.transactItems(
                TransactWriteItem.builder().put(Put.builder().tableName(table).item(item("t1", "x")).build()).build(),
                TransactWriteItem.builder().put(Put.builder().tableName(table).item(item("t2", "x")).build()).build()));
        assertNotNull(regions.get(A, table, key("t1")));
        assertNotNull(regions.get(A, table, key("t2")));
        regions.await(B, table, key("t2"), v("x"));
        regions.await(B, table, key("t1"), v("x"));
        List<Record> inB = Eventually.until("B's records of t1 and t2", ARRIVAL, () -> streamRecords(B, table).stream()
                .filter(rec -> rec.dynamodb().keys().get("id").s().startsWith("t")).toList(), l -> l.size() == 2);
        assertEquals(Set.of("t1", "t2"), Set.of(inB.get(0).dynamodb().keys().get("id").s(),
                inB.get(1).dynamodb().keys().get("id").s()), "one record per item");
    }

    @Test
    void timeToLiveIsAlignedAndItsDeletesReachEveryRegion() {
        String table = newTable(A);
        regions.addReplica(A, table, B);
        a().updateTimeToLive(r -> r.tableName(table).timeToLiveSpecification(s -> s.enabled(true).attributeName("exp")));
        Eventually.until("Time to Live on in B", ARRIVAL, () -> regions.client(B).describeTimeToLive(r -> r.tableName(table))
                .timeToLiveDescription(), d -> "exp".equals(d.attributeName()));
        Map<String, AttributeValue> expired = new HashMap<>(item("e", "1"));
        expired.put("exp", AttributeValue.fromN(Long.toString(Instant.now().getEpochSecond() - 60)));
        a().putItem(r -> r.tableName(table).item(expired));
        regions.await(A, table, key("e"), i -> i == null);
        regions.await(B, table, key("e"), i -> i == null);
        List<Record> inA = streamRecords(A, table);
        assertTrue(inA.stream().anyMatch(rec -> rec.eventNameAsString().equals("REMOVE")
                && rec.userIdentity() != null && "dynamodb.amazonaws.com".equals(rec.userIdentity().principalId())),
                "A's stream records Time to Live's delete: " + inA);
    }

    @Test
    void aGlobalIndexAddedInOneRegionIsBuiltInTheOthers() {
        String table = newTable(A);
        regions.addReplica(A, table, B);
        a().putItem(r -> r.tableName(table).item(Map.of("id", AttributeValue.fromS("x"), "g", AttributeValue.fromS("G"))));
        regions.await(B, table, key("x"), i -> i != null);
        a().updateTable(r -> r.tableName(table).attributeDefinitions(def("g")).globalSecondaryIndexUpdates(
                GlobalSecondaryIndexUpdate.builder().create(CreateGlobalSecondaryIndexAction.builder().indexName("byG")
                        .keySchema(KeySchemaElement.builder().attributeName("g").keyType(KeyType.HASH).build())
                        .projection(Projection.builder().projectionType(ProjectionType.ALL).build()).build()).build()));
        Eventually.until("B's index byG, built", ARRIVAL, () -> {
            try {
                return regions.client(B).query(r -> r.tableName(table).indexName("byG").keyConditionExpression("g = :g")
                        .expressionAttributeValues(Map.of(":g", AttributeValue.fromS("G")))).count();
            } catch (RuntimeException e) {
                return -1;
            }
        }, n -> n == 1);
    }

    @Test
    void refusalsInDynamoDbsWords() throws Exception {
        String table = newTable(A);
        ErrorAssertions.assertError("ValidationException", "Cannot add or delete the local region through ReplicaUpdates. "
                + "Use CreateTable, DeleteTable, or UpdateTable as required.", () -> addReplicaRequest(table, A));
        ErrorAssertions.assertErrorMatches("ValidationException", "Region us-fake-1 is not supported\\. The latest version "
                + "of global tables are only supported in the following regions: .*", () -> addReplicaRequest(table, "us-fake-1"));
        ErrorAssertions.assertError("ValidationException", "Update table operation with more than one create or delete "
                + "replica actions not allowed", () -> a().updateTable(r -> r.tableName(table).replicaUpdates(
                        create(B), create(C))));
        ErrorAssertions.assertError("ValidationException", "Requests that modify replicas or witnesses must not also "
                + "modify other fields", () -> a().updateTable(r -> r.tableName(table).deletionProtectionEnabled(true)
                        .replicaUpdates(create(B))));
        ErrorAssertions.assertError("ValidationException", "Update global table operation failed because one or more "
                + "replicas were not part of the global table. Please retry the request without these replicas: [" + C
                + "].", () -> a().updateTable(r -> r.tableName(table).replicaUpdates(ReplicationGroupUpdate.builder()
                        .delete(DeleteReplicationGroupMemberAction.builder().regionName(C).build()).build())));

        // A replica that cannot be reached stays CREATING, and the table UPDATING.
        regions.faults(A, Set.of(B), Map.of());
        addReplicaRequest(table, B);
        ErrorAssertions.assertError("ResourceInUseException", "Attempt to change a resource which is still in use: "
                + "Table is being updated: " + table, () -> addReplicaRequest(table, C));
        ErrorAssertions.assertError("ResourceInUseException", "Attempt to change a resource which is still in use: "
                + "Table is being updated: " + table, () -> a().updateTable(r -> r.tableName(table)
                        .billingMode(BillingMode.PROVISIONED).provisionedThroughput(t -> t.readCapacityUnits(5L)
                                .writeCapacityUnits(5L))));
        assertEquals("UPDATING", regions.describe(A, table).tableStatusAsString());
        regions.heal();
        regions.awaitReplica(A, table, B, "ACTIVE");
        ErrorAssertions.assertError("ValidationException", "Failed to create a the new replica of table with name: '"
                + table + "' because one or more replicas already existed as tables.", () -> addReplicaRequest(table, B));

        // The legacy operations, even on a 2019.11.21 global table.
        ErrorAssertions.assertErrorMatches("GlobalTableNotFoundException", ".*Global table with name: '" + table
                + "' does not exist\\.", () -> a().describeGlobalTable(r -> r.globalTableName(table)));
        ErrorAssertions.assertErrorMatches("ValidationException", ".*DynamoDB global tables version 2017\\.11\\.29 is not "
                + "supported.*", () -> a().createGlobalTable(r -> r.globalTableName(table).replicationGroup(g -> g.regionName(B))));
        assertTrue(a().listGlobalTables(r -> { }).globalTables().isEmpty());
    }

    /**
     * ReplicaUpdates' Update sets what one replica has for itself (its read capacity, its table
     * class): shown in Replicas in the other regions, taken by that replica's table alone.
     */
    @Test
    void aReplicaUpdateOverridesThatReplicasOwnReadCapacityAndTableClass() {
        String table = newTable(A);
        a().updateTable(r -> r.tableName(table).billingMode(BillingMode.PROVISIONED)
                .provisionedThroughput(t -> t.readCapacityUnits(5L).writeCapacityUnits(5L)));
        regions.addReplica(A, table, B);
        a().updateTable(r -> r.tableName(table).replicaUpdates(ReplicationGroupUpdate.builder().update(u -> u
                .regionName(B).provisionedThroughputOverride(p -> p.readCapacityUnits(7L))
                .tableClassOverride(TableClass.STANDARD_INFREQUENT_ACCESS)).build()));

        ReplicaDescription shown = replica(regions.describe(A, table), B);
        assertEquals(7L, shown.provisionedThroughputOverride().readCapacityUnits());
        assertEquals(TableClass.STANDARD_INFREQUENT_ACCESS, shown.replicaTableClassSummary().tableClass());
        TableDescription inB = Eventually.until(B + "'s table takes its overrides", ARRIVAL,
                () -> regions.describe(B, table), t -> t.provisionedThroughput().readCapacityUnits() == 7
                        && t.tableClassSummary() != null
                        && t.tableClassSummary().tableClass() == TableClass.STANDARD_INFREQUENT_ACCESS);
        assertEquals(5L, inB.provisionedThroughput().writeCapacityUnits(), "write capacity stays shared");
        TableDescription inA = regions.describe(A, table);
        assertEquals(5L, inA.provisionedThroughput().readCapacityUnits(), "the other replica keeps its own");
        assertNull(replica(regions.describe(B, table), A).provisionedThroughputOverride());

        // A later Update keeps what it does not give; an index the table lacks is refused.
        a().updateTable(r -> r.tableName(table).replicaUpdates(ReplicationGroupUpdate.builder().update(u -> u
                .regionName(B).provisionedThroughputOverride(p -> p.readCapacityUnits(9L))).build()));
        shown = replica(regions.describe(A, table), B);
        assertEquals(9L, shown.provisionedThroughputOverride().readCapacityUnits());
        assertEquals(TableClass.STANDARD_INFREQUENT_ACCESS, shown.replicaTableClassSummary().tableClass());
        ErrorAssertions.assertError("ValidationException", "One or more parameter values were invalid: Global "
                + "secondary index nope does not exist in table " + table, () -> a().updateTable(r -> r.tableName(table)
                        .replicaUpdates(ReplicationGroupUpdate.builder().update(u -> u.regionName(B)
                                .globalSecondaryIndexes(i -> i.indexName("nope")
                                        .provisionedThroughputOverride(p -> p.readCapacityUnits(3L)))).build())));
        Eventually.until(B + "'s table at 9", ARRIVAL, () -> regions.describe(B, table),
                t -> t.provisionedThroughput().readCapacityUnits() == 9);
    }

    @Test
    void deletingAReplicaDropsItsTableAndItems() {
        String table = newTable(A);
        regions.addReplica(A, table, B);
        regions.client(B).putItem(r -> r.tableName(table).item(item("b", "1")));
        regions.await(A, table, key("b"), v("1"));
        regions.deleteReplica(A, table, B);
        assertNull(regions.describe(B, table));
        assertThrows(ResourceNotFoundException.class,
                () -> regions.client(B).getItem(r -> r.tableName(table).key(key("b"))));
        TableDescription regional = regions.describe(A, table);
        assertFalse(regional.hasReplicas());
        assertNull(regional.globalTableVersion());
        assertEquals("ACTIVE", regional.tableStatusAsString());
        assertNotNull(regions.get(A, table, key("b")), "A keeps its items");
        // A write now stays in A.
        a().putItem(r -> r.tableName(table).item(item("after", "1")));
        assertNull(regions.describe(B, table));
    }

    @Test
    void aRegionsOwnTableOfTheSameNameIsNotTakenOverAsAReplica() {
        String table = newTable(A);
        StatorTestServer.createTable(regions.client(B), table);
        regions.client(B).putItem(r -> r.tableName(table).item(item("B's own", "1")));
        addReplicaRequest(table, B);
        regions.awaitReplica(A, table, B, "CREATION_FAILED");
        assertEquals("ACTIVE", regions.describe(A, table).tableStatusAsString());
        TableDescription inB = regions.describe(B, table);
        assertFalse(inB.hasReplicas(), "B's table stays regional");
        assertNotNull(regions.get(B, table, key("B's own")));
        // The failed replica is only forgotten: B's own table is not deleted.
        a().updateTable(r -> r.tableName(table).replicaUpdates(ReplicationGroupUpdate.builder()
                .delete(DeleteReplicationGroupMemberAction.builder().regionName(B).build()).build()));
        Eventually.until("A regional again", ARRIVAL, () -> regions.describe(A, table), t -> !t.hasReplicas());
        Eventually.sleep(1_000);
        assertNotNull(regions.get(B, table, key("B's own")));
    }

    @Test
    void deleteTableOfAReplicaInItsOwnRegionTakesItOutOfTheGlobalTable() {
        String table = newTable(A);
        regions.addReplica(A, table, B);
        regions.client(B).deleteTable(r -> r.tableName(table));
        Eventually.until("A no longer lists B", ARRIVAL, () -> regions.describe(A, table),
                t -> !t.hasReplicas() && t.globalTableVersion() == null);
        a().putItem(r -> r.tableName(table).item(item("after", "1")));
        assertNotNull(regions.get(A, table, key("after")));
    }

    private static void addReplicaRequest(String table, String region) {
        a().updateTable(r -> r.tableName(table).replicaUpdates(create(region)));
    }

    private static ReplicationGroupUpdate create(String region) {
        return ReplicationGroupUpdate.builder().create(CreateReplicationGroupMemberAction.builder().regionName(region)
                .build()).build();
    }

    private static List<Record> streamRecords(String region, String table) {
        DynamoDbClient client = regions.client(region);
        String arn = client.describeTable(r -> r.tableName(table)).table().latestStreamArn();
        try (DynamoDbStreamsClient streams = StreamReading.client(regions.endpoint(region), region)) {
            return StreamReading.readAll(streams, arn);
        }
    }

    private static AttributeDefinition def(String name) {
        return AttributeDefinition.builder().attributeName(name).attributeType(ScalarAttributeType.S).build();
    }

    private static GlobalSecondaryIndex gsi(String name, String hash) {
        return GlobalSecondaryIndex.builder().indexName(name)
                .keySchema(KeySchemaElement.builder().attributeName(hash).keyType(KeyType.HASH).build())
                .projection(Projection.builder().projectionType(ProjectionType.ALL).build()).build();
    }
}
