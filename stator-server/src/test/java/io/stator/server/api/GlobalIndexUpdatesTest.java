package io.stator.server.api;

import static io.stator.server.testing.Attrs.item;
import static io.stator.server.testing.Attrs.n;
import static io.stator.server.testing.Attrs.s;
import static io.stator.server.testing.ErrorAssertions.assertError;
import static io.stator.server.testing.ErrorAssertions.assertValidation;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.stator.server.testing.Eventually;
import io.stator.server.testing.IndexContents;
import io.stator.server.testing.SharedServer;
import io.stator.server.testing.StatorTestServer;
import io.stator.server.testing.Tables;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.CreateGlobalSecondaryIndexAction;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndexDescription;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndexUpdate;
import software.amazon.awssdk.services.dynamodb.model.IndexStatus;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.LocalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.model.TableStatus;

/**
 * UpdateTable's GlobalSecondaryIndexUpdates: a global index created on a table of 50,000 items
 * is CREATING with Backfilling (and refuses reads) while the items are copied in, with writes
 * going on, then ACTIVE holding exactly the right entries; the build resumes after a restart;
 * a deleted index is DELETING, then gone and its name free again; an index's throughput is
 * updated; DynamoDB's one-create-or-delete-at-a-time rule and its refusals.
 *
 * <p>The big table is loaded once: {@code pk} (S) keys items {@code i0..i49999}; {@code city} is
 * a string on most, missing on some and a number on others (as if written before any index
 * wanted a string there: the backfill must leave those out, docs/dynamodb/indexes.md §3.2).
 */
class GlobalIndexUpdatesTest {

    private static final int ITEMS = 50_000;
    private static final String INVALID = "One or more parameter values were invalid: ";
    private static final String ONLY_ONE = "Subscriber limit exceeded: Only 1 online index can be created or deleted "
            + "simultaneously per table";

    @RegisterExtension
    static final SharedServer server = new SharedServer();

    private static final String BIG = StatorTestServer.tableName();

    @BeforeAll
    static void loadBigTable() throws Exception {
        server.client().createTable(Tables.onDemand(BIG).build());
        long start = System.nanoTime();
        int threads = 4;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int first = t;
                done.add(pool.submit(() -> {
                    for (int i = first; i < ITEMS; i += threads) {
                        Map<String, AttributeValue> item = bigItem(i);
                        server.client().putItem(b -> b.tableName(BIG).item(item));
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) f.get();
        } finally {
            pool.shutdownNow();
        }
        System.out.printf("GlobalIndexUpdatesTest: %d items loaded in %d ms%n", ITEMS, (System.nanoTime() - start) / 1_000_000);
    }

    private static Map<String, AttributeValue> bigItem(int i) {
        Map<String, AttributeValue> item = new java.util.LinkedHashMap<>(item("pk", s("i" + i), "n", n(Integer.toString(i)),
                "proj", s("p" + i), "other", s("o" + i)));
        if (i % 10 == 0) return item; // no city
        item.put("city", i % 10 == 1 ? n(Integer.toString(i % 97)) : s("c" + (i % 97)));
        return item;
    }

    private static TableDescription describe(String table) {
        return server.client().describeTable(b -> b.tableName(table)).table();
    }

    private static Optional<GlobalSecondaryIndexDescription> index(String table, String name) {
        return describe(table).globalSecondaryIndexes().stream().filter(i -> i.indexName().equals(name)).findFirst();
    }

    private static TableDescription createIndex(String table, String name, String hashKey, ScalarAttributeType type) {
        return server.client().updateTable(b -> b.tableName(table)
                .attributeDefinitions(Tables.definition(hashKey, type), Tables.definition("n", ScalarAttributeType.N))
                .globalSecondaryIndexUpdates(create(name, hashKey))).tableDescription();
    }

    private static GlobalSecondaryIndexUpdate create(String name, String hashKey) {
        return GlobalSecondaryIndexUpdate.builder().create(CreateGlobalSecondaryIndexAction.builder().indexName(name)
                .keySchema(Tables.key(hashKey, KeyType.HASH), Tables.key("n", KeyType.RANGE))
                .projection(p -> p.projectionType(ProjectionType.INCLUDE).nonKeyAttributes("proj")).build()).build();
    }

    private static GlobalSecondaryIndexUpdate delete(String name) {
        return GlobalSecondaryIndexUpdate.builder().delete(d -> d.indexName(name)).build();
    }

    private static void awaitStatus(String table, String name, IndexStatus status) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (index(table, name).map(GlobalSecondaryIndexDescription::indexStatus).orElse(null) != status) {
            if (System.nanoTime() > deadline) fail(name + " did not become " + status + ": " + index(table, name));
            Eventually.sleep(20);
        }
    }

    private static void awaitGone(String table, String name) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (index(table, name).isPresent()) {
            if (System.nanoTime() > deadline) fail(name + " was not dropped");
            Eventually.sleep(20);
        }
    }

