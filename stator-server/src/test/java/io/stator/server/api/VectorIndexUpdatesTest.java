package io.stator.server.api;

import static io.stator.server.api.VectorSearchTest.schema;
import static io.stator.server.api.VectorSearchTest.vector;
import static io.stator.server.testing.Attrs.item;
import static io.stator.server.testing.Attrs.n;
import static io.stator.server.testing.Attrs.s;
import static io.stator.server.testing.ErrorAssertions.assertError;
import static io.stator.server.testing.ErrorAssertions.assertValidation;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.stator.server.testing.Eventually;
import io.stator.server.testing.SharedServer;
import io.stator.server.testing.StatorTestServer;
import io.stator.server.testing.Tables;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.CreateVectorIndexAction;
import software.amazon.awssdk.services.dynamodb.model.IndexStatus;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.PutRequest;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.SearchSchemaElementType;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.model.VectorDistanceFunction;
import software.amazon.awssdk.services.dynamodb.model.VectorIndexDescription;
import software.amazon.awssdk.services.dynamodb.model.VectorIndexUpdate;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/**
 * UpdateTable's VectorIndexUpdates: an index added to a table of 100,000 items is CREATING with
 * Backfilling (SearchVectors refuses it) while the items are copied in with writes going on,
 * then ACTIVE, Backfilling gone, holding exactly the items with a valid vector, its search finding
 * the final items' nearest; then deleted. And UpdateTable's refusals, in DynamoDB's words
 * (docs/dynamodb/vector-search.md §3.3).
 */
class VectorIndexUpdatesTest {

    private static final int ITEMS = 100_000;
    private static final int DIMENSIONS = 4;
    private static final String INVALID = "One or more parameter values were invalid: ";

    @RegisterExtension
    static final SharedServer server = new SharedServer();

    private static final String BIG = StatorTestServer.tableName();
    /** The vectors the big table's items hold, by key (none for an item without a valid one). */
    private static final Map<String, float[]> vectors = new ConcurrentHashMap<>();

    private static DynamoDbClient db() {
        return server.client();
    }

    private static float[] randomVector(Random random) {
        float[] v = new float[DIMENSIONS];
        for (int d = 0; d < DIMENSIONS; d++) v[d] = (float) random.nextGaussian();
        return v;
    }

    /** Item i: a vector, except every 50th (none) and every 77th (of the wrong size: left out by the backfill). */
    private static Map<String, AttributeValue> bigItem(int i, Random random) {
        String key = "i" + i;
        if (i % 50 == 0) return item("pk", s(key), "n", n(i));
        if (i % 77 == 0) return item("pk", s(key), "e", vector(1, 2));
        float[] v = randomVector(random);
        vectors.put(key, v);
        return item("pk", s(key), "e", vector(v));
    }

