package io.stator.server.api;

import static io.stator.server.testing.Attrs.item;
import static io.stator.server.testing.Attrs.l;
import static io.stator.server.testing.Attrs.n;
import static io.stator.server.testing.Attrs.s;
import static io.stator.server.testing.ErrorAssertions.assertError;
import static io.stator.server.testing.ErrorAssertions.assertValidation;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stator.server.testing.Eventually;
import io.stator.server.testing.SharedServer;
import io.stator.server.testing.StatorTestServer;
import io.stator.server.testing.Tables;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Consumer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.CreateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.IndexStatus;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.SearchResultItem;
import software.amazon.awssdk.services.dynamodb.model.SearchSchemaElement;
import software.amazon.awssdk.services.dynamodb.model.SearchSchemaElementType;
import software.amazon.awssdk.services.dynamodb.model.SearchVectorsRequest;
import software.amazon.awssdk.services.dynamodb.model.SearchVectorsResponse;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.model.VectorDistanceFunction;
import software.amazon.awssdk.services.dynamodb.model.VectorIndex;
import software.amazon.awssdk.services.dynamodb.model.VectorIndexDescription;

/**
 * Vector indexes and SearchVectors through the SDK's own vector search classes: CreateTable's
 * VectorIndexes as DescribeTable shows them, each distance function's ranking and scores against
 * an exact search computed here, filters on the search schema's HASH and INLINE_FILTER
 * attributes, projections, capacity in bytes, writes of bad vectors, and each refusal with
 * DynamoDB's text (sources in docs/dynamodb/vector-search.md).
 */
class VectorSearchTest {

    private static final String INVALID = "One or more parameter values were invalid: ";
    private static final int DIMENSIONS = 8;
    /** Fewer on Cassandra, where each write is several lightweight transactions (an entry per index). */
    private static final int ITEMS = io.stator.server.testing.TestBackend.cassandra() ? 90 : 300;

    @RegisterExtension
    static final SharedServer server = new SharedServer();

    /** One table, three indexes on one vector attribute: one per distance function. */
    private static final String TABLE = StatorTestServer.tableName();
    /** Vectors written to {@link #TABLE}, by key. */
    private static final Map<String, float[]> vectors = new java.util.LinkedHashMap<>();
    private static final Map<String, String> tenants = new java.util.HashMap<>();
    private static final Map<String, String> colours = new java.util.HashMap<>();

    private static DynamoDbClient db() {
        return server.client();
    }

    static VectorIndex.Builder vectorIndex(String name, String attribute, long dimensions, VectorDistanceFunction f) {
        return VectorIndex.builder().indexName(name).vectorAttribute(a -> a.attributeName(attribute))
                .dimensions(dimensions).distanceFunction(f).projection(p -> p.projectionType(ProjectionType.ALL));
    }

    static SearchSchemaElement schema(String attribute, SearchSchemaElementType type) {
        return SearchSchemaElement.builder().attributeName(attribute).searchSchemaElementType(type).build();
    }

    static AttributeValue vector(float... v) {
        List<AttributeValue> out = new ArrayList<>(v.length);
        for (float f : v) out.add(AttributeValue.fromN(Float.toString(f)));
        return AttributeValue.fromL(out);
    }

    static List<AttributeValue> query(float... v) {
        return vector(v).l();
    }