    private static void dropIndex(String table, String name) {
        server.client().updateTable(b -> b.tableName(table).globalSecondaryIndexUpdates(delete(name)));
        awaitGone(table, name);
    }

    // ---- create: items the index cannot take ----------------------------------------------------

    /**
     * A backfill leaves out the items whose values cannot be the new index's keys (of another
     * type, an empty string, longer than a key may be) without an error; they stay in the table,
     * and writes that do not change those values are still accepted, while a write of such a value
     * is refused (developer guide, "Detecting and correcting index key violations",
     * GSI.OnlineOps.ViolationDetection.html; scylladb test_gsi_updatetable.py::test_gsi_backfill,
     * run against DynamoDB).
     */
    @Test
    void aBackfillLeavesOutItemsWhoseValuesCannotBeIndexKeys() {
        String table = StatorTestServer.tableName();
        server.client().createTable(Tables.onDemand(table).build());
        Map<String, AttributeValue> good = item("pk", s("good"), "city", s("paris"), "n", n("1"));
        List<Map<String, AttributeValue>> bad = List.of(
                item("pk", s("number"), "city", n("7"), "n", n("2")),
                item("pk", s("empty"), "city", s(""), "n", n("3")),
                item("pk", s("long"), "city", s("c".repeat(2_049)), "n", n("4")));
        server.client().putItem(b -> b.tableName(table).item(good));
        server.client().putItem(b -> b.tableName(table).item(item("pk", s("longest"), "city", s("c".repeat(2_048)), "n", n("5"))));
        for (Map<String, AttributeValue> i : bad) server.client().putItem(b -> b.tableName(table).item(i));
        createIndex(table, "byCity", "city", ScalarAttributeType.S);
        awaitStatus(table, "byCity", IndexStatus.ACTIVE);

        List<Map<String, AttributeValue>> indexed = server.client().scan(b -> b.tableName(table).indexName("byCity")).items();
        assertEquals(List.of("good", "longest"), indexed.stream().map(i -> i.get("pk").s()).sorted().toList());
        assertEquals(5, server.client().scan(b -> b.tableName(table)).count(), "the items stay in the table");
        assertEquals(2L, index(table, "byCity").orElseThrow().itemCount());

        // A write that leaves the bad value as it is: accepted, still not indexed.
        server.client().updateItem(b -> b.tableName(table).key(item("pk", s("empty"))).updateExpression("SET proj = :p")
                .expressionAttributeValues(Map.of(":p", s("x"))));
        assertEquals(2, server.client().scan(b -> b.tableName(table).indexName("byCity")).count());
        // A write of such a value: refused.
        assertValidation("One or more parameter values were invalid: Type mismatch for Index Key city Expected: S "
                + "Actual: N IndexName: byCity", () -> server.client().putItem(b -> b.tableName(table).item(bad.get(0))));
        assertValidation("One or more parameter values were invalid: Size limit exceeded for Index Key city Actual Size: "
                + "2049 bytes Max Size: 2048 bytes IndexName: byCity",
                () -> server.client().putItem(b -> b.tableName(table).item(bad.get(2))));
    }