    @BeforeAll
    static void loadBigTable() throws Exception {
        db().createTable(Tables.onDemand(BIG).build());
        long start = System.nanoTime();
        int threads = 4;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int first = t;
                done.add(pool.submit(() -> {
                    Random random = new Random(first);
                    List<WriteRequest> batch = new ArrayList<>(25);
                    for (int i = first; i < ITEMS; i += threads) {
                        batch.add(WriteRequest.builder().putRequest(PutRequest.builder().item(bigItem(i, random)).build())
                                .build());
                        if (batch.size() == 25 || i + threads >= ITEMS) {
                            List<WriteRequest> sent = List.copyOf(batch);
                            Map<String, List<WriteRequest>> left = Map.of(BIG, sent);
                            while (!left.isEmpty()) {
                                Map<String, List<WriteRequest>> request = left;
                                left = db().batchWriteItem(b -> b.requestItems(request)).unprocessedItems();
                            }
                            batch.clear();
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) f.get();
        } finally {
            pool.shutdownNow();
        }
        System.out.printf("VectorIndexUpdatesTest: %d items loaded in %d ms%n", ITEMS, (System.nanoTime() - start) / 1_000_000);
    }

    static VectorIndexUpdate create(String name, String attribute, long dimensions) {
        return VectorIndexUpdate.builder().create(CreateVectorIndexAction.builder().indexName(name)
                .vectorAttribute(a -> a.attributeName(attribute)).dimensions(dimensions)
                .distanceFunction(VectorDistanceFunction.EUCLIDEAN).projection(p -> p.projectionType(ProjectionType.KEYS_ONLY))
                .build()).build();
    }

    static VectorIndexUpdate delete(String name) {
        return VectorIndexUpdate.builder().delete(d -> d.indexName(name)).build();
    }

    private static Optional<VectorIndexDescription> index(String table, String name) {
        TableDescription t = db().describeTable(b -> b.tableName(table)).table();
        return t.vectorIndexes().stream().filter(i -> i.indexName().equals(name)).findFirst();
    }

    private static void awaitStatus(String table, String name, IndexStatus status) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(240);
        while (index(table, name).map(VectorIndexDescription::indexStatus).orElse(null) != status) {
            if (System.nanoTime() > deadline) fail(name + " did not become " + status + ": " + index(table, name));
            Eventually.sleep(50);
        }
    }

    private static void awaitGone(String table, String name) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (index(table, name).isPresent()) {
            if (System.nanoTime() > deadline) fail(name + " was not dropped");
            Eventually.sleep(50);
        }
    }

    private static List<String> search(String table, String index, float[] q, int k) {
        return db().searchVectors(b -> b.tableName(table).indexName(index).searchVector(VectorSearchTest.query(q)).topK(k))
                .searchResults().stream().map(r -> r.item().get("pk").s()).toList();
    }

    @Test
    @Timeout(value = 6, unit = TimeUnit.MINUTES)
    void anIndexAddedToABigTableIsBackfilledWhileWritesGoOnThenSearchedAndDeleted() throws Exception {
        AtomicBoolean stop = new AtomicBoolean();
        ExecutorService writers = Executors.newFixedThreadPool(2);
        List<Future<Integer>> running = new ArrayList<>();
        for (int w = 0; w < 2; w++) {
            int seed = 100 + w;
            running.add(writers.submit(() -> {
                Random random = new Random(seed);
                int writes = 0;
                while (!stop.get()) {
                    int i = random.nextInt(ITEMS);
                    if (i % 2 != seed % 2) continue; // each writer its own items: the final state is known
                    String key = "i" + i;
                    if (random.nextInt(10) == 0) {
                        db().updateItem(b -> b.tableName(BIG).key(item("pk", s(key))).updateExpression("REMOVE e"));
                        vectors.remove(key);
                    } else {
                        float[] v = randomVector(random);
                        db().putItem(b -> b.tableName(BIG).item(item("pk", s(key), "e", vector(v))));
                        vectors.put(key, v);
                    }
                    writes++;
                }
                return writes;
            }));
        }
        try {
            Eventually.sleep(300);
            TableDescription created = db().updateTable(b -> b.tableName(BIG).vectorIndexUpdates(create("byE", "e", DIMENSIONS)))
                    .tableDescription();
            VectorIndexDescription shown = created.vectorIndexes().get(0);
            assertEquals(IndexStatus.CREATING, shown.indexStatus());
            Optional<VectorIndexDescription> building = index(BIG, "byE");
            if (building.orElseThrow().indexStatus() == IndexStatus.CREATING) {
                assertEquals(Boolean.TRUE, building.get().backfilling());
                try {
                    search(BIG, "byE", new float[DIMENSIONS], 1);
                    // Built between the two calls: nothing more to see.
                } catch (software.amazon.awssdk.services.dynamodb.model.DynamoDbException e) {
                    assertEquals("Cannot search backfilling vector index: byE", e.awsErrorDetails().errorMessage());
                }
            }
            awaitStatus(BIG, "byE", IndexStatus.ACTIVE);
            Eventually.sleep(500);
        } finally {
            stop.set(true);
            int writes = 0;
            for (Future<Integer> f : running) writes += f.get();
            writers.shutdownNow();
            System.out.printf("VectorIndexUpdatesTest: %d writes during the backfill%n", writes);
        }
        VectorIndexDescription active = index(BIG, "byE").orElseThrow();
        assertEquals(null, active.backfilling(), "absent once built");
        Eventually.until("the index holds every item with a valid vector",
                () -> index(BIG, "byE").orElseThrow().itemCount(), count -> count == vectors.size());
        Random random = new Random(9);
        for (int round = 0; round < 5; round++) {
            float[] q = randomVector(random);
            List<String> expected = vectors.entrySet().stream()
                    .sorted(Comparator.comparingDouble(e -> VectorSearchTest.score(VectorDistanceFunction.EUCLIDEAN, q,
                            e.getValue())))
                    .limit(10).map(Map.Entry::getKey).toList();
            // The index is large enough to be searched through its HNSW graph (approximate): nearly
            // all of the exact ten, and nothing that is not among the final items.
            Eventually.until("the search sees the final items", () -> search(BIG, "byE", q, 10),
                    found -> found.size() == 10 && vectors.keySet().containsAll(found)
                            && found.stream().filter(expected::contains).count() >= 8);
        }

        db().updateTable(b -> b.tableName(BIG).vectorIndexUpdates(delete("byE")));
        awaitGone(BIG, "byE");
        assertValidation("The table does not have the specified index: byE", () -> search(BIG, "byE", new float[DIMENSIONS], 1));
        // Its name is free again.
        db().updateTable(b -> b.tableName(BIG).vectorIndexUpdates(create("byE", "e", 2)));
        awaitStatus(BIG, "byE", IndexStatus.ACTIVE);
        String first = search(BIG, "byE", new float[] {1, 2}, 1).get(0);
        assertEquals(0, Integer.parseInt(first.substring(1)) % 77, "the items of two dimensions, now: " + first);
        db().updateTable(b -> b.tableName(BIG).vectorIndexUpdates(delete("byE")));
        awaitGone(BIG, "byE");
    }

    @Test
    void updateTableRefusals() {
        String table = StatorTestServer.tableName();
        db().createTable(Tables.onDemand(table).attributeDefinitions(Tables.definition("pk", ScalarAttributeType.S),
                Tables.definition("sk", ScalarAttributeType.N)).keySchema(Tables.key("pk",
                software.amazon.awssdk.services.dynamodb.model.KeyType.HASH), Tables.key("sk",
                software.amazon.awssdk.services.dynamodb.model.KeyType.RANGE)).build());
        String onlyOne = "Subscriber limit exceeded: Only 1 online index can be created or deleted simultaneously per table";
        assertError("LimitExceededException", onlyOne, () -> db().updateTable(b -> b.tableName(table)
                .vectorIndexUpdates(create("aaa", "e", 4), create("bbb", "e", 4))));
        assertValidation(INVALID + "Attributes cannot be redefined. Please check that your attribute has the same type "
                + "as previously defined. Existing schema: Schema:[SchemaElement: key{sk:N:RANGE}] New schema: "
                + "VectorIndexSchema:[VectorAttribute: key{sk:L:4}]",
                () -> db().updateTable(b -> b.tableName(table).vectorIndexUpdates(create("aaa", "sk", 4))));
        assertValidation(INVALID + "Conflicting attribute definition for 'e'. An attribute cannot be defined in "
                + "AttributeDefinitions when used as a VectorAttribute.", () -> db().updateTable(b -> b.tableName(table)
                .attributeDefinitions(Tables.definition("e", ScalarAttributeType.S)).vectorIndexUpdates(create("aaa", "e", 4))));
        // The search schema's attributes must be defined in this request, even the table's own.
        VectorIndexUpdate withHash = VectorIndexUpdate.builder().create(create("aaa", "e", 4).create().toBuilder()
                .searchSchema(schema("pk", SearchSchemaElementType.HASH)).build()).build();
        assertValidation(INVALID + "One element in SearchSchema is not defined in attribute definitions",
                () -> db().updateTable(b -> b.tableName(table).vectorIndexUpdates(withHash)));
        assertError("ResourceNotFoundException", "Requested resource not found: Index nope for table " + table,
                () -> db().updateTable(b -> b.tableName(table).vectorIndexUpdates(delete("nope"))));

        db().updateTable(b -> b.tableName(table).attributeDefinitions(Tables.definition("pk", ScalarAttributeType.S))
                .vectorIndexUpdates(withHash));
        awaitStatus(table, "aaa", IndexStatus.ACTIVE);
        assertValidation("Attempting to create an index which already exists",
                () -> db().updateTable(b -> b.tableName(table).vectorIndexUpdates(create("aaa", "e", 4))));
        assertValidation(INVALID + "Attributes cannot be redefined. Please check that your attribute has the same type "
                + "as previously defined. Existing schema: VectorIndexSchema:[VectorAttribute: key{e:L:4}] New schema: "
                + "VectorIndexSchema:[VectorAttribute: key{e:L:8}]",
                () -> db().updateTable(b -> b.tableName(table).vectorIndexUpdates(create("bbb", "e", 8))));
        assertValidation(INVALID + "Vector indexes are only supported for PAY_PER_REQUEST tables",
                () -> db().updateTable(b -> b.tableName(table).billingMode(BillingMode.PROVISIONED)
                        .provisionedThroughput(p -> p.readCapacityUnits(1L).writeCapacityUnits(1L))));
        for (int i = 0; i < 4; i++) {
            String name = "more" + i;
            db().updateTable(b -> b.tableName(table).vectorIndexUpdates(create(name, "e", 4)));
            awaitStatus(table, name, IndexStatus.ACTIVE);
        }
        assertError("LimitExceededException", "Subscriber limit exceeded: Number of vector secondary indexes exceeds "
                + "per-table limit of 5", () -> db().updateTable(b -> b.tableName(table).vectorIndexUpdates(create("six", "e", 4))));
        Map<String, AttributeValue> written = new HashMap<>(item("pk", s("a"), "sk", n(1), "e", vector(1, 2, 3, 4)));
        db().putItem(b -> b.tableName(table).item(written));
        assertTrue(index(table, "aaa").isPresent());
    }
}