    @BeforeAll
    static void load() {
        db().createTable(Tables.onDemand(TABLE)
                .attributeDefinitions(Tables.definition("pk", ScalarAttributeType.S),
                        Tables.definition("tenant", ScalarAttributeType.S),
                        Tables.definition("colour", ScalarAttributeType.S))
                .vectorIndexes(vectorIndex("byCosine", "embedding", DIMENSIONS, VectorDistanceFunction.COSINE).build(),
                        vectorIndex("byEuclid", "embedding", DIMENSIONS, VectorDistanceFunction.EUCLIDEAN).build(),
                        vectorIndex("byDot", "embedding", DIMENSIONS, VectorDistanceFunction.DOT_PRODUCT)
                                .searchSchema(schema("tenant", SearchSchemaElementType.HASH),
                                        schema("colour", SearchSchemaElementType.INLINE_FILTER)).build())
                .build());
        Random random = new Random(32);
        for (int i = 0; i < ITEMS; i++) {
            float[] v = new float[DIMENSIONS];
            for (int d = 0; d < DIMENSIONS; d++) v[d] = (float) random.nextGaussian();
            String key = "k" + i;
            String tenant = "t" + (i % 3);
            String colour = i % 5 == 0 ? null : (i % 2 == 0 ? "red" : "blue");
            vectors.put(key, v);
            tenants.put(key, tenant);
            if (colour != null) colours.put(key, colour);
            Map<String, AttributeValue> item = new java.util.HashMap<>(item("pk", s(key), "tenant", s(tenant),
                    "embedding", vector(v), "title", s("item " + i)));
            if (colour != null) item.put("colour", s(colour));
            db().putItem(r -> r.tableName(TABLE).item(item));
        }
        // Eventually consistent, as DynamoDB's: wait until every vector is searchable.
        Eventually.until("the index holds every item", () -> search(r -> r.indexName("byEuclid")
                .searchVector(query(vectors.get("k" + (ITEMS - 1)))).topK(1)).searchResults(),
                results -> !results.isEmpty() && results.get(0).item().get("pk").s().equals("k" + (ITEMS - 1)));
    }

    static SearchVectorsResponse search(Consumer<SearchVectorsRequest.Builder> request) {
        SearchVectorsRequest.Builder b = SearchVectorsRequest.builder().tableName(TABLE);
        request.accept(b);
        return db().searchVectors(b.build());
    }

    // ---- the exact search this test checks against ---------------------------------------------

    static double score(VectorDistanceFunction f, float[] q, float[] v) {
        double dot = 0, qq = 0, vv = 0, sq = 0;
        for (int i = 0; i < q.length; i++) {
            dot += (double) q[i] * v[i];
            qq += (double) q[i] * q[i];
            vv += (double) v[i] * v[i];
            double d = (double) q[i] - v[i];
            sq += d * d;
        }
        return switch (f) {
            case COSINE -> qq == 0 || vv == 0 ? 1.0 : 1.0 - dot / (Math.sqrt(qq) * Math.sqrt(vv));
            case EUCLIDEAN -> Math.sqrt(sq);
            default -> dot;
        };
    }

    static List<String> exact(VectorDistanceFunction f, float[] q, int k, java.util.function.Predicate<String> filter) {
        Comparator<String> byScore = Comparator.comparingDouble(key -> score(f, q, vectors.get(key)));
        if (f == VectorDistanceFunction.DOT_PRODUCT) byScore = byScore.reversed();
        return vectors.keySet().stream().filter(filter).sorted(byScore).limit(k).toList();
    }

    static List<String> keys(SearchVectorsResponse r) {
        return r.searchResults().stream().map(i -> i.item().get("pk").s()).toList();
    }

    // ---- tests ---------------------------------------------------------------------------------

    @Test
    void describeTableShowsTheVectorIndexes() {
        TableDescription t = db().describeTable(r -> r.tableName(TABLE)).table();
        assertEquals(3, t.vectorIndexes().size());
        VectorIndexDescription dot = t.vectorIndexes().get(2);
        assertEquals("byDot", dot.indexName());
        assertEquals("embedding", dot.vectorAttribute().attributeName());
        assertEquals(DIMENSIONS, dot.dimensions());
        assertEquals(VectorDistanceFunction.DOT_PRODUCT, dot.distanceFunction());
        assertEquals(IndexStatus.ACTIVE, dot.indexStatus());
        assertNull(dot.backfilling(), "absent, not false, once built");
        assertEquals(List.of(schema("tenant", SearchSchemaElementType.HASH),
                schema("colour", SearchSchemaElementType.INLINE_FILTER)), dot.searchSchema());
        assertEquals(ProjectionType.ALL, dot.projection().projectionType());
        assertTrue(dot.indexArn().endsWith(":table/" + TABLE + "/index/byDot"), dot.indexArn());
        assertFalse(t.vectorIndexes().get(0).hasSearchSchema(), "absent when the index has none");
        // The search schema's attributes are defined; the vector attribute never is.
        assertEquals(List.of("colour", "pk", "tenant"), t.attributeDefinitions().stream()
                .map(d -> d.attributeName()).toList());
        assertTrue(t.globalSecondaryIndexes().isEmpty());
    }