    // ---- create: backfill with writes going on -----------------------------------------------

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void createBackfillsWhileWritesGoOnAndEndsWithExactlyTheRightEntries() throws Exception {
        String name = "by-city";
        AtomicBoolean stop = new AtomicBoolean();
        AtomicInteger writes = new AtomicInteger();
        ExecutorService writers = Executors.newFixedThreadPool(2);
        List<Future<?>> running = new ArrayList<>();
        for (int w = 0; w < 2; w++) {
            Random random = new Random(w);
            running.add(writers.submit(() -> {
                while (!stop.get()) {
                    writeDuringBackfill(random);
                    writes.incrementAndGet();
                }
                return null;
            }));
        }
        try {
            while (writes.get() < 50) Eventually.sleep(5); // writes are going on when the index is created

            GlobalSecondaryIndexDescription created = createIndex(BIG, name, "city", ScalarAttributeType.S)
                    .globalSecondaryIndexes().stream().filter(i -> i.indexName().equals(name)).findFirst().orElseThrow();
            assertEquals(IndexStatus.CREATING, created.indexStatus());
            assertEquals(0L, created.itemCount());

            GlobalSecondaryIndexDescription building = index(BIG, name).orElseThrow();
            assertEquals(IndexStatus.CREATING, building.indexStatus(), "50,000 items take a while");
            assertEquals(Boolean.TRUE, building.backfilling());
            assertEquals(TableStatus.ACTIVE, describe(BIG).tableStatus(), "the table is usable during the backfill");
            String refused = "Cannot read from backfilling global secondary index: " + name;
            assertValidation(refused, () -> server.client().query(b -> b.tableName(BIG).indexName(name)
                    .keyConditionExpression("city = :c").expressionAttributeValues(Map.of(":c", s("c2")))));
            assertValidation(refused, () -> server.client().scan(b -> b.tableName(BIG).indexName(name)));

            awaitStatus(BIG, name, IndexStatus.ACTIVE);
            int during = writes.get();
            assertNull(index(BIG, name).orElseThrow().backfilling(), "no Backfilling once ACTIVE");
            while (writes.get() < during + 50) Eventually.sleep(5); // and some after
        } finally {
            stop.set(true);
            for (Future<?> f : running) f.get();
            writers.shutdownNow();
        }
        System.out.println("GlobalIndexUpdatesTest: " + writes.get() + " writes during the backfill");

        IndexContents.awaitIndexesMatch(server.client(), BIG, Duration.ofSeconds(30));
        IndexContents.assertCounts(server.client(), BIG);

        // The items the index left out are still writable, as long as the write leaves their
        // city alone (only what an update touches is checked: docs/dynamodb/indexes.md §4.1).
        Map<String, AttributeValue> legacy = item("pk", s("i1"));
        server.client().updateItem(b -> b.tableName(BIG).key(legacy).updateExpression("SET proj = :p")
                .expressionAttributeValues(Map.of(":p", s("updated"))));
        assertValidation(INVALID + "Type mismatch for Index Key city Expected: S Actual: N IndexName: " + name,
                () -> server.client().putItem(b -> b.tableName(BIG).item(item("pk", s("i1"), "city", n("1")))));
        dropIndex(BIG, name);
    }

    /** A put, update or delete that changes the city (the new index's key) of a random item. */
    private static void writeDuringBackfill(Random random) {
        int i = random.nextInt(ITEMS + 2_000); // some new items
        Map<String, AttributeValue> key = item("pk", s("i" + i));
        int kind = random.nextInt(10);
        if (kind < 3) {
            server.client().putItem(b -> b.tableName(BIG).item(item("pk", s("i" + i), "n", n(Integer.toString(i)),
                    "city", s("w" + random.nextInt(50)), "proj", s("put"))));
        } else if (kind < 6) {
            server.client().updateItem(b -> b.tableName(BIG).key(key).updateExpression("SET city = :c, proj = :p, n = :n")
                    .expressionAttributeValues(Map.of(":c", s("u" + random.nextInt(50)), ":p", s("upd"),
                            ":n", n(Integer.toString(i)))));
        } else if (kind < 8) {
            server.client().updateItem(b -> b.tableName(BIG).key(key).updateExpression("REMOVE city"));
        } else {
            server.client().deleteItem(b -> b.tableName(BIG).key(key));
        }
    }

