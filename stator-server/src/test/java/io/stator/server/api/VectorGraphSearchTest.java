package io.stator.server.api;

import static io.stator.server.api.VectorSearchTest.query;
import static io.stator.server.api.VectorSearchTest.schema;
import static io.stator.server.api.VectorSearchTest.score;
import static io.stator.server.api.VectorSearchTest.vector;
import static io.stator.server.api.VectorSearchTest.vectorIndex;
import static io.stator.server.testing.Attrs.item;
import static io.stator.server.testing.Attrs.s;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stator.engine.index.VectorGraphs;
import io.stator.engine.table.TableDefinition;
import io.stator.server.testing.Eventually;
import io.stator.server.testing.SharedServer;
import io.stator.server.testing.StatorTestServer;
import io.stator.server.testing.Tables;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.PutRequest;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.SearchResultItem;
import software.amazon.awssdk.services.dynamodb.model.SearchSchemaElementType;
import software.amazon.awssdk.services.dynamodb.model.SearchVectorsResponse;
import software.amazon.awssdk.services.dynamodb.model.VectorDistanceFunction;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/**
 * SearchVectors on an index large enough to be searched through its HNSW graph
 * ({@link VectorGraphs#GRAPH_THRESHOLD} entries and more): recall@10 against an exact search of
 * clustered data, exact scores, a selective HASH and INLINE_FILTER losing no match, and writes,
 * overwrites and deletes after the graph is built reaching it.
 */
class VectorGraphSearchTest {

    private static final int ITEMS = (int) VectorGraphs.GRAPH_THRESHOLD + 1_000;
    private static final int DIMENSIONS = 32;
    private static final int CLUSTERS = 20;

    @RegisterExtension
    static final SharedServer server = new SharedServer();

    private static final String TABLE = StatorTestServer.tableName();
    private static final Map<String, float[]> vectors = new ConcurrentHashMap<>();
    private static final Map<String, String> groups = new ConcurrentHashMap<>();
    private static final Map<String, String> flags = new ConcurrentHashMap<>();

    private static DynamoDbClient db() {
        return server.client();
    }

    @BeforeAll
    static void load() {
        db().createTable(Tables.onDemand(TABLE)
                .attributeDefinitions(Tables.definition("pk", ScalarAttributeType.S),
                        Tables.definition("grp", ScalarAttributeType.S), Tables.definition("flag", ScalarAttributeType.S))
                .vectorIndexes(vectorIndex("byEuclid", "e", DIMENSIONS, VectorDistanceFunction.EUCLIDEAN).build(),
                        vectorIndex("byCosine", "e", DIMENSIONS, VectorDistanceFunction.COSINE)
                                .searchSchema(schema("grp", SearchSchemaElementType.HASH),
                                        schema("flag", SearchSchemaElementType.INLINE_FILTER)).build())
                .build());
        Random random = new Random(42);
        float[][] centres = new float[CLUSTERS][DIMENSIONS];
        for (float[] c : centres) for (int d = 0; d < DIMENSIONS; d++) c[d] = (float) (random.nextGaussian() * 4);
        List<WriteRequest> batch = new ArrayList<>();
        for (int i = 0; i < ITEMS; i++) {
            float[] centre = centres[random.nextInt(CLUSTERS)];
            float[] v = new float[DIMENSIONS];
            for (int d = 0; d < DIMENSIONS; d++) v[d] = centre[d] + (float) random.nextGaussian();
            String key = "k" + i;
            String group = "g" + (i % 4);
            // A selective flag: 3 items of group g1 only.
            String flag = i % 4 == 1 && i % 1000 == 1 ? "rare" : "common";
            vectors.put(key, v);
            groups.put(key, group);
            flags.put(key, flag);
            batch.add(WriteRequest.builder().putRequest(PutRequest.builder().item(item("pk", s(key), "grp", s(group),
                    "flag", s(flag), "e", vector(v))).build()).build());
            if (batch.size() == 25) {
                write(batch);
                batch.clear();
            }
        }
        if (!batch.isEmpty()) write(batch);
        TableDefinition table = server.engine().catalog().find(TABLE);
        for (String index : List.of("byEuclid", "byCosine")) {
            int indexId = table.index(index).id();
            // The first searches are exact, and start the graph's build.
            Eventually.until("the graph of " + index + " is built", () -> {
                search(index, vectors.get("k1"), 1, "grp = :g", Map.of(":g", s("g1")));
                return server.engine().vectorGraphs().ready(table.id(), indexId);
            }, ready -> ready);
        }
    }