    @Test
    void eachDistanceFunctionRanksAsAnExactSearch() {
        Random random = new Random(7);
        for (VectorDistanceFunction f : List.of(VectorDistanceFunction.COSINE, VectorDistanceFunction.EUCLIDEAN)) {
            for (int round = 0; round < 5; round++) {
                float[] q = new float[DIMENSIONS];
                for (int d = 0; d < DIMENSIONS; d++) q[d] = (float) random.nextGaussian();
                String index = f == VectorDistanceFunction.COSINE ? "byCosine" : "byEuclid";
                SearchVectorsResponse r = search(b -> b.indexName(index).searchVector(query(q)).topK(10));
                assertEquals(exact(f, q, 10, k -> true), keys(r), f + " ranking");
                for (SearchResultItem hit : r.searchResults()) {
                    float[] v = vectors.get(hit.item().get("pk").s());
                    assertEquals(score(f, q, v), hit.score(), 1e-6, f + " score");
                }
                assertFalse(r.searchResults().get(0).item().containsKey("embedding"), "the vector is left out by default");
            }
        }
        // DOT_PRODUCT: higher first, within a HASH partition.
        float[] q = vectors.get("k4");
        SearchVectorsResponse r = search(b -> b.indexName("byDot").searchVector(query(q)).topK(7)
                .searchConditionExpression("tenant = :t").expressionAttributeValues(Map.of(":t", s("t1"))));
        assertEquals(exact(VectorDistanceFunction.DOT_PRODUCT, q, 7, k -> tenants.get(k).equals("t1")), keys(r));
        for (SearchResultItem hit : r.searchResults()) {
            assertEquals(score(VectorDistanceFunction.DOT_PRODUCT, q, vectors.get(hit.item().get("pk").s())), hit.score(),
                    1e-5);
        }
    }

    @Test
    void aSelfMatchScoresZeroUnderCosineAndEuclidean() {
        float[] q = vectors.get("k17");
        assertEquals(0.0, search(b -> b.indexName("byEuclid").searchVector(query(q)).topK(1)).searchResults().get(0).score());
        SearchResultItem first = search(b -> b.indexName("byCosine").searchVector(query(q)).topK(1)).searchResults().get(0);
        assertEquals("k17", first.item().get("pk").s());
        assertEquals(0.0, first.score(), 1e-7);
    }

    @Test
    void inlineFiltersNarrowInsideTheSearch() {
        float[] q = vectors.get("k10");
        SearchVectorsResponse r = search(b -> b.indexName("byDot").searchVector(query(q)).topK(100)
                .searchConditionExpression("tenant = :t AND #c = :c")
                .expressionAttributeNames(Map.of("#c", "colour"))
                .expressionAttributeValues(Map.of(":t", s("t0"), ":c", s("red"))));
        List<String> expected = exact(VectorDistanceFunction.DOT_PRODUCT, q, 100,
                k -> tenants.get(k).equals("t0") && "red".equals(colours.get(k)));
        assertEquals(expected, keys(r), "every match, none lost to filtering; items without colour excluded");
        assertTrue(expected.size() > 5 && expected.size() < 100, "size " + expected.size());
        // Parentheses around an AND chain are accepted.
        assertEquals(expected.subList(0, 5), keys(search(b -> b.indexName("byDot").searchVector(query(q)).topK(5)
                .searchConditionExpression("(tenant = :t AND colour = :c)")
                .expressionAttributeValues(Map.of(":t", s("t0"), ":c", s("red"))))));
        // No match: no results.
        assertEquals(List.of(), keys(search(b -> b.indexName("byDot").searchVector(query(q)).topK(5)
                .searchConditionExpression("tenant = :t").expressionAttributeValues(Map.of(":t", s("nobody"))))));
    }