    /**
     * Writes that looked the table up before an index was created and commit after its backfill
     * took its snapshot must still reach the index. New items from several writers, an index
     * created under them, again and again: the window is small, so one round rarely hits it.
     */
    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void anIndexCreatedWhileWritesAreInFlightMissesNoneOfThem() throws Exception {
        int writers = 6;
        for (int round = 0; round < 10; round++) {
            String table = StatorTestServer.tableName();
            server.client().createTable(Tables.onDemand(table).build());
            AtomicBoolean stop = new AtomicBoolean();
            AtomicInteger writes = new AtomicInteger();
            ExecutorService pool = Executors.newFixedThreadPool(writers);
            List<Future<?>> running = new ArrayList<>();
            for (int w = 0; w < writers; w++) {
                String prefix = "w" + w + "-";
                running.add(pool.submit(() -> {
                    for (int i = 0; !stop.get(); i++) {
                        Map<String, AttributeValue> item = item("pk", s(prefix + i), "g", s("x"));
                        server.client().putItem(b -> b.tableName(table).item(item));
                        writes.incrementAndGet();
                    }
                    return null;
                }));
            }
            try {
                while (writes.get() < 20) Eventually.sleep(1);
                server.client().updateTable(b -> b.tableName(table)
                        .attributeDefinitions(Tables.definition("g", ScalarAttributeType.S))
                        .globalSecondaryIndexUpdates(GlobalSecondaryIndexUpdate.builder().create(c -> c.indexName("gsi1")
                                .keySchema(Tables.key("g", KeyType.HASH))
                                .projection(p -> p.projectionType(ProjectionType.KEYS_ONLY))).build()));
                int created = writes.get();
                while (writes.get() < created + 20) Eventually.sleep(1);
            } finally {
                stop.set(true);
                for (Future<?> f : running) f.get();
                pool.shutdownNow();
            }
            awaitStatus(table, "gsi1", IndexStatus.ACTIVE);
            IndexContents.awaitIndexesMatch(server.client(), table, Duration.ofSeconds(10));
        }
    }

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void anInterruptedBackfillResumesAfterARestart() {
        String name = "by-other";
        createIndex(BIG, name, "other", ScalarAttributeType.S);
        assertEquals(IndexStatus.CREATING, index(BIG, name).orElseThrow().indexStatus());
        server.restart();
        awaitStatus(BIG, name, IndexStatus.ACTIVE);
        IndexContents.awaitIndexesMatch(server.client(), BIG, Duration.ofSeconds(30));
        IndexContents.assertCounts(server.client(), BIG);
        dropIndex(BIG, name);
    }

    // ---- delete ------------------------------------------------------------------------------

    @Test
    void deleteMakesTheIndexDeletingThenGoneAndItsNameFree() {
        String table = smallTableWithIndex("gsi1");
        TableDescription response = server.client().updateTable(b -> b.tableName(table)
                .globalSecondaryIndexUpdates(delete("gsi1"))).tableDescription();
        assertEquals(IndexStatus.DELETING, response.globalSecondaryIndexes().getFirst().indexStatus());
        awaitGone(table, "gsi1");
        assertTrue(describe(table).globalSecondaryIndexes().isEmpty());
        assertValidation("The table does not have the specified index: gsi1", () -> server.client().query(b -> b
                .tableName(table).indexName("gsi1").keyConditionExpression("g = :g")
                .expressionAttributeValues(Map.of(":g", s("a")))));
        assertValidation("The table does not have the specified index: gsi1",
                () -> server.client().scan(b -> b.tableName(table).indexName("gsi1")));

        // Created again under the same name, it holds only what the items say now.
        server.client().updateItem(b -> b.tableName(table).key(item("pk", s("k0"))).updateExpression("REMOVE g"));
        server.client().updateTable(b -> b.tableName(table)
                .attributeDefinitions(Tables.definition("g", ScalarAttributeType.S))
                .globalSecondaryIndexUpdates(GlobalSecondaryIndexUpdate.builder().create(c -> c.indexName("gsi1")
                        .keySchema(Tables.key("g", KeyType.HASH))
                        .projection(p -> p.projectionType(ProjectionType.KEYS_ONLY))).build()));
        awaitStatus(table, "gsi1", IndexStatus.ACTIVE);
        IndexContents.awaitIndexesMatch(server.client(), table, Duration.ofSeconds(10));
        IndexContents.assertCounts(server.client(), table);
        assertEquals(19, index(table, "gsi1").orElseThrow().itemCount());
    }