    private static void write(List<WriteRequest> batch) {
        Map<String, List<WriteRequest>> left = Map.of(TABLE, List.copyOf(batch));
        while (!left.isEmpty()) {
            Map<String, List<WriteRequest>> request = left;
            left = db().batchWriteItem(b -> b.requestItems(request)).unprocessedItems();
        }
    }

    private static SearchVectorsResponse search(String index, float[] q, int k, String condition,
                                                Map<String, AttributeValue> values) {
        return db().searchVectors(b -> {
            b.tableName(TABLE).indexName(index).searchVector(query(q)).topK(k);
            if (index.equals("byCosine")) b.searchConditionExpression(condition).expressionAttributeValues(values);
        });
    }

    private static List<String> exact(VectorDistanceFunction f, float[] q, int k, Predicate<String> filter) {
        return vectors.keySet().stream().filter(filter)
                .sorted(Comparator.comparingDouble((String key) -> score(f, q, vectors.get(key)))
                        .thenComparing(Comparator.naturalOrder()))
                .limit(k).toList();
    }

    @Test
    void recallAtTenIsAtLeastNinetyFivePercentAndScoresAreExact() {
        Random random = new Random(5);
        int found = 0;
        int wanted = 0;
        for (int round = 0; round < 50; round++) {
            float[] near = vectors.get("k" + (10 + random.nextInt(ITEMS - 10))); // not the items the other tests move
            float[] q = near.clone();
            for (int d = 0; d < DIMENSIONS; d++) q[d] += (float) (random.nextGaussian() * 0.5);
            SearchVectorsResponse r = search("byEuclid", q, 10, null, null);
            List<String> expected = exact(VectorDistanceFunction.EUCLIDEAN, q, 10, k -> true);
            Set<String> got = new HashSet<>();
            double previous = -1;
            for (SearchResultItem hit : r.searchResults()) {
                String key = hit.item().get("pk").s();
                got.add(key);
                assertEquals(score(VectorDistanceFunction.EUCLIDEAN, q, vectors.get(key)), hit.score(), 1e-6, "exact score");
                assertTrue(hit.score() >= previous, "nearest first");
                previous = hit.score();
            }
            assertEquals(10, r.searchResults().size());
            for (String key : expected) if (got.contains(key)) found++;
            wanted += expected.size();
        }
        double recall = (double) found / wanted;
        System.out.printf("VectorGraphSearchTest: recall@10 %.3f over 50 queries%n", recall);
        assertTrue(recall >= 0.95, "recall@10 " + recall);
    }

    @Test
    void aSelectiveFilterLosesNoMatch() {
        float[] q = vectors.get("k7");
        SearchVectorsResponse r = search("byCosine", q, 10, "grp = :g AND flag = :f",
                Map.of(":g", s("g1"), ":f", s("rare")));
        List<String> expected = exact(VectorDistanceFunction.COSINE, q, 10,
                k -> groups.get(k).equals("g1") && flags.get(k).equals("rare"));
        assertEquals(expected.size(), r.searchResults().size(), "every one of the rare items: " + expected);
        assertEquals(new HashSet<>(expected), new HashSet<>(r.searchResults().stream().map(h -> h.item().get("pk").s()).toList()));
        // Within a HASH partition, the nearest are found as well.
        SearchVectorsResponse inGroup = search("byCosine", q, 10, "grp = :g", Map.of(":g", s("g2")));
        for (SearchResultItem hit : inGroup.searchResults()) assertEquals("g2", groups.get(hit.item().get("pk").s()));
        assertEquals(10, inGroup.searchResults().size());
    }

    @Test
    void writesAfterTheBuildReachTheGraph() {
        float[] far = new float[DIMENSIONS];
        far[0] = 1_000;
        db().putItem(b -> b.tableName(TABLE).item(item("pk", s("k3"), "grp", s("g3"), "flag", s("common"), "e", vector(far))));
        vectors.put("k3", far);
        Eventually.until("the moved vector is found", () -> nearest(far), "k3"::equals);
        db().deleteItem(b -> b.tableName(TABLE).key(item("pk", s("k3"))));
        vectors.remove("k3");
        Eventually.until("the deleted item is gone", () -> nearest(far), key -> key != null && !key.equals("k3"));
    }

    private static String nearest(float[] q) {
        List<SearchResultItem> results = search("byEuclid", q, 1, null, null).searchResults();
        return results.isEmpty() ? null : results.get(0).item().get("pk").s();
    }
}