    @Test
    void projectionsAndTheVectorAttribute() {
        float[] q = vectors.get("k3");
        Map<String, AttributeValue> first = search(b -> b.indexName("byEuclid").searchVector(query(q)).topK(1)
                .projectionExpression("pk, embedding, title")).searchResults().get(0).item();
        assertEquals(3, first.size(), first.toString());
        assertEquals(s("item 3"), first.get("title"));
        List<AttributeValue> returned = first.get("embedding").l();
        for (int d = 0; d < DIMENSIONS; d++) assertEquals(q[d], Float.parseFloat(returned.get(d).n()), "as 32-bit floats");
        assertFalse(returned.get(0).n().contains("E"), "no exponent: " + returned.get(0).n());
    }

    @Test
    void searchBytesAreReported() {
        float[] q = vectors.get("k3");
        SearchVectorsResponse r = search(b -> b.indexName("byEuclid").searchVector(query(q)).topK(10)
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL));
        double bytes = r.consumedCapacity().vectorSearchRequestBytes();
        assertTrue(bytes >= 1024, "at least 1 KB: " + bytes);
        SearchVectorsResponse more = search(b -> b.indexName("byEuclid").searchVector(query(q)).topK(100)
                .returnConsumedCapacity(ReturnConsumedCapacity.INDEXES));
        assertTrue(more.consumedCapacity().vectorSearchRequestBytes() > bytes, "more for a larger TopK");
        assertNull(search(b -> b.indexName("byEuclid").searchVector(query(q)).topK(1)).consumedCapacity());
        // CloudWatch's VectorSearchRequestBytes, by table and vector index, on /metrics.
        io.stator.server.testing.RawHttp.Response reply = io.stator.server.testing.RawHttp.exchange(server.port(),
                new io.stator.server.testing.RawHttp.Request("GET", "/metrics", Map.of(), new byte[0]));
        io.stator.server.testing.PrometheusText metrics = io.stator.server.testing.PrometheusText.parse(reply.bodyText());
        assertTrue(metrics.sum("dynamodb_vector_search_request_bytes_total", "table", TABLE, "index", "byEuclid")
                >= bytes + more.consumedCapacity().vectorSearchRequestBytes());
        assertTrue(metrics.sum("dynamodb_vector_write_request_bytes_total", "table", TABLE, "index", "byDot") >= 1024);
    }

    @Test
    void writesReportVectorBytesPerIndex() {
        ConsumedCapacity c = db().putItem(r -> r.tableName(TABLE).returnConsumedCapacity(ReturnConsumedCapacity.INDEXES)
                .item(item("pk", s("bytes"), "tenant", s("t9"), "embedding", vector(new float[DIMENSIONS])))).consumedCapacity();
        assertEquals(1.0, c.capacityUnits(), "table units are unaffected");
        // Each index holds 4 bytes a dimension, the attribute's name and the rest of the projected
        // item; the three together are under 1 KB, so the first (by name) carries the floor.
        long entry = 4L * DIMENSIONS + "embedding".length() + ("pk".length() + "bytes".length())
                + ("tenant".length() + "t9".length());
        long keyEntry = 4L * DIMENSIONS + "embedding".length() + ("pk".length() + "bytes".length());
        assertEquals(Map.of("byCosine", (double) keyEntry, "byEuclid", (double) keyEntry, "byDot", (double) entry).keySet(),
                c.vectorIndexes().keySet());
        double sum = c.vectorIndexes().values().stream().mapToDouble(v -> v.vectorWriteRequestBytes()).sum();
        assertEquals(1024.0, sum, "a 1 KB floor per request, not per index");
        assertEquals((double) entry, c.vectorIndexes().get("byDot").vectorWriteRequestBytes());
        db().deleteItem(r -> r.tableName(TABLE).key(item("pk", s("bytes"))));
    }

    @Test
    void badVectorsAreRefusedAndChangeNothing() {
        String index = ". IndexName: byCosine";
        String notValid = "One or more parameter values are not valid. One or more parameter values were invalid . ";
        assertValidation(notValid + "Invalid type for parameter embedding, Expected: L, Actual: S" + index,
                () -> db().putItem(r -> r.tableName(TABLE).item(item("pk", s("bad"), "embedding", s("x")))));
        assertValidation(notValid + "Invalid size for parameter embedding, Expected: 8, Actual: 3" + index,
                () -> db().putItem(r -> r.tableName(TABLE).item(item("pk", s("bad"), "embedding", l(n(1), n(2), n(3))))));
        List<AttributeValue> elements = new ArrayList<>(vector(new float[DIMENSIONS]).l());
        elements.set(2, s("x"));
        assertValidation("One or more parameter values were invalid. Invalid type for parameter embedding[2], Expected: "
                        + "32-bit floating point number, Actual: S" + index,
                () -> db().putItem(r -> r.tableName(TABLE).item(item("pk", s("bad"), "embedding", AttributeValue.fromL(elements)))));
        elements.set(2, n("1e39"));
        assertValidation(notValid + "Invalid value for parameter embedding[2], Value: 1.0E39 is outside valid range "
                        + "[-3.4028235E38, 3.4028235E38]" + index,
                () -> db().updateItem(r -> r.tableName(TABLE).key(item("pk", s("bad"))).updateExpression("SET embedding = :v")
                        .expressionAttributeValues(Map.of(":v", AttributeValue.fromL(elements)))));
        elements.set(2, n("NaN"));
        assertError("ValidationException", "The parameter cannot be converted to a numeric value: NaN",
                () -> db().putItem(r -> r.tableName(TABLE).item(item("pk", s("bad"), "embedding", AttributeValue.fromL(elements)))));
        elements.set(2, n("3.4028235E38"));
        db().putItem(r -> r.tableName(TABLE).item(item("pk", s("edge"), "embedding", AttributeValue.fromL(elements))));
        assertValidation("One or more parameter values were invalid. Attribute 'colour' type mismatch. Expected: S, "
                        + "Actual: N. IndexName: byDot",
                () -> db().putItem(r -> r.tableName(TABLE).item(item("pk", s("bad"), "colour", n(1)))));
        assertValidation("One or more parameter values are not valid. A value specified for a secondary index key is "
                        + "not supported. The AttributeValue for a key attribute cannot contain an empty string value. "
                        + "IndexName: byDot, IndexKey: tenant",
                () -> db().transactWriteItems(r -> r.transactItems(t -> t.put(p -> p.tableName(TABLE)
                        .item(item("pk", s("bad"), "tenant", s("")))))));
        assertEquals(0, db().getItem(r -> r.tableName(TABLE).key(item("pk", s("bad")))).item().size());
        db().deleteItem(r -> r.tableName(TABLE).key(item("pk", s("edge"))));
    }

    @Test
    void searchRefusals() {
        List<AttributeValue> q = query(new float[DIMENSIONS]);
        assertValidation("The table does not have the specified index: nope",
                () -> search(b -> b.indexName("nope").searchVector(q).topK(1)));
        assertError("ResourceNotFoundException", "Requested resource not found",
                () -> db().searchVectors(b -> b.tableName("missing-table").indexName("byDot").searchVector(q).topK(1)));
        assertValidation("Provided TopK value '101' is out of valid range. The value must be between 1 and 100 inclusive",
                () -> search(b -> b.indexName("byEuclid").searchVector(q).topK(101)));
        int atTheEdge = search(b -> b.indexName("byEuclid").searchVector(q).topK(100)).searchResults().size();
        assertTrue(atTheEdge >= Math.min(100, ITEMS) && atTheEdge <= 100, "TopK 100 is accepted: " + atTheEdge);
        assertValidation("1 validation error detected: Value '0' at 'topK' failed to satisfy constraint: Member must "
                + "have value greater than or equal to 1", () -> search(b -> b.indexName("byEuclid").searchVector(q).topK(0)));
        assertValidation("Input search vector dimension 3 does not match vector index dimension 8",
                () -> search(b -> b.indexName("byEuclid").searchVector(query(1, 2, 3)).topK(1)));
        assertValidation("Search vector contains invalid values. All values in the search vector must be a 32-bit "
                        + "floating-point number attribute",
                () -> search(b -> b.indexName("byEuclid").searchVector(s("1"), n(2)).topK(1)));
        assertValidation("Search vector contains invalid values. All values in the search vector must be a 32-bit "
                        + "floating-point number attribute",
                () -> search(b -> b.indexName("byEuclid").searchVector(n("1e39")).topK(1)));
        for (String notANumber : List.of("NaN", "Infinity", "-Infinity", "abc")) {
            assertValidation("Search vector contains invalid values. All values in the search vector must be a 32-bit "
                    + "floating-point number attribute", () -> search(b -> b.indexName("byEuclid")
                    .searchVector(n(notANumber), n(1), n(1), n(1), n(1), n(1), n(1), n(1)).topK(1)));
        }
        assertValidation("SearchConditionExpression must be provided when SearchSchema has a HASH key",
                () -> search(b -> b.indexName("byDot").searchVector(q).topK(1)));
        assertValidation("Invalid SearchConditionExpression: Invalid comparator used in SearchConditionExpression",
                () -> search(b -> b.indexName("byDot").searchVector(q).topK(1).searchConditionExpression("tenant < :t")
                        .expressionAttributeValues(Map.of(":t", s("t1")))));
        assertValidation("SearchConditionExpression must not contain any attributes that is not in SearchSchema. "
                        + "Invalid attribute: title",
                () -> search(b -> b.indexName("byDot").searchVector(q).topK(1).searchConditionExpression("title = :t")
                        .expressionAttributeValues(Map.of(":t", s("t1")))));
        assertValidation("SearchConditionExpression must not contain any attributes that is not in SearchSchema. "
                        + "Invalid attribute: tenant",
                () -> search(b -> b.indexName("byEuclid").searchVector(q).topK(1).searchConditionExpression("tenant = :t")
                        .expressionAttributeValues(Map.of(":t", s("t1")))));
        assertValidation("Type of 'tenant' attribute in SearchConditionExpression (N) does not match type in search "
                        + "schema (S)",
                () -> search(b -> b.indexName("byDot").searchVector(q).topK(1).searchConditionExpression("tenant = :t")
                        .expressionAttributeValues(Map.of(":t", n(1)))));
        assertValidation("One or more parameter values are not valid. The AttributeValue for a key attribute cannot "
                        + "contain an empty string value. Key: tenant",
                () -> search(b -> b.indexName("byDot").searchVector(q).topK(1).searchConditionExpression("tenant = :t")
                        .expressionAttributeValues(Map.of(":t", s("")))));
        assertValidation("Invalid SearchConditionExpression: Attribute name is a reserved keyword; reserved keyword: name",
                () -> search(b -> b.indexName("byDot").searchVector(q).topK(1).searchConditionExpression("name = :t")
                        .expressionAttributeValues(Map.of(":t", s("t1")))));
        assertValidation("Value provided in ExpressionAttributeValues unused in expressions: keys: {:u}",
                () -> search(b -> b.indexName("byDot").searchVector(q).topK(1).searchConditionExpression("tenant = :t")
                        .expressionAttributeValues(Map.of(":t", s("t1"), ":u", s("x")))));
        assertValidation("Query operation not supported on this index type.",
                () -> db().query(r -> r.tableName(TABLE).indexName("byDot").keyConditionExpression("tenant = :t")
                        .expressionAttributeValues(Map.of(":t", s("t1")))));
        assertValidation("Scan operation not supported on this index type",
                () -> db().scan(r -> r.tableName(TABLE).indexName("byDot")));
    }

    @Test
    void aDeletedItemOrRemovedVectorLeavesTheIndex() {
        float[] v = new float[DIMENSIONS];
        v[0] = 100;
        db().putItem(r -> r.tableName(TABLE).item(item("pk", s("far"), "embedding", vector(v))));
        Eventually.until("indexed", () -> keys(search(b -> b.indexName("byEuclid").searchVector(query(v)).topK(1))),
                k -> k.equals(List.of("far")));
        db().updateItem(r -> r.tableName(TABLE).key(item("pk", s("far"))).updateExpression("REMOVE embedding"));
        Eventually.until("gone", () -> keys(search(b -> b.indexName("byEuclid").searchVector(query(v)).topK(1))),
                k -> !k.equals(List.of("far")));
        db().putItem(r -> r.tableName(TABLE).item(item("pk", s("far"), "embedding", vector(v))));
        Eventually.until("indexed again", () -> keys(search(b -> b.indexName("byEuclid").searchVector(query(v)).topK(1))),
                k -> k.equals(List.of("far")));
        db().deleteItem(r -> r.tableName(TABLE).key(item("pk", s("far"))));
        Eventually.until("deleted", () -> keys(search(b -> b.indexName("byEuclid").searchVector(query(v)).topK(1))),
                k -> !k.equals(List.of("far")));
    }

    // ---- CreateTable's rules -----------------------------------------------------------------

    static CreateTableRequest.Builder table(VectorIndex... indexes) {
        return Tables.onDemand(StatorTestServer.tableName()).vectorIndexes(indexes);
    }

    @Test
    void createTableRefusals() {
        VectorIndex ok = vectorIndex("vec1", "e", 4, VectorDistanceFunction.COSINE).build();
        assertValidation(INVALID + "Vector indexes are only supported for PAY_PER_REQUEST tables",
                () -> db().createTable(Tables.provisioned(StatorTestServer.tableName(), 1, 1).vectorIndexes(ok).build()));
        for (long bad : new long[] {4097, 100_000}) {
            assertValidation(INVALID + "Number of dimensions must be between 1 and 4096 inclusive.",
                    () -> db().createTable(table(vectorIndex("vec", "e", bad, VectorDistanceFunction.COSINE).build()).build()));
        }
        for (long good : new long[] {1, 4096}) {
            db().createTable(table(vectorIndex("vec", "e", good, VectorDistanceFunction.COSINE).build()).build());
        }
        assertValidation(INVALID + "Value '2' at 'SearchSchema' failed to satisfy constraint: Member must have HASH count "
                + "less than or equal to 1", () -> db().createTable(table(vectorIndex("vec", "e", 4, VectorDistanceFunction.COSINE)
                .searchSchema(schema("pk", SearchSchemaElementType.HASH), schema("pk", SearchSchemaElementType.HASH))
                .build()).build()));
        List<SearchSchemaElement> filters = new ArrayList<>();
        CreateTableRequest.Builder wide = table();
        List<software.amazon.awssdk.services.dynamodb.model.AttributeDefinition> defs = new ArrayList<>();
        defs.add(Tables.definition("pk", ScalarAttributeType.S));
        for (int i = 0; i < 19; i++) {
            filters.add(schema("f" + i, SearchSchemaElementType.INLINE_FILTER));
            defs.add(Tables.definition("f" + i, ScalarAttributeType.S));
        }
        assertValidation(INVALID + "Value '19' at 'SearchSchema' failed to satisfy constraint: Member must have "
                + "INLINE_FILTER count less than or equal to 18", () -> db().createTable(wide.attributeDefinitions(defs)
                .vectorIndexes(vectorIndex("vec", "e", 4, VectorDistanceFunction.COSINE).searchSchema(filters).build()).build()));
        db().createTable(table().attributeDefinitions(defs.subList(0, 19)).vectorIndexes(vectorIndex("vec", "e", 4,
                VectorDistanceFunction.COSINE).searchSchema(filters.subList(0, 18)).build()).build());
        assertValidation(INVALID + "Conflicting attribute definition for 'e'. An attribute cannot be defined in "
                        + "AttributeDefinitions when used as a VectorAttribute.",
                () -> db().createTable(table(ok).attributeDefinitions(Tables.definition("pk", ScalarAttributeType.S),
                        Tables.definition("e", ScalarAttributeType.S)).build()));
        assertValidation(INVALID + "One element in SearchSchema is not defined in attribute definitions",
                () -> db().createTable(table(vectorIndex("vec", "e", 4, VectorDistanceFunction.COSINE)
                        .searchSchema(schema("tenant", SearchSchemaElementType.HASH)).build()).build()));
        VectorIndex[] six = new VectorIndex[6];
        for (int i = 0; i < 6; i++) six[i] = vectorIndex("vec" + i, "e", 4, VectorDistanceFunction.COSINE).build();
        assertValidation(INVALID + "VectorIndex count exceeds the per-table limit of 5",
                () -> db().createTable(table(six).build()));
        db().createTable(table(java.util.Arrays.copyOf(six, 5)).build());
        assertValidation(INVALID + "Duplicate index name: vec1", () -> db().createTable(table(ok, ok).build()));
    }
}