    @Test
    void anIndexDeletedDuringItsBackfillGoesAndNeverShowsActive() {
        // DynamoDB accepts the Delete of a CREATING index once it is backfilling
        // (docs/dynamodb/indexes.md §3.2); the backfill must not make it ACTIVE on its way out.
        String name = "dropped-mid-build";
        createIndex(BIG, name, "other", ScalarAttributeType.S);
        TableDescription response = server.client().updateTable(b -> b.tableName(BIG)
                .globalSecondaryIndexUpdates(delete(name))).tableDescription();
        assertEquals(IndexStatus.DELETING, response.globalSecondaryIndexes().stream()
                .filter(i -> i.indexName().equals(name)).findFirst().orElseThrow().indexStatus());
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        for (Optional<GlobalSecondaryIndexDescription> seen = index(BIG, name); seen.isPresent(); seen = index(BIG, name)) {
            assertEquals(IndexStatus.DELETING, seen.get().indexStatus());
            if (System.nanoTime() > deadline) fail(name + " was not dropped");
            Eventually.sleep(20);
        }
    }

    /** An on-demand table of 20 items k0..k19 with g = a or b, and a global index on g. */
    private static String smallTableWithIndex(String indexName) {
        String table = StatorTestServer.tableName();
        server.client().createTable(Tables.onDemand(table)
                .attributeDefinitions(Tables.definition("pk", ScalarAttributeType.S), Tables.definition("g", ScalarAttributeType.S))
                .globalSecondaryIndexes(GlobalSecondaryIndex.builder().indexName(indexName)
                        .keySchema(Tables.key("g", KeyType.HASH)).projection(p -> p.projectionType(ProjectionType.ALL))
                        .build()).build());
        for (int i = 0; i < 20; i++) {
            Map<String, AttributeValue> it = item("pk", s("k" + i), "g", s(i % 2 == 0 ? "a" : "b"));
            server.client().putItem(b -> b.tableName(table).item(it));
        }
        return table;
    }

    // ---- update ------------------------------------------------------------------------------

    @Test
    void updateChangesAnIndexThroughputAndAnswersWithTheOldOneUpdating() {
        String table = StatorTestServer.tableName();
        server.client().createTable(Tables.provisioned(table, 5, 5)
                .attributeDefinitions(Tables.definition("pk", ScalarAttributeType.S), Tables.definition("g", ScalarAttributeType.S))
                .globalSecondaryIndexes(GlobalSecondaryIndex.builder().indexName("gsi1")
                        .keySchema(Tables.key("g", KeyType.HASH)).projection(p -> p.projectionType(ProjectionType.ALL))
                        .provisionedThroughput(t -> t.readCapacityUnits(2L).writeCapacityUnits(3L)).build()).build());
        GlobalSecondaryIndexDescription answered = server.client().updateTable(b -> b.tableName(table)
                .globalSecondaryIndexUpdates(GlobalSecondaryIndexUpdate.builder().update(u -> u.indexName("gsi1")
                        .provisionedThroughput(t -> t.readCapacityUnits(4L).writeCapacityUnits(1L))).build()))
                .tableDescription().globalSecondaryIndexes().getFirst();
        // docs/dynamodb/indexes.md §3.2: the response shows the old throughput and UPDATING.
        assertEquals(IndexStatus.UPDATING, answered.indexStatus());
        assertEquals(2L, answered.provisionedThroughput().readCapacityUnits());
        assertEquals(3L, answered.provisionedThroughput().writeCapacityUnits());

        GlobalSecondaryIndexDescription now = index(table, "gsi1").orElseThrow();
        assertEquals(IndexStatus.ACTIVE, now.indexStatus());
        assertEquals(4L, now.provisionedThroughput().readCapacityUnits());
        assertEquals(1L, now.provisionedThroughput().writeCapacityUnits());
        assertEquals(1L, now.provisionedThroughput().numberOfDecreasesToday());
        assertEquals(5L, describe(table).provisionedThroughput().readCapacityUnits(), "the table's own is unchanged");
    }

    // ---- refusals ----------------------------------------------------------------------------

    @Test
    void oneCreateOrDeletePerRequestAndPerTableAtATime() {
        String table = smallTableWithIndex("gsi1");
        assertError("LimitExceededException", ONLY_ONE, () -> server.client().updateTable(b -> b.tableName(table)
                .attributeDefinitions(Tables.definition("x", ScalarAttributeType.S), Tables.definition("n", ScalarAttributeType.N))
                .globalSecondaryIndexUpdates(create("gsi2", "x"), create("gsi3", "x"))));
        assertError("LimitExceededException", ONLY_ONE, () -> server.client().updateTable(b -> b.tableName(table)
                .attributeDefinitions(Tables.definition("x", ScalarAttributeType.S), Tables.definition("n", ScalarAttributeType.N))
                .globalSecondaryIndexUpdates(create("gsi2", "x"), delete("gsi1"))));
        assertEquals(List.of("gsi1"), describe(table).globalSecondaryIndexes().stream()
                .map(GlobalSecondaryIndexDescription::indexName).toList(), "nothing applied");

        // While one is being built, no other may be created or deleted.
        createIndex(BIG, "by-proj", "proj", ScalarAttributeType.S);
        try {
            assertEquals(IndexStatus.CREATING, index(BIG, "by-proj").orElseThrow().indexStatus());
            assertError("LimitExceededException", ONLY_ONE, () -> createIndex(BIG, "by-proj-2", "proj", ScalarAttributeType.S));
        } finally {
            awaitStatus(BIG, "by-proj", IndexStatus.ACTIVE);
        }
        dropIndex(BIG, "by-proj");
    }

    @Test
    void createAndDeleteRefuseWhatDynamoDbRefuses() {
        String table = StatorTestServer.tableName();
        server.client().createTable(b -> b.tableName(table).billingMode("PAY_PER_REQUEST")
                .attributeDefinitions(Tables.definition("pk", ScalarAttributeType.S), Tables.definition("sk", ScalarAttributeType.S),
                        Tables.definition("g", ScalarAttributeType.S))
                .keySchema(Tables.key("pk", KeyType.HASH), Tables.key("sk", KeyType.RANGE))
                .globalSecondaryIndexes(GlobalSecondaryIndex.builder().indexName("gsi1")
                        .keySchema(Tables.key("g", KeyType.HASH)).projection(p -> p.projectionType(ProjectionType.ALL)).build())
                .localSecondaryIndexes(LocalSecondaryIndex.builder().indexName("lsi1")
                        .keySchema(Tables.key("pk", KeyType.HASH), Tables.key("g", KeyType.RANGE))
                        .projection(p -> p.projectionType(ProjectionType.ALL)).build()));
        assertValidation("Attempting to create an index which already exists", () -> server.client().updateTable(b -> b
                .tableName(table).attributeDefinitions(Tables.definition("g", ScalarAttributeType.S),
                        Tables.definition("n", ScalarAttributeType.N))
                .globalSecondaryIndexUpdates(create("gsi1", "g"))));
        assertValidation("Attempting to create an index which already exists", () -> server.client().updateTable(b -> b
                .tableName(table).attributeDefinitions(Tables.definition("g", ScalarAttributeType.S),
                        Tables.definition("n", ScalarAttributeType.N))
                .globalSecondaryIndexUpdates(create("lsi1", "g"))));
        assertValidation("Cannot delete an index that is not a GlobalSecondaryIndex: lsi1",
                () -> server.client().updateTable(b -> b.tableName(table).globalSecondaryIndexUpdates(delete("lsi1"))));
        assertError("ResourceNotFoundException", "Requested resource not found: Index ghost for table " + table,
                () -> server.client().updateTable(b -> b.tableName(table).globalSecondaryIndexUpdates(delete("ghost"))));
        assertValidation(INVALID + "AttributeDefinitions is not specified for index: gsi2",
                () -> server.client().updateTable(b -> b.tableName(table).globalSecondaryIndexUpdates(create("gsi2", "g"))));
        assertValidation(INVALID + "Only one global secondary index update per index is allowed simultaneously. Index: gsi1",
                () -> server.client().updateTable(b -> b.tableName(table).globalSecondaryIndexUpdates(delete("gsi1"), delete("gsi1"))));

        // A refused request changed nothing.
        TableDescription after = describe(table);
        assertEquals(List.of("gsi1"), after.globalSecondaryIndexes().stream().map(GlobalSecondaryIndexDescription::indexName).toList());
        assertEquals(IndexStatus.ACTIVE, after.globalSecondaryIndexes().getFirst().indexStatus());
        assertTrue(after.attributeDefinitions().stream().noneMatch(d -> d.attributeName().equals("n")));
    }
}
