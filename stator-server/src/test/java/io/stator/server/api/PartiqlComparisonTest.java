package io.stator.server.api;

import static io.stator.server.testing.DynamoAssertions.assertSameItem;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stator.server.testing.Eventually;
import io.stator.server.testing.SharedServer;
import io.stator.server.testing.Tables;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.Capacity;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.ConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.CreateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.ExecuteStatementResponse;
import software.amazon.awssdk.services.dynamodb.model.GetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;
import software.amazon.awssdk.services.dynamodb.model.ScanResponse;

/**
 * Each PartiQL statement against the JSON-API call that does the same thing, on the same data:
 * the same items in the same order, the same consumed capacity (ReturnConsumedCapacity INDEXES:
 * table, GSI and LSI parts), the same error, the same pages. Reads run both on one set of
 * read-only tables; each write runs its PartiQL statement on one of two twin tables and its JSON
 * request on the other (same schema, indexes and seed item), and the returned attributes, the
 * capacity and the resulting items are compared.
 *
 * <p>Where DynamoDB documents PartiQL as behaving differently from the plain JSON call, the
 * equivalent JSON request spells the difference out: an UPDATE never creates an item (the JSON
 * UpdateItem carries {@code attribute_exists(pk)}), an INSERT never overwrites one (PutItem with
 * {@code attribute_not_exists(pk)}, and DuplicateItemException where the PutItem fails its
 * condition), a SELECT's WHERE may test key attributes that a Query's FilterExpression may not
 * (the Query is compared with the key terms applied to its items afterwards: the same items read,
 * so the same capacity).
 */
class PartiqlComparisonTest {

    @RegisterExtension
    static final SharedServer server = new SharedServer();

    /** Read-only: pk S + sk N, with GSI byGenre (genre S, n N) and LSI byTxt (pk, txt S). */
    static final String RANGE = "cmp_range";
    /** Read-only: pk S only. */
    static final String HASH = "cmp_hash";
    /** Read-only: pk N + sk B. */
    static final String NB = "cmp_nb";
    /** Twin write tables, suffixed _p (PartiQL) and _j (JSON): as RANGE, and as HASH. */
    static final String W_RANGE = "cmp_w_range";
    static final String W_HASH = "cmp_w_hash";

    private static DynamoDbClient client() {
        return server.client();
    }

    // ---- values -------------------------------------------------------------------------------

    static AttributeValue s(String v) { return AttributeValue.fromS(v); }

    static AttributeValue n(Object v) { return AttributeValue.fromN(v.toString()); }

    static AttributeValue b(int... bytes) {
        byte[] a = new byte[bytes.length];
        for (int i = 0; i < bytes.length; i++) a[i] = (byte) bytes[i];
        return AttributeValue.fromB(SdkBytes.fromByteArray(a));
    }

    static AttributeValue bool(boolean v) { return AttributeValue.fromBool(v); }

    static final AttributeValue NULL = AttributeValue.fromNul(true);

    static AttributeValue ss(String... v) { return AttributeValue.fromSs(List.of(v)); }

    static AttributeValue ns(Object... v) { return AttributeValue.fromNs(Arrays.stream(v).map(Object::toString).toList()); }

    static AttributeValue bs(AttributeValue... v) { return AttributeValue.fromBs(Arrays.stream(v).map(AttributeValue::b).toList()); }

    static AttributeValue l(AttributeValue... v) { return AttributeValue.fromL(List.of(v)); }

    static AttributeValue m(Object... kv) { return AttributeValue.fromM(map(kv)); }

    /** A map from alternating names and values (Strings become S, Numbers N, Booleans BOOL). */
    static Map<String, AttributeValue> map(Object... kv) {
        Map<String, AttributeValue> map = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) map.put((String) kv[i], value(kv[i + 1]));
        return map;
    }

    static AttributeValue value(Object o) {
        return switch (o) {
            case AttributeValue v -> v;
            case String str -> s(str);
            case Number num -> n(num);
            case Boolean bo -> bool(bo);
            default -> throw new IllegalArgumentException(String.valueOf(o));
        };
    }

    // ---- data ---------------------------------------------------------------------------------

    /** An item of RANGE: every type of attribute, some missing on purpose. */
    static Map<String, AttributeValue> rangeItem(String p, int k) {
        Map<String, AttributeValue> item = new LinkedHashMap<>();
        item.put("pk", s(p));
        item.put("sk", n(k));
        item.put("n", n(2 * k));
        item.put("genre", s(p.compareTo("b") <= 0 ? "rock" : "jazz"));
        if (k != 5) item.put("txt", s("item " + p + k)); // sparse in the LSI
        item.put("tags", k % 2 == 1 ? ss("x", "y") : ss("y", "z"));
        item.put("nums", ns(k, 10));
        item.put("bins", bs(b(k), b(9)));
        item.put("flag", bool(k % 2 == 0));
        if (k == 3) item.put("nul", NULL);
        if (k == 4) item.put("nul", s("notnull"));
        if (!p.equals("d")) item.put("doc", m("deep", m("q", k), "lst", l(n(k), s("two")), "s", "v" + k));
        item.put("lst", l(n(k), s("x"), m("k", "v" + k)));
        item.put("price", n(k + ".25"));
        item.put("neg", n(-k));
        item.put("big", n(k + "E3"));
        item.put("bin", b(k, p.charAt(0)));
        return item;
    }

    static Map<String, AttributeValue> hashItem(int i) {
        return map("pk", String.format("h%02d", i), "n", i, "grp", "g" + (i % 3), "tags", ss("t" + (i % 2)));
    }

    static final List<AttributeValue> NB_KEYS = List.of(n(1), n(2), n(3), n("-1.5"));
    static final List<AttributeValue> NB_SORT = List.of(b(1), b(2), b(3), b(2, 7));

    /** The seed item of a write case's key, in both twins. */
    static Map<String, AttributeValue> seedItem(Map<String, AttributeValue> key) {
        Map<String, AttributeValue> item = new LinkedHashMap<>(key);
        item.putAll(map("n", 5, "genre", "rock", "txt", "t", "tags", ss("x", "y"), "nums", ns(1, 2),
                "lst", l(n(1), n(2)), "doc", m("deep", m("q", 1), "lst", l(n(0))), "gone", "bye", "flag", true,
                "bins", bs(b(1), b(2))));
        return item;
    }

    @BeforeAll
    static void createTablesAndItems() {
        client().createTable(rangeTable(RANGE).build());
        client().createTable(hashTable(HASH).build());
        client().createTable(b -> b.tableName(NB).billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(Tables.definition("pk", ScalarAttributeType.N),
                        Tables.definition("sk", ScalarAttributeType.B))
                .keySchema(Tables.key("pk", KeyType.HASH), Tables.key("sk", KeyType.RANGE)));
        for (String suffix : List.of("_p", "_j")) {
            client().createTable(rangeTable(W_RANGE + suffix).build());
            client().createTable(hashTable(W_HASH + suffix).build());
        }
        for (String p : List.of("a", "b", "c", "d")) {
            for (int k = 1; k <= 5; k++) {
                Map<String, AttributeValue> item = rangeItem(p, k);
                client().putItem(b -> b.tableName(RANGE).item(item));
            }
        }
        for (int i = 1; i <= 12; i++) {
            Map<String, AttributeValue> item = hashItem(i);
            client().putItem(b -> b.tableName(HASH).item(item));
        }
        for (AttributeValue pk : NB_KEYS) {
            for (AttributeValue sk : NB_SORT) {
                Map<String, AttributeValue> item = Map.of("pk", pk, "sk", sk, "v", s(pk.n() + "/" + sk.b().asByteArray().length));
                client().putItem(b -> b.tableName(NB).item(item));
            }
        }
        for (String genre : List.of("rock", "jazz")) {
            Eventually.until("the GSI holds the ten " + genre + " items", () -> client().query(b -> b.tableName(RANGE)
                    .indexName("byGenre").keyConditionExpression("genre = :g")
                    .expressionAttributeValues(Map.of(":g", s(genre)))).count(), c -> c == 10);
        }
    }

    static CreateTableRequest.Builder rangeTable(String name) {
        return CreateTableRequest.builder().tableName(name).billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(Tables.definition("pk", ScalarAttributeType.S),
                        Tables.definition("sk", ScalarAttributeType.N), Tables.definition("genre", ScalarAttributeType.S),
                        Tables.definition("n", ScalarAttributeType.N), Tables.definition("txt", ScalarAttributeType.S))
                .keySchema(Tables.key("pk", KeyType.HASH), Tables.key("sk", KeyType.RANGE))
                .globalSecondaryIndexes(i -> i.indexName("byGenre")
                        .keySchema(Tables.key("genre", KeyType.HASH), Tables.key("n", KeyType.RANGE))
                        .projection(p -> p.projectionType(ProjectionType.ALL)))
                .localSecondaryIndexes(i -> i.indexName("byTxt")
                        .keySchema(Tables.key("pk", KeyType.HASH), Tables.key("txt", KeyType.RANGE))
                        .projection(p -> p.projectionType(ProjectionType.ALL)));
    }

    static CreateTableRequest.Builder hashTable(String name) {
        return Tables.onDemand(name);
    }

    // ---- outcomes -----------------------------------------------------------------------------

    /**
     * What a call answered: its items (in order), its consumed capacity flattened to named units
     * (so that the capacities of several calls can be summed), its LastEvaluatedKey; or its error.
     */
    record Outcome(List<Map<String, AttributeValue>> items, Map<String, Double> capacity,
                   Map<String, AttributeValue> lastEvaluatedKey, String tableName, String error,
                   Map<String, AttributeValue> errorItem, String nextToken) {

        Outcome(List<Map<String, AttributeValue>> items, Map<String, Double> capacity,
                Map<String, AttributeValue> lastEvaluatedKey, String tableName, String error,
                Map<String, AttributeValue> errorItem) {
            this(items, capacity, lastEvaluatedKey, tableName, error, errorItem, null);
        }

        static Outcome failed(DynamoDbException e) {
            Map<String, AttributeValue> item = e instanceof ConditionalCheckFailedException c && c.hasItem() ? c.item() : null;
            return new Outcome(null, null, null, null, e.awsErrorDetails().errorCode(), item);
        }

        Outcome plus(Outcome o) {
            if (error != null) return this;
            if (o.error != null) return o;
            List<Map<String, AttributeValue>> all = new ArrayList<>(items);
            all.addAll(o.items);
            Map<String, Double> sum = new TreeMap<>(capacity);
            o.capacity.forEach((k, v) -> sum.merge(k, v, Double::sum));
            return new Outcome(all, sum, o.lastEvaluatedKey, tableName, null, null);
        }
    }

    static Map<String, Double> capacity(ConsumedCapacity c) {
        assertNotNull(c, "ConsumedCapacity");
        Map<String, Double> units = new TreeMap<>();
        put(units, "total", c.capacityUnits(), c.readCapacityUnits(), c.writeCapacityUnits());
        if (c.table() != null) put(units, "table", c.table());
        if (c.hasGlobalSecondaryIndexes()) c.globalSecondaryIndexes().forEach((i, u) -> put(units, "gsi:" + i, u));
        if (c.hasLocalSecondaryIndexes()) c.localSecondaryIndexes().forEach((i, u) -> put(units, "lsi:" + i, u));
        return units;
    }

    private static void put(Map<String, Double> units, String name, Capacity c) {
        put(units, name, c.capacityUnits(), c.readCapacityUnits(), c.writeCapacityUnits());
    }

    private static void put(Map<String, Double> units, String name, Double total, Double read, Double write) {
        if (total != null) units.put(name, total);
        if (read != null) units.put(name + ".read", read);
        if (write != null) units.put(name + ".write", write);
    }

    /** A JSON-API read: from a start key (null: the beginning), with a Limit (null: none). */
    interface JsonRead {
        Outcome run(Map<String, AttributeValue> startKey, Integer limit);
    }

    static Outcome call(java.util.function.Supplier<Outcome> call) {
        try {
            return call.get();
        } catch (DynamoDbException e) {
            return Outcome.failed(e);
        }
    }

    // ---- JSON requests, fluent ----------------------------------------------------------------

    /** A Query or (without a key condition) a Scan, and what to keep of its items afterwards. */
    static final class Json implements JsonRead {
        private final String table;
        private String index;
        private String key;
        private String filter;
        private String projection;
        private boolean backward;
        private boolean consistent;
        private final Map<String, AttributeValue> values = new LinkedHashMap<>();
        private Predicate<Map<String, AttributeValue>> keep;
        private List<String> strip = List.of();

        Json(String table) { this.table = table; }

        Json index(String i) { index = i; return this; }
        Json key(String k) { key = k; return this; }
        Json filter(String f) { filter = f; return this; }
        Json proj(String p) { projection = p; return this; }
        Json desc() { backward = true; return this; }
        Json consistent() { consistent = true; return this; }

        Json v(Object... kv) {
            values.putAll(map(kv));
            return this;
        }

        /**
         * What PartiQL's WHERE tests on key attributes beyond the key condition (which a
         * Query's FilterExpression may not): applied to the Query's items afterwards.
         */
        Json keep(Predicate<Map<String, AttributeValue>> p) { keep = p; return this; }

        /** Attributes projected only for {@link #keep}, removed from the items afterwards. */
        Json strip(String... attributes) { strip = List.of(attributes); return this; }

        private List<String> nested = List.of();

        /**
         * A projected path of names through maps, whose value SELECT gives under its last name
         * (as recorded from DynamoDB by dynamodb-conformance): moved so in the JSON items too.
         */
        Json named(String... mapPath) { nested = List.of(mapPath); return this; }

        private Map<String, AttributeValue> renamed(Map<String, AttributeValue> item) {
            Map<String, AttributeValue> copy = new LinkedHashMap<>(item);
            AttributeValue v = removeNested(copy, 0);
            if (v != null) copy.put(nested.get(nested.size() - 1), v);
            return copy;
        }

        private AttributeValue removeNested(Map<String, AttributeValue> map, int at) {
            String name = nested.get(at);
            if (at == nested.size() - 1) return map.remove(name);
            AttributeValue child = map.get(name);
            if (child == null || !child.hasM()) return null;
            Map<String, AttributeValue> inner = new LinkedHashMap<>(child.m());
            AttributeValue v = removeNested(inner, at + 1);
            if (inner.isEmpty()) map.remove(name);
            else map.put(name, AttributeValue.fromM(inner));
            return v;
        }

        @Override
        public Outcome run(Map<String, AttributeValue> startKey, Integer limit) {
            return call(() -> {
                List<Map<String, AttributeValue>> items;
                ConsumedCapacity consumed;
                Map<String, AttributeValue> last;
                if (key != null) {
                    QueryRequest.Builder q = QueryRequest.builder().tableName(table).indexName(index)
                            .keyConditionExpression(key).filterExpression(filter).projectionExpression(projection)
                            .scanIndexForward(!backward).consistentRead(consistent).exclusiveStartKey(startKey)
                            .limit(limit).returnConsumedCapacity(ReturnConsumedCapacity.INDEXES);
                    if (!values.isEmpty()) q.expressionAttributeValues(values);
                    QueryResponse r = client().query(q.build());
                    items = r.items();
                    consumed = r.consumedCapacity();
                    last = r.hasLastEvaluatedKey() ? r.lastEvaluatedKey() : null;
                } else {
                    ScanRequest.Builder q = ScanRequest.builder().tableName(table).indexName(index)
                            .filterExpression(filter).projectionExpression(projection).consistentRead(consistent)
                            .exclusiveStartKey(startKey).limit(limit).returnConsumedCapacity(ReturnConsumedCapacity.INDEXES);
                    if (!values.isEmpty()) q.expressionAttributeValues(values);
                    ScanResponse r = client().scan(q.build());
                    items = r.items();
                    consumed = r.consumedCapacity();
                    last = r.hasLastEvaluatedKey() ? r.lastEvaluatedKey() : null;
                }
                if (keep != null) items = items.stream().filter(keep).toList();
                if (!strip.isEmpty()) {
                    items = items.stream().map(i -> {
                        Map<String, AttributeValue> copy = new LinkedHashMap<>(i);
                        strip.forEach(copy::remove);
                        return (Map<String, AttributeValue>) copy;
                    }).toList();
                }
                if (!nested.isEmpty()) items = items.stream().map(this::renamed).toList();
                return new Outcome(items, capacity(consumed), last, consumed.tableName(), null, null);
            });
        }
    }

    static Json query(String table) { return new Json(table); }

    static Json scan(String table) { return new Json(table); }

    /** GetItem of one key (a SELECT fixing the whole primary key). */
    static JsonRead get(String table, boolean consistent, Object... key) {
        return (start, limit) -> call(() -> {
            GetItemResponse r = client().getItem(b -> b.tableName(table).key(map(key)).consistentRead(consistent)
                    .returnConsumedCapacity(ReturnConsumedCapacity.INDEXES));
            List<Map<String, AttributeValue>> items = r.hasItem() && !r.item().isEmpty() ? List.of(r.item()) : List.of();
            return new Outcome(items, capacity(r.consumedCapacity()), null, r.consumedCapacity().tableName(), null, null);
        });
    }

    /** Several Queries one after the other (partitionKey IN ...): their items in turn, their capacity summed. */
    static JsonRead each(JsonRead... reads) {
        return (start, limit) -> {
            Outcome all = null;
            for (JsonRead r : reads) {
                Outcome o = r.run(null, null);
                all = all == null ? o : all.plus(o);
            }
            return all;
        };
    }

    static Predicate<Map<String, AttributeValue>> sk(Predicate<Integer> p) {
        return item -> p.test(Integer.parseInt(item.get("sk").n()));
    }

    // ---- read cases ---------------------------------------------------------------------------

    record ReadCase(String statement, List<AttributeValue> parameters, boolean consistent, Integer limit,
                    JsonRead json) {
        @Override
        public String toString() {
            return statement + (parameters.isEmpty() ? "" : " " + parameters) + (consistent ? " [consistent]" : "")
                    + (limit == null ? "" : " [limit " + limit + "]");
        }
    }

    static ReadCase read(String statement, JsonRead json) {
        return new ReadCase(statement, List.of(), false, null, json);
    }

    static ReadCase read(String statement, List<AttributeValue> parameters, JsonRead json) {
        return new ReadCase(statement, parameters, false, null, json);
    }

    static ReadCase consistent(String statement, JsonRead json) {
        return new ReadCase(statement, List.of(), true, null, json);
    }

    static ReadCase paged(String statement, int limit, JsonRead json) {
        return new ReadCase(statement, List.of(), false, limit, json);
    }

    static final String R = "SELECT * FROM \"" + RANGE + "\"";
    static final String GSI = "SELECT * FROM \"" + RANGE + "\".\"byGenre\"";
    static final String LSI = "SELECT * FROM \"" + RANGE + "\".\"byTxt\"";
    static final String H = "SELECT * FROM \"" + HASH + "\"";
    static final String NBS = "SELECT * FROM \"" + NB + "\"";

    /** A Query of RANGE's partition p with a filter. */
    static Json qf(String p, String filter, Object... values) {
        return query(RANGE).key("pk = :p").filter(filter).v(":p", p).v(values);
    }

    static List<ReadCase> reads() {
        List<ReadCase> c = new ArrayList<>();
        // The partition key: a Query.
        c.add(read(R + " WHERE pk = 'a'", query(RANGE).key("pk = :p").v(":p", "a")));
        c.add(read(R + " WHERE pk = ?", List.of(s("b")), query(RANGE).key("pk = :p").v(":p", "b")));
        c.add(read(R + " WHERE 'c' = pk", query(RANGE).key("pk = :p").v(":p", "c")));
        c.add(read(R + " WHERE pk = 'zz'", query(RANGE).key("pk = :p").v(":p", "zz")));
        // The whole primary key: a GetItem.
        c.add(read(R + " WHERE pk = 'a' AND sk = 3", get(RANGE, false, "pk", "a", "sk", 3)));
        c.add(read(R + " WHERE sk = 3 AND pk = 'b'", get(RANGE, false, "pk", "b", "sk", 3)));
        c.add(read(R + " WHERE pk = 'a' AND sk = 9", get(RANGE, false, "pk", "a", "sk", 9)));
        c.add(read(R + " WHERE pk = ? AND sk = ?", List.of(s("c"), n(2)), get(RANGE, false, "pk", "c", "sk", 2)));
        // Sort key conditions: every comparison, BETWEEN; and what no key condition can say.
        c.add(read(R + " WHERE pk = 'a' AND sk < 3", query(RANGE).key("pk = :p AND sk < :k").v(":p", "a", ":k", 3)));
        c.add(read(R + " WHERE pk = 'a' AND sk <= 3", query(RANGE).key("pk = :p AND sk <= :k").v(":p", "a", ":k", 3)));
        c.add(read(R + " WHERE pk = 'a' AND sk > 3", query(RANGE).key("pk = :p AND sk > :k").v(":p", "a", ":k", 3)));
        c.add(read(R + " WHERE pk = 'a' AND sk >= 3", query(RANGE).key("pk = :p AND sk >= :k").v(":p", "a", ":k", 3)));
        c.add(read(R + " WHERE pk = 'a' AND sk BETWEEN 2 AND 4",
                query(RANGE).key("pk = :p AND sk BETWEEN :lo AND :hi").v(":p", "a", ":lo", 2, ":hi", 4)));
        c.add(read(R + " WHERE pk = 'a' AND sk <> 3", query(RANGE).key("pk = :p").v(":p", "a").keep(sk(k -> k != 3))));
        c.add(read(R + " WHERE pk = 'a' AND sk > 1 AND sk < 5",
                query(RANGE).key("pk = :p AND sk > :k").v(":p", "a", ":k", 1).keep(sk(k -> k < 5))));
        c.add(read(R + " WHERE pk = 'a' AND sk IN (1, 3, 5)",
                query(RANGE).key("pk = :p").v(":p", "a").keep(sk(k -> k % 2 == 1))));
        c.add(read(R + " WHERE pk = 'a' AND (sk = 1 OR sk = 4)",
                query(RANGE).key("pk = :p").v(":p", "a").keep(sk(k -> k == 1 || k == 4))));
        c.add(read(R + " WHERE pk = 'a' AND NOT sk = 2", query(RANGE).key("pk = :p").v(":p", "a").keep(sk(k -> k != 2))));
        c.add(read(R + " WHERE pk = 'a' AND sk NOT BETWEEN 2 AND 4",
                query(RANGE).key("pk = :p").v(":p", "a").keep(sk(k -> k < 2 || k > 4))));
        c.add(read(R + " WHERE pk = 'b' AND sk >= 2 AND n > 6",
                query(RANGE).key("pk = :p AND sk >= :k").filter("n > :n").v(":p", "b", ":k", 2, ":n", 6)));
        // Filters: every comparison, BETWEEN, IN, AND, OR, NOT, parentheses.
        c.add(read(R + " WHERE pk = 'b' AND n = 6", qf("b", "n = :n", ":n", 6)));
        c.add(read(R + " WHERE pk = 'b' AND n <> 6", qf("b", "n <> :n", ":n", 6)));
        c.add(read(R + " WHERE pk = 'b' AND n != 6", qf("b", "n <> :n", ":n", 6)));
        c.add(read(R + " WHERE pk = 'b' AND n < 6", qf("b", "n < :n", ":n", 6)));
        c.add(read(R + " WHERE pk = 'b' AND n <= 6", qf("b", "n <= :n", ":n", 6)));
        c.add(read(R + " WHERE pk = 'b' AND n > 6", qf("b", "n > :n", ":n", 6)));
        c.add(read(R + " WHERE pk = 'b' AND n >= 6", qf("b", "n >= :n", ":n", 6)));
        c.add(read(R + " WHERE pk = 'b' AND n >= 4 AND n <= 8", qf("b", "n >= :lo AND n <= :hi", ":lo", 4, ":hi", 8)));
        c.add(read(R + " WHERE pk = 'b' AND n BETWEEN 4 AND 8", qf("b", "n BETWEEN :lo AND :hi", ":lo", 4, ":hi", 8)));
        c.add(read(R + " WHERE pk = 'b' AND n NOT BETWEEN 4 AND 8",
                qf("b", "NOT (n BETWEEN :lo AND :hi)", ":lo", 4, ":hi", 8)));
        c.add(read(R + " WHERE pk = 'b' AND n IN (2, 6, 10)", qf("b", "n IN (:x, :y, :z)", ":x", 2, ":y", 6, ":z", 10)));
        c.add(read(R + " WHERE pk = 'b' AND n NOT IN [2, 6]", qf("b", "NOT (n IN (:x, :y))", ":x", 2, ":y", 6)));
        c.add(read(R + " WHERE pk = 'b' AND (n = 2 OR n = 10)", qf("b", "n = :x OR n = :y", ":x", 2, ":y", 10)));
        c.add(read(R + " WHERE pk = 'b' AND NOT (n = 2 OR n = 10)", qf("b", "NOT (n = :x OR n = :y)", ":x", 2, ":y", 10)));
        c.add(read(R + " WHERE pk = 'b' AND (n = 2 OR (flag = true AND n > 6))",
                qf("b", "n = :x OR (flag = :t AND n > :y)", ":x", 2, ":t", true, ":y", 6)));
        c.add(read(R + " WHERE pk = 'b' AND ((n > 2) AND (n < 10))", qf("b", "n > :x AND n < :y", ":x", 2, ":y", 10)));
        c.add(read(R + " WHERE pk = 'b' AND NOT NOT flag = true", qf("b", "NOT (NOT (flag = :t))", ":t", true)));
        c.add(read(R + " WHERE pk = 'b' AND flag = true", qf("b", "flag = :t", ":t", true)));
        c.add(read(R + " WHERE pk = 'b' AND flag = false", qf("b", "flag = :f", ":f", false)));
        c.add(read(R + " WHERE pk = 'b' AND flag <> true", qf("b", "flag <> :t", ":t", true)));
        c.add(read(R + " WHERE pk = 'b' AND n > price", qf("b", "n > price")));
        c.add(read(R + " WHERE pk = 'b' AND 4 < n", qf("b", ":x < n", ":x", 4)));
        c.add(read(R + " WHERE pk = 'b' AND 'item b2' = txt", qf("b", ":x = txt", ":x", "item b2")));
        // NULL and MISSING.
        c.add(read(R + " WHERE pk = 'c' AND nul IS NULL", qf("c", "attribute_type(nul, :t)", ":t", "NULL")));
        c.add(read(R + " WHERE pk = 'c' AND nul IS NOT NULL", qf("c", "NOT attribute_type(nul, :t)", ":t", "NULL")));
        c.add(read(R + " WHERE pk = 'c' AND nul IS MISSING", qf("c", "attribute_not_exists(nul)")));
        c.add(read(R + " WHERE pk = 'c' AND nul IS NOT MISSING", qf("c", "attribute_exists(nul)")));
        c.add(read(R + " WHERE pk = 'c' AND nul = NULL", qf("c", "nul = :x", ":x", NULL)));
        c.add(read(R + " WHERE pk = 'c' AND txt IS MISSING", qf("c", "attribute_not_exists(txt)")));
        c.add(read(R + " WHERE pk = 'd' AND doc.deep IS MISSING", qf("d", "attribute_not_exists(doc.deep)")));
        c.add(read(R + " WHERE pk = 'c' AND doc.deep.q IS NOT MISSING AND sk > 3",
                query(RANGE).key("pk = :p AND sk > :k").filter("attribute_exists(doc.deep.q)").v(":p", "c", ":k", 3)));
        // Strings.
        c.add(read(R + " WHERE pk = 'c' AND txt = 'item c2'", qf("c", "txt = :x", ":x", "item c2")));
        c.add(read(R + " WHERE pk = 'c' AND txt > 'item c2'", qf("c", "txt > :x", ":x", "item c2")));
        c.add(read(R + " WHERE pk = 'c' AND txt BETWEEN 'item c2' AND 'item c3'",
                qf("c", "txt BETWEEN :x AND :y", ":x", "item c2", ":y", "item c3")));
        c.add(read(R + " WHERE pk = 'c' AND txt = ?", List.of(s("item c4")), qf("c", "txt = :x", ":x", "item c4")));
        // Functions.
        c.add(read(R + " WHERE pk = 'c' AND begins_with(txt, 'item c')", qf("c", "begins_with(txt, :x)", ":x", "item c")));
        c.add(read(R + " WHERE pk = 'c' AND BEGINS_WITH(txt, 'item c1')", qf("c", "begins_with(txt, :x)", ":x", "item c1")));
        c.add(read(R + " WHERE pk = 'c' AND NOT begins_with(txt, 'item c1')",
                qf("c", "NOT begins_with(txt, :x)", ":x", "item c1")));
        c.add(read(R + " WHERE pk = 'c' AND begins_with(bin, ?)", List.of(b(2)), qf("c", "begins_with(bin, :x)", ":x", b(2))));
        c.add(read(R + " WHERE pk = 'c' AND contains(txt, 'c3')", qf("c", "contains(txt, :x)", ":x", "c3")));
        c.add(read(R + " WHERE pk = 'c' AND contains(tags, 'z')", qf("c", "contains(tags, :x)", ":x", "z")));
        c.add(read(R + " WHERE pk = 'c' AND contains(nums, 3)", qf("c", "contains(nums, :x)", ":x", 3)));
        c.add(read(R + " WHERE pk = 'c' AND contains(lst, 'x')", qf("c", "contains(lst, :x)", ":x", "x")));
        c.add(read(R + " WHERE pk = 'c' AND contains(bins, ?)", List.of(b(2)), qf("c", "contains(bins, :x)", ":x", b(2))));
        c.add(read(R + " WHERE pk = 'c' AND contains(doc.lst, 'two')", qf("c", "contains(doc.lst, :x)", ":x", "two")));
        for (String type : List.of("NULL", "S", "SS", "M", "L", "BOOL", "B", "NS", "BS", "N")) {
            String attribute = switch (type) {
                case "NULL", "S" -> "nul";
                case "SS" -> "tags";
                case "M" -> "doc";
                case "L" -> "lst";
                case "BOOL" -> "flag";
                case "B" -> "bin";
                case "NS" -> "nums";
                case "BS" -> "bins";
                default -> "price";
            };
            c.add(read(R + " WHERE pk = 'c' AND attribute_type(" + attribute + ", '" + type + "')",
                    qf("c", "attribute_type(" + attribute + ", :t)", ":t", type)));
        }
        c.add(read(R + " WHERE pk = 'c' AND size(txt) = 7", qf("c", "size(txt) = :x", ":x", 7)));
        c.add(read(R + " WHERE pk = 'c' AND size(tags) > 1", qf("c", "size(tags) > :x", ":x", 1)));
        c.add(read(R + " WHERE pk = 'c' AND size(lst) >= 3", qf("c", "size(lst) >= :x", ":x", 3)));
        c.add(read(R + " WHERE pk = 'c' AND size(doc) = 3", qf("c", "size(doc) = :x", ":x", 3)));
        c.add(read(R + " WHERE pk = 'c' AND size(bin) = 2", qf("c", "size(bin) = :x", ":x", 2)));
        c.add(read(R + " WHERE pk = 'c' AND size(doc.lst) < 3", qf("c", "size(doc.lst) < :x", ":x", 3)));
        // Nested paths.
        c.add(read(R + " WHERE pk = 'c' AND doc.deep.q = 2", qf("c", "doc.deep.q = :x", ":x", 2)));
        c.add(read(R + " WHERE pk = 'c' AND doc.lst[0] > 2", qf("c", "doc.lst[0] > :x", ":x", 2)));
        c.add(read(R + " WHERE pk = 'c' AND lst[2].k = 'v3'", qf("c", "lst[2].k = :x", ":x", "v3")));
        c.add(read(R + " WHERE pk = 'c' AND doc.s IN ('v1', 'v4')", qf("c", "doc.s IN (:x, :y)", ":x", "v1", ":y", "v4")));
        c.add(read(R + " WHERE pk = 'c' AND lst[1] = 'x'", qf("c", "lst[1] = :x", ":x", "x")));
        c.add(read(R + " WHERE pk = 'c' AND \"doc\".\"deep\".\"q\" >= 4", qf("c", "doc.deep.q >= :x", ":x", 4)));
        // Every literal type.
        c.add(read(R + " WHERE pk = 'a' AND price = 2.25", qf("a", "price = :x", ":x", n("2.25"))));
        c.add(read(R + " WHERE pk = 'a' AND price > 2.5", qf("a", "price > :x", ":x", n("2.5"))));
        c.add(read(R + " WHERE pk = 'a' AND neg = -3", qf("a", "neg = :x", ":x", -3)));
        c.add(read(R + " WHERE pk = 'a' AND neg < -2", qf("a", "neg < :x", ":x", -2)));
        c.add(read(R + " WHERE pk = 'a' AND neg >= -2.5", qf("a", "neg >= :x", ":x", n("-2.5"))));
        c.add(read(R + " WHERE pk = 'a' AND big = 3E3", qf("a", "big = :x", ":x", 3000)));
        c.add(read(R + " WHERE pk = 'a' AND big >= 2.5e3", qf("a", "big >= :x", ":x", n("2.5e3"))));
        c.add(read(R + " WHERE pk = 'a' AND big = 4000", qf("a", "big = :x", ":x", n("4E3"))));
        c.add(read(R + " WHERE pk = 'a' AND big < 25E+2", qf("a", "big < :x", ":x", 2500)));
        c.add(read(R + " WHERE pk = 'a' AND price <= 125E-2", qf("a", "price <= :x", ":x", n("1.25"))));
        c.add(read(R + " WHERE pk = 'a' AND bin = ?", List.of(b(2, 'a')), qf("a", "bin = :x", ":x", b(2, 'a'))));
        c.add(read(R + " WHERE pk = 'a' AND bin > ?", List.of(b(3)), qf("a", "bin > :x", ":x", b(3))));
        c.add(read(R + " WHERE pk = 'a' AND tags = <<'x', 'y'>>", qf("a", "tags = :x", ":x", ss("x", "y"))));
        c.add(read(R + " WHERE pk = 'a' AND tags = <<'z', 'y'>>", qf("a", "tags = :x", ":x", ss("y", "z"))));
        c.add(read(R + " WHERE pk = 'a' AND nums = <<10, 2>>", qf("a", "nums = :x", ":x", ns(2, 10))));
        c.add(read(R + " WHERE pk = 'a' AND bins = ?", List.of(bs(b(9), b(4))), qf("a", "bins = :x", ":x", bs(b(4), b(9)))));
        c.add(read(R + " WHERE pk = 'a' AND bins = <<?, ?>>", List.of(b(3), b(9)), qf("a", "bins = :x", ":x", bs(b(3), b(9)))));
        c.add(read(R + " WHERE pk = 'a' AND doc = {'deep': {'q': 2}, 'lst': [2, 'two'], 's': 'v2'}",
                qf("a", "doc = :x", ":x", m("deep", m("q", 2), "lst", l(n(2), s("two")), "s", "v2"))));
        c.add(read(R + " WHERE pk = 'a' AND lst = [1, 'x', {'k': 'v1'}]", qf("a", "lst = :x", ":x", l(n(1), s("x"), m("k", "v1")))));
        c.add(read(R + " WHERE pk = 'a' AND doc.deep = {'q': 4}", qf("a", "doc.deep = :x", ":x", m("q", 4))));
        c.add(read(R + " WHERE pk = 'a' AND lst[2] = {'k': 'v2'}", qf("a", "lst[2] = :x", ":x", m("k", "v2"))));
        c.add(read(R + " WHERE pk = 'a' AND lst <> []", qf("a", "lst <> :x", ":x", l())));
        c.add(read(R + " WHERE pk = 'a' AND doc <> {}", qf("a", "doc <> :x", ":x", m())));
        c.add(read(R + " WHERE pk = 'a' AND n = ?", List.of(n(4)), qf("a", "n = :x", ":x", 4)));
        c.add(read(R + " WHERE pk = 'a' AND flag = ?", List.of(bool(true)), qf("a", "flag = :x", ":x", true)));
        c.add(read(R + " WHERE pk = 'a' AND nul = ?", List.of(NULL), qf("a", "nul = :x", ":x", NULL)));
        c.add(read(R + " WHERE pk = 'a' AND tags = ?", List.of(ss("y", "z")), qf("a", "tags = :x", ":x", ss("z", "y"))));
        c.add(read(R + " WHERE pk = 'a' AND doc.deep = ?", List.of(m("q", 1)), qf("a", "doc.deep = :x", ":x", m("q", 1))));
        c.add(read(R + " WHERE pk = 'a' AND lst = ?", List.of(l(n(5), s("x"), m("k", "v5"))),
                qf("a", "lst = :x", ":x", l(n(5), s("x"), m("k", "v5")))));
        c.add(read(R + " WHERE pk = 'a' AND lst[0] = ?", List.of(n(2)), qf("a", "lst[0] = :x", ":x", 2)));
        c.add(read(R + " WHERE pk = 'a' AND flag = TRUE AND nul IS NOT NULL",
                qf("a", "flag = :t AND NOT attribute_type(nul, :n)", ":t", true, ":n", "NULL")));
        // Projections.
        c.add(read("SELECT pk, sk, n FROM \"" + RANGE + "\" WHERE pk = 'a'",
                query(RANGE).key("pk = :p").proj("pk, sk, n").v(":p", "a")));
        c.add(read("SELECT txt, doc.deep.q FROM \"" + RANGE + "\" WHERE pk = 'b'",
                query(RANGE).key("pk = :p").proj("txt, doc.deep.q").v(":p", "b").named("doc", "deep", "q")));
        c.add(read("SELECT lst[0], lst[2].k, doc.lst[1] FROM \"" + RANGE + "\" WHERE pk = 'b' AND sk >= 3",
                query(RANGE).key("pk = :p AND sk >= :k").proj("lst[0], lst[2].k, doc.lst[1]").v(":p", "b", ":k", 3)));
        c.add(read("SELECT \"n\", \"txt\" FROM \"" + RANGE + "\" WHERE pk = 'b'",
                query(RANGE).key("pk = :p").proj("n, txt").v(":p", "b")));
        c.add(read("SELECT tags FROM \"" + RANGE + "\" WHERE pk = 'b' AND sk <> 2",
                query(RANGE).key("pk = :p").v(":p", "b").keep(sk(k -> k != 2)).proj("tags, sk").strip("sk")));
        c.add(read("SELECT nothere FROM \"" + RANGE + "\" WHERE pk = 'b'",
                query(RANGE).key("pk = :p").proj("nothere").v(":p", "b")));
        c.add(read("SELECT n, nums FROM \"" + RANGE + "\" WHERE n > 6",
                scan(RANGE).filter("n > :n").proj("n, nums").v(":n", 6)));
        c.add(read("SELECT sk FROM \"" + RANGE + "\" WHERE pk = 'b' AND sk = 2", (start, limit) -> {
            Outcome o = get(RANGE, false, "pk", "b", "sk", 2).run(null, null);
            return new Outcome(List.of(Map.of("sk", n(2))), o.capacity(), null, o.tableName(), null, null);
        }));
        // ORDER BY the sort key.
        c.add(read(R + " WHERE pk = 'b' ORDER BY sk DESC", query(RANGE).key("pk = :p").v(":p", "b").desc()));
        c.add(read(R + " WHERE pk = 'b' ORDER BY sk ASC", query(RANGE).key("pk = :p").v(":p", "b")));
        c.add(read(R + " WHERE pk = 'b' ORDER BY sk", query(RANGE).key("pk = :p").v(":p", "b")));
        c.add(read(R + " WHERE pk = 'b' AND sk > 2 ORDER BY sk DESC",
                query(RANGE).key("pk = :p AND sk > :k").v(":p", "b", ":k", 2).desc()));
        c.add(read("SELECT sk FROM \"" + RANGE + "\" WHERE pk = 'b' AND n > 2 ORDER BY sk DESC",
                query(RANGE).key("pk = :p").filter("n > :n").proj("sk").v(":p", "b", ":n", 2).desc()));
        // ConsistentRead.
        c.add(consistent(R + " WHERE pk = 'c' AND sk >= 2",
                query(RANGE).key("pk = :p AND sk >= :k").v(":p", "c", ":k", 2).consistent()));
        c.add(consistent(R + " WHERE pk = 'c' AND sk = 2", get(RANGE, true, "pk", "c", "sk", 2)));
        c.add(consistent(R + " WHERE n > 7", scan(RANGE).filter("n > :n").v(":n", 7).consistent()));
        // IN or OR on the partition key: a Query of each partition in turn.
        c.add(read(R + " WHERE pk IN ('d', 'a')",
                each(query(RANGE).key("pk = :p").v(":p", "d"), query(RANGE).key("pk = :p").v(":p", "a"))));
        c.add(read(R + " WHERE pk IN ['b', 'c'] AND sk <= 2",
                each(query(RANGE).key("pk = :p AND sk <= :k").v(":p", "b", ":k", 2),
                        query(RANGE).key("pk = :p AND sk <= :k").v(":p", "c", ":k", 2))));
        c.add(read(R + " WHERE pk IN ('a', 'zz', 'c') AND n > 6",
                each(qf("a", "n > :n", ":n", 6), qf("zz", "n > :n", ":n", 6), qf("c", "n > :n", ":n", 6))));
        c.add(read(R + " WHERE pk IN (?, ?)", List.of(s("c"), s("b")),
                each(query(RANGE).key("pk = :p").v(":p", "c"), query(RANGE).key("pk = :p").v(":p", "b"))));
        c.add(read(R + " WHERE pk = 'a' OR pk = 'c'",
                each(query(RANGE).key("pk = :p").v(":p", "a"), query(RANGE).key("pk = :p").v(":p", "c"))));
        c.add(read(R + " WHERE (pk = 'b' OR pk = 'a') AND sk = 1",
                each(query(RANGE).key("pk = :p AND sk = :k").v(":p", "b", ":k", 1),
                        query(RANGE).key("pk = :p AND sk = :k").v(":p", "a", ":k", 1))));
        // Scans.
        c.add(read(R, scan(RANGE)));
        c.add(read(R + " WHERE n > 6", scan(RANGE).filter("n > :n").v(":n", 6)));
        c.add(read(R + " WHERE sk = 2", scan(RANGE).filter("sk = :k").v(":k", 2)));
        c.add(read(R + " WHERE pk > 'b'", scan(RANGE).filter("pk > :p").v(":p", "b")));
        c.add(read(R + " WHERE pk = 'a' OR n = 10", scan(RANGE).filter("pk = :p OR n = :n").v(":p", "a", ":n", 10)));
        c.add(read(R + " WHERE genre = 'jazz' AND flag = true",
                scan(RANGE).filter("genre = :g AND flag = :t").v(":g", "jazz", ":t", true)));
        c.add(read(R + " WHERE txt IS MISSING", scan(RANGE).filter("attribute_not_exists(txt)")));
        c.add(read(R + " WHERE doc IS MISSING OR nul IS NULL",
                scan(RANGE).filter("attribute_not_exists(doc) OR attribute_type(nul, :t)").v(":t", "NULL")));
        c.add(read(R + " WHERE begins_with(pk, 'c')", scan(RANGE).filter("begins_with(pk, :p)").v(":p", "c")));
        c.add(read(R + " WHERE contains(txt, '3')", scan(RANGE).filter("contains(txt, :x)").v(":x", "3")));
        c.add(read(R + " WHERE sk IN (1, 5)", scan(RANGE).filter("sk IN (:x, :y)").v(":x", 1, ":y", 5)));
        c.add(read(R + " WHERE pk <> 'a' AND sk BETWEEN 2 AND 3",
                scan(RANGE).filter("pk <> :p AND sk BETWEEN :x AND :y").v(":p", "a", ":x", 2, ":y", 3)));
        c.add(read(R + " WHERE attribute_type(nul, 'S')", scan(RANGE).filter("attribute_type(nul, :t)").v(":t", "S")));
        c.add(read(R + " WHERE size(tags) = 2 AND NOT contains(tags, 'x')",
                scan(RANGE).filter("size(tags) = :n AND NOT contains(tags, :x)").v(":n", 2, ":x", "x")));
        // The GSI.
        c.add(read(GSI + " WHERE genre = 'jazz'", query(RANGE).index("byGenre").key("genre = :g").v(":g", "jazz")));
        c.add(read(GSI + " WHERE genre = 'jazz' AND n > 4",
                query(RANGE).index("byGenre").key("genre = :g AND n > :n").v(":g", "jazz", ":n", 4)));
        c.add(read(GSI + " WHERE genre = 'rock' AND n BETWEEN 4 AND 8 AND flag = true",
                query(RANGE).index("byGenre").key("genre = :g AND n BETWEEN :lo AND :hi").filter("flag = :t")
                        .v(":g", "rock", ":lo", 4, ":hi", 8, ":t", true)));
        c.add(read(GSI + " WHERE genre = 'rock' ORDER BY n DESC",
                query(RANGE).index("byGenre").key("genre = :g").v(":g", "rock").desc()));
        c.add(read("SELECT pk, sk FROM \"" + RANGE + "\".\"byGenre\" WHERE genre = 'jazz' AND n = 6",
                query(RANGE).index("byGenre").key("genre = :g AND n = :n").proj("pk, sk").v(":g", "jazz", ":n", 6)));
        c.add(read(GSI + " WHERE genre = 'rock' AND pk = 'a'",
                query(RANGE).index("byGenre").key("genre = :g").filter("pk = :p").v(":g", "rock", ":p", "a")));
        c.add(read(GSI + " WHERE genre = 'rock' AND n <> 4",
                query(RANGE).index("byGenre").key("genre = :g").v(":g", "rock")
                        .keep(i -> !i.get("n").n().equals("4"))));
        c.add(read(GSI + " WHERE n = 6", scan(RANGE).index("byGenre").filter("n = :n").v(":n", 6)));
        c.add(read(GSI, scan(RANGE).index("byGenre")));
        c.add(read(GSI + " WHERE genre IN ('jazz', 'rock') AND n < 4",
                each(query(RANGE).index("byGenre").key("genre = :g AND n < :n").v(":g", "jazz", ":n", 4),
                        query(RANGE).index("byGenre").key("genre = :g AND n < :n").v(":g", "rock", ":n", 4))));
        // The LSI.
        c.add(read(LSI + " WHERE pk = 'a'", query(RANGE).index("byTxt").key("pk = :p").v(":p", "a")));
        c.add(read(LSI + " WHERE pk = 'a' AND txt > 'item a2'",
                query(RANGE).index("byTxt").key("pk = :p AND txt > :t").v(":p", "a", ":t", "item a2")));
        c.add(read(LSI + " WHERE pk = 'a' AND begins_with(txt, 'item a')",
                query(RANGE).index("byTxt").key("pk = :p AND begins_with(txt, :t)").v(":p", "a", ":t", "item a")));
        c.add(read(LSI + " WHERE pk = 'b' ORDER BY txt DESC",
                query(RANGE).index("byTxt").key("pk = :p").v(":p", "b").desc()));
        c.add(read(LSI + " WHERE pk = 'b' AND sk > 2",
                query(RANGE).index("byTxt").key("pk = :p").filter("sk > :k").v(":p", "b", ":k", 2)));
        c.add(consistent("SELECT txt, n FROM \"" + RANGE + "\".\"byTxt\" WHERE pk = 'c'",
                query(RANGE).index("byTxt").key("pk = :p").proj("txt, n").v(":p", "c").consistent()));
        c.add(read(LSI + " WHERE txt < 'item b'", scan(RANGE).index("byTxt").filter("txt < :t").v(":t", "item b")));
        // The hash-only table.
        c.add(read(H + " WHERE pk = 'h03'", get(HASH, false, "pk", "h03")));
        c.add(read(H + " WHERE pk = 'h99'", get(HASH, false, "pk", "h99")));
        c.add(read(H + " WHERE pk = 'h03' AND n = 3", query(HASH).key("pk = :p").filter("n = :n").v(":p", "h03", ":n", 3)));
        c.add(read(H + " WHERE pk = 'h03' AND n = 4", query(HASH).key("pk = :p").filter("n = :n").v(":p", "h03", ":n", 4)));
        c.add(read(H + " WHERE pk IN ('h01', 'h05', 'h09')", each(get(HASH, false, "pk", "h01"),
                get(HASH, false, "pk", "h05"), get(HASH, false, "pk", "h09"))));
        c.add(read(H, scan(HASH)));
        c.add(read(H + " WHERE n BETWEEN 3 AND 7", scan(HASH).filter("n BETWEEN :x AND :y").v(":x", 3, ":y", 7)));
        c.add(read(H + " WHERE pk > 'h05'", scan(HASH).filter("pk > :p").v(":p", "h05")));
        c.add(read("SELECT n FROM \"" + HASH + "\" WHERE pk = 'h07'",
                query(HASH).key("pk = :p").proj("n").v(":p", "h07")));
        c.add(read(H + " WHERE grp = 'g1' OR n = 12", scan(HASH).filter("grp = :g OR n = :n").v(":g", "g1", ":n", 12)));
        c.add(read(H + " WHERE contains(tags, 't1')", scan(HASH).filter("contains(tags, :t)").v(":t", "t1")));
        // N and B keys.
        c.add(read(NBS + " WHERE pk = 1", query(NB).key("pk = :p").v(":p", 1)));
        c.add(read(NBS + " WHERE pk = 1.0", query(NB).key("pk = :p").v(":p", 1)));
        c.add(read(NBS + " WHERE pk = -1.5", query(NB).key("pk = :p").v(":p", n("-1.5"))));
        c.add(read(NBS + " WHERE pk = -15E-1 AND sk >= ?", List.of(b(2)),
                query(NB).key("pk = :p AND sk >= :s").v(":p", n("-1.5"), ":s", b(2))));
        c.add(read(NBS + " WHERE pk = 2 AND sk = ?", List.of(b(3)), get(NB, false, "pk", 2, "sk", b(3))));
        c.add(read(NBS + " WHERE pk = 2 AND sk > ?", List.of(b(1)), query(NB).key("pk = :p AND sk > :s").v(":p", 2, ":s", b(1))));
        c.add(read(NBS + " WHERE pk = 2 AND begins_with(sk, ?)", List.of(b(2)),
                query(NB).key("pk = :p AND begins_with(sk, :s)").v(":p", 2, ":s", b(2))));
        c.add(read(NBS + " WHERE pk = 3 ORDER BY sk DESC", query(NB).key("pk = :p").v(":p", 3).desc()));
        c.add(read(NBS + " WHERE pk IN (3, 1)", each(query(NB).key("pk = :p").v(":p", 3), query(NB).key("pk = :p").v(":p", 1))));
        c.add(read(NBS + " WHERE pk >= 2", scan(NB).filter("pk >= :p").v(":p", 2)));
        c.add(read(NBS + " WHERE v = '2/1'", scan(NB).filter("v = :v").v(":v", "2/1")));
        // Limit and NextToken, page by page against Limit and ExclusiveStartKey.
        c.add(paged(R + " WHERE pk = 'a' AND sk >= 1", 2, query(RANGE).key("pk = :p AND sk >= :k").v(":p", "a", ":k", 1)));
        c.add(paged(R + " WHERE pk = 'a' AND n > 4", 2, qf("a", "n > :n", ":n", 4)));
        c.add(paged(R + " WHERE n <> 4", 7, scan(RANGE).filter("n <> :n").v(":n", 4)));
        c.add(paged(GSI + " WHERE genre = 'jazz' AND n >= 2", 3,
                query(RANGE).index("byGenre").key("genre = :g AND n >= :n").v(":g", "jazz", ":n", 2)));
        c.add(paged(R + " WHERE pk = 'b' AND sk < 9 ORDER BY sk DESC", 2,
                query(RANGE).key("pk = :p AND sk < :k").v(":p", "b", ":k", 9).desc()));
        c.add(paged(H + " WHERE n > 3", 4, scan(HASH).filter("n > :n").v(":n", 3)));
        c.add(paged(LSI + " WHERE pk = 'd' AND txt >= 'item'", 3,
                query(RANGE).index("byTxt").key("pk = :p AND txt >= :t").v(":p", "d", ":t", "item")));
        // Errors: the same error as the JSON call's.
        c.add(read("SELECT * FROM \"cmp_missing\"", scan("cmp_missing")));
        c.add(read("SELECT * FROM \"cmp_missing\" WHERE pk = 'a'", query("cmp_missing").key("pk = :p").v(":p", "a")));
        c.add(read(R + " WHERE pk = 1", query(RANGE).key("pk = :p").v(":p", 1)));
        c.add(read(R + " WHERE pk = 'a' AND sk > 'x'", query(RANGE).key("pk = :p AND sk > :k").v(":p", "a", ":k", "x")));
        c.add(read(NBS + " WHERE pk = 2 AND sk = 'x'", get(NB, false, "pk", 2, "sk", "x")));
        c.add(new ReadCase(GSI + " WHERE genre = 'rock' AND n > 0", List.of(), true, null,
                query(RANGE).index("byGenre").key("genre = :g AND n > :n").v(":g", "rock", ":n", 0).consistent()));
        c.add(new ReadCase(GSI + " WHERE n > 0", List.of(), true, null,
                scan(RANGE).index("byGenre").filter("n > :n").v(":n", 0).consistent()));
        return c;
    }

    static Stream<ReadCase> readCases() {
        return reads().stream();
    }

    static Outcome partiql(String statement, List<AttributeValue> parameters, boolean consistent, Integer limit,
                           String nextToken) {
        return call(() -> {
            ExecuteStatementResponse r = client().executeStatement(b -> {
                b.statement(statement).returnConsumedCapacity(ReturnConsumedCapacity.INDEXES).limit(limit)
                        .nextToken(nextToken);
                if (consistent) b.consistentRead(true);
                if (!parameters.isEmpty()) b.parameters(parameters);
            });
            return new Outcome(r.items(), capacity(r.consumedCapacity()),
                    r.hasLastEvaluatedKey() ? r.lastEvaluatedKey() : null, r.consumedCapacity().tableName(), null,
                    null, r.nextToken());
        });
    }

    static void assertSameItems(String what, List<Map<String, AttributeValue>> expected,
                                List<Map<String, AttributeValue>> actual) {
        assertEquals(expected.size(), actual.size(), () -> what + ": item count; expected " + expected + " but was " + actual);
        for (int i = 0; i < expected.size(); i++) {
            int at = i;
            try {
                assertSameItem(expected.get(i), actual.get(i));
            } catch (AssertionError e) {
                throw new AssertionError(what + ": item " + at + " differs: " + e.getMessage(), e);
            }
        }
    }

    /** PartiQL's outcome is the JSON call's: the same error, or the same items, order and capacity. */
    static void assertSameOutcome(String what, Outcome json, Outcome partiql) {
        assertEquals(json.error(), partiql.error(), () -> what + ": error (JSON answered " + json + ", PartiQL " + partiql + ")");
        if (json.error() != null) return;
        assertSameItems(what, json.items(), partiql.items());
        assertEquals(json.capacity(), partiql.capacity(), what + ": consumed capacity");
        assertEquals(json.tableName(), partiql.tableName(), what + ": ConsumedCapacity.TableName");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("readCases")
    void selectIsTheJsonRead(ReadCase c) {
        if (c.limit() == null) {
            assertSameOutcome(c.toString(), c.json().run(null, null),
                    partiql(c.statement(), c.parameters(), c.consistent(), null, null));
            return;
        }
        Map<String, AttributeValue> startKey = null;
        String token = null;
        int pages = 0;
        int items = 0;
        do {
            Outcome json = c.json().run(startKey, c.limit());
            Outcome partiql = partiql(c.statement(), c.parameters(), c.consistent(), c.limit(), token);
            String what = c + " page " + pages;
            assertSameOutcome(what, json, partiql);
            assertEquals(json.lastEvaluatedKey(), partiql.lastEvaluatedKey(), what + ": where the page ends");
            startKey = json.lastEvaluatedKey();
            token = partiql.nextToken();
            assertEquals(startKey == null, token == null, what + ": NextToken when, and only when, there is more");
            items += partiql.items().size();
            pages++;
        } while (startKey != null && pages < 50);
        assertTrue(pages > 1, c + ": more than one page");
        assertTrue(items > 0, c + ": some items");
    }

    // ---- write cases --------------------------------------------------------------------------

    /** A JSON-API write on {@code table}, of the case's key. */
    interface JsonWrite {
        Outcome run(String table, Map<String, AttributeValue> key);
    }

    /**
     * A write: its statement names the case's key as {@code $K} (the partition key's value, a
     * string; RANGE's sort key is 1); {@code seeded} writes {@link #seedItem} in both twins first.
     */
    record WriteCase(String label, String twins, boolean seeded, String statement, List<AttributeValue> parameters,
                     boolean oldItemOnFailure, JsonWrite json) {
        @Override
        public String toString() {
            return label + ": " + statement;
        }
    }

    static Outcome writeOutcome(Map<String, AttributeValue> returned, ConsumedCapacity consumed) {
        List<Map<String, AttributeValue>> items = returned == null || returned.isEmpty() ? List.of() : List.of(returned);
        return new Outcome(items, capacity(consumed), null, consumed.tableName(), null, null);
    }

    /** UpdateItem with attribute_exists(pk) added to the condition: an UPDATE never creates an item. */
    static JsonWrite update(String expression, String condition, ReturnValue returnValues, Object... values) {
        return (table, key) -> call(() -> {
            String exists = "attribute_exists(pk)" + (condition == null ? "" : " AND (" + condition + ")");
            var r = client().updateItem(b -> {
                b.tableName(table).key(key).updateExpression(expression).conditionExpression(exists)
                        .returnValues(returnValues).returnConsumedCapacity(ReturnConsumedCapacity.INDEXES)
                        .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD);
                if (values.length > 0) b.expressionAttributeValues(map(values));
            });
            return writeOutcome(r.attributes(), r.consumedCapacity());
        });
    }

    /** PutItem with attribute_not_exists(pk): an INSERT never replaces an item. */
    static JsonWrite put(Object... attributes) {
        return (table, key) -> call(() -> {
            Map<String, AttributeValue> item = new LinkedHashMap<>(key);
            item.putAll(map(attributes));
            var r = client().putItem(b -> b.tableName(table).item(item).conditionExpression("attribute_not_exists(pk)")
                    .returnConsumedCapacity(ReturnConsumedCapacity.INDEXES));
            return writeOutcome(r.attributes(), r.consumedCapacity());
        });
    }

    /** PutItem of exactly this item (for an INSERT whose key is not the case's). */
    static JsonWrite putExactly(Map<String, AttributeValue> item) {
        return (table, key) -> call(() -> {
            var r = client().putItem(b -> b.tableName(table).item(item).conditionExpression("attribute_not_exists(pk)")
                    .returnConsumedCapacity(ReturnConsumedCapacity.INDEXES));
            return writeOutcome(r.attributes(), r.consumedCapacity());
        });
    }

    static JsonWrite delete(String condition, ReturnValue returnValues, Object... values) {
        return (table, key) -> call(() -> {
            var r = client().deleteItem(b -> {
                b.tableName(table).key(key).conditionExpression(condition).returnValues(returnValues)
                        .returnConsumedCapacity(ReturnConsumedCapacity.INDEXES)
                        .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD);
                if (values.length > 0) b.expressionAttributeValues(map(values));
            });
            return writeOutcome(r.attributes(), r.consumedCapacity());
        });
    }

    static final String WR = "\"" + W_RANGE + "\"";
    static final String WH = "\"" + W_HASH + "\"";
    static final String KEY = "pk = $K AND sk = 1";

    static List<WriteCase> writes() {
        List<WriteCase> c = new ArrayList<>();
        // INSERT, into both key shapes, with every type of value.
        c.add(w("insert", false, "INSERT INTO " + WR + " VALUE {'pk': $K, 'sk': 1, 'n': 1}", put("sk", 1, "n", 1)));
        c.add(w("insert every type", false, "INSERT INTO " + WR + " VALUE {'pk': $K, 'sk': 1, 's': 'str', 'n': -1.5e2,"
                        + " 'b': ?, 'bool': true, 'nul': null, 'm': {'x': [1, {'y': <<'a', 'b'>>}], 'e': {}},"
                        + " 'l': [1, 'two', false, []], 'ss': <<'a', 'b'>>, 'ns': <<1, 2.5, -3>>, 'bs': <<?, ?>>}",
                List.of(b(1, 2), b(3), b(4)),
                put("sk", 1, "s", "str", "n", -150, "b", b(1, 2), "bool", true, "nul", NULL,
                        "m", m("x", l(n(1), m("y", ss("a", "b"))), "e", m()), "l", l(n(1), s("two"), bool(false), l()),
                        "ss", ss("a", "b"), "ns", ns(1, "2.5", -3), "bs", bs(b(3), b(4)))));
        c.add(w("insert into the GSI", false, "INSERT INTO " + WR + " VALUE {'pk': $K, 'sk': 1, 'genre': 'pop', 'n': 3}",
                put("sk", 1, "genre", "pop", "n", 3)));
        c.add(w("insert into the LSI", false, "INSERT INTO " + WR + " VALUE {'pk': $K, 'sk': 1, 'txt': 'hello'}",
                put("sk", 1, "txt", "hello")));
        c.add(w("insert into both indexes", false,
                "INSERT INTO " + WR + " VALUE {'pk': $K, 'sk': 1, 'txt': 'hello', 'genre': 'pop', 'n': 3, 'extra': 'x'}",
                put("sk", 1, "txt", "hello", "genre", "pop", "n", 3, "extra", "x")));
        c.add(w("insert a parameter item", false, "INSERT INTO " + WR + " VALUE ?", List.of(), put("sk", 1, "v", "param")));
        c.add(w("insert a duplicate", true, "INSERT INTO " + WR + " VALUE {'pk': $K, 'sk': 1, 'n': 1}", put("sk", 1, "n", 1)));
        c.add(w("insert with the wrong key type", false, "INSERT INTO " + WR + " VALUE {'pk': $K, 'sk': 'one'}",
                put("sk", "one")));
        c.add(w("insert without the sort key", false, "INSERT INTO " + WR + " VALUE {'pk': $K, 'n': 1}",
                (table, key) -> putExactly(Map.of("pk", key.get("pk"), "n", n(1))).run(table, key)));
        c.add(h("insert, hash key", false, "INSERT INTO " + WH + " VALUE {'pk': $K, 'n': 1, 'tags': <<'a'>>}",
                put("n", 1, "tags", ss("a"))));
        c.add(h("insert a duplicate, hash key", true, "INSERT INTO " + WH + " VALUE {'pk': $K}", put()));
        // UPDATE: SET and REMOVE, arithmetic, functions, nested paths.
        c.add(w("set plus", true, "UPDATE " + WR + " SET n = n + 5 WHERE " + KEY, update("SET n = n + :v", null, null, ":v", 5)));
        c.add(w("set minus", true, "UPDATE " + WR + " SET n = n - 2.5 WHERE " + KEY,
                update("SET n = n - :v", null, null, ":v", n("2.5"))));
        c.add(w("set two, comma", true, "UPDATE " + WR + " SET n = 7, txt = 'new' WHERE " + KEY,
                update("SET n = :n, txt = :t", null, null, ":n", 7, ":t", "new")));
        c.add(w("set two, SET SET", true, "UPDATE " + WR + " SET n = 7 SET txt = 'new' WHERE " + KEY,
                update("SET n = :n, txt = :t", null, null, ":n", 7, ":t", "new")));
        c.add(w("remove", true, "UPDATE " + WR + " REMOVE gone WHERE " + KEY, update("REMOVE gone", null, null)));
        c.add(w("set and remove", true, "UPDATE " + WR + " SET n = 1 REMOVE gone, flag WHERE " + KEY,
                update("SET n = :n REMOVE gone, flag", null, null, ":n", 1)));
        c.add(w("list_append after", true, "UPDATE " + WR + " SET lst = list_append(lst, [3, 4]) WHERE " + KEY,
                update("SET lst = list_append(lst, :v)", null, null, ":v", l(n(3), n(4)))));
        c.add(w("list_append before", true, "UPDATE " + WR + " SET lst = list_append([0], lst) WHERE " + KEY,
                update("SET lst = list_append(:v, lst)", null, null, ":v", l(n(0)))));
        c.add(w("set_add strings", true, "UPDATE " + WR + " SET tags = set_add(tags, <<'z'>>) WHERE " + KEY,
                update("ADD tags :v", null, null, ":v", ss("z"))));
        c.add(w("set_delete strings", true, "UPDATE " + WR + " SET tags = set_delete(tags, <<'x'>>) WHERE " + KEY,
                update("DELETE tags :v", null, null, ":v", ss("x"))));
        c.add(w("set_add numbers", true, "UPDATE " + WR + " SET nums = set_add(nums, <<3, 2>>) WHERE " + KEY,
                update("ADD nums :v", null, null, ":v", ns(3, 2))));
        c.add(w("set_delete every number", true, "UPDATE " + WR + " SET nums = set_delete(nums, <<1, 2>>) WHERE " + KEY,
                update("DELETE nums :v", null, null, ":v", ns(1, 2))));
        c.add(w("set_add binary", true, "UPDATE " + WR + " SET bins = set_add(bins, ?) WHERE " + KEY,
                List.of(bs(b(7))), update("ADD bins :v", null, null, ":v", bs(b(7)))));
        c.add(w("set_add of the wrong type", true, "UPDATE " + WR + " SET tags = set_add(tags, <<1>>) WHERE " + KEY,
                update("ADD tags :v", null, null, ":v", ns(1))));
        c.add(w("nested set", true, "UPDATE " + WR + " SET doc.deep.q = 9 WHERE " + KEY,
                update("SET doc.deep.q = :v", null, null, ":v", 9)));
        c.add(w("nested list element", true, "UPDATE " + WR + " SET doc.lst[0] = 'first' WHERE " + KEY,
                update("SET doc.lst[0] = :v", null, null, ":v", "first")));
        c.add(w("nested new map", true, "UPDATE " + WR + " SET doc.added = {'x': 1, 'y': [true, null]} WHERE " + KEY,
                update("SET doc.added = :v", null, null, ":v", m("x", 1, "y", l(bool(true), NULL)))));
        c.add(w("nested remove", true, "UPDATE " + WR + " REMOVE doc.deep WHERE " + KEY, update("REMOVE doc.deep", null, null)));
        c.add(w("remove a list element", true, "UPDATE " + WR + " REMOVE lst[0] WHERE " + KEY, update("REMOVE lst[0]", null, null)));
        c.add(w("set past the end", true, "UPDATE " + WR + " SET lst[5] = 'end' WHERE " + KEY,
                update("SET lst[5] = :v", null, null, ":v", "end")));
        c.add(w("nested path under a missing parent", true, "UPDATE " + WR + " SET nomap.x = 1 WHERE " + KEY,
                update("SET nomap.x = :v", null, null, ":v", 1)));
        c.add(w("if_not_exists plus", true, "UPDATE " + WR + " SET cnt = if_not_exists(cnt, 0) + 1 WHERE " + KEY,
                update("SET cnt = if_not_exists(cnt, :z) + :o", null, null, ":z", 0, ":o", 1)));
        c.add(w("if_not_exists present", true, "UPDATE " + WR + " SET n = if_not_exists(n, 100) WHERE " + KEY,
                update("SET n = if_not_exists(n, :v)", null, null, ":v", 100)));
        c.add(w("copy an attribute", true, "UPDATE " + WR + " SET dup = doc.deep WHERE " + KEY,
                update("SET dup = doc.deep", null, null)));
        c.add(w("set a parameter", true, "UPDATE " + WR + " SET n = ? WHERE " + KEY, List.of(n(42)),
                update("SET n = :v", null, null, ":v", 42)));
        c.add(w("set a binary parameter", true, "UPDATE " + WR + " SET bin = ? WHERE " + KEY, List.of(b(1, 2, 3)),
                update("SET bin = :v", null, null, ":v", b(1, 2, 3))));
        c.add(w("set every type", true,
                "UPDATE " + WR + " SET mm = {'k': <<1, 2>>, 'l': [null, true, 'x']}, ss2 = <<'p'>>, bo = false, nu = null WHERE " + KEY,
                update("SET mm = :m, ss2 = :s, bo = :b, nu = :n", null, null,
                        ":m", m("k", ns(1, 2), "l", l(NULL, bool(true), s("x"))), ":s", ss("p"), ":b", false, ":n", NULL)));
        // The GSI's and the LSI's keys change: their capacity is counted.
        c.add(w("set the GSI key", true, "UPDATE " + WR + " SET genre = 'jazz' WHERE " + KEY,
                update("SET genre = :g", null, null, ":g", "jazz")));
        c.add(w("remove the GSI key", true, "UPDATE " + WR + " REMOVE n WHERE " + KEY, update("REMOVE n", null, null)));
        c.add(w("set the LSI key", true, "UPDATE " + WR + " SET txt = 'zzz' WHERE " + KEY,
                update("SET txt = :t", null, null, ":t", "zzz")));
        c.add(w("remove the LSI key", true, "UPDATE " + WR + " REMOVE txt WHERE " + KEY, update("REMOVE txt", null, null)));
        // WHERE's other terms are the condition.
        c.add(w("condition passes", true, "UPDATE " + WR + " SET n = n + 1 WHERE " + KEY + " AND n = 5",
                update("SET n = n + :o", "n = :five", null, ":o", 1, ":five", 5)));
        c.add(w("condition fails", true, "UPDATE " + WR + " SET n = n + 1 WHERE " + KEY + " AND n = 6",
                update("SET n = n + :o", "n = :six", null, ":o", 1, ":six", 6)));
        c.add(w("functions in the condition", true, "UPDATE " + WR + " SET n = 0 WHERE " + KEY
                        + " AND txt IS NOT MISSING AND begins_with(txt, 't') AND size(lst) = 2 AND contains(tags, 'x')",
                update("SET n = :z", "attribute_exists(txt) AND begins_with(txt, :t) AND size(lst) = :two AND contains(tags, :x)",
                        null, ":z", 0, ":t", "t", ":two", 2, ":x", "x")));
        c.add(w("a missing attribute fails the condition", true,
                "UPDATE " + WR + " SET n = 0 WHERE " + KEY + " AND nothere IS NOT MISSING",
                update("SET n = :z", "attribute_exists(nothere)", null, ":z", 0)));
        c.add(w("OR and NOT in the condition", true,
                "UPDATE " + WR + " SET n = 0 WHERE " + KEY + " AND (n < 3 OR n > 4) AND NOT flag = false",
                update("SET n = :z", "(n < :three OR n > :four) AND NOT flag = :f", null, ":z", 0, ":three", 3, ":four", 4, ":f", false)));
        c.add(w("IN and BETWEEN in the condition", true,
                "UPDATE " + WR + " SET n = 0 WHERE " + KEY + " AND genre IN ('pop', 'rock') AND n BETWEEN 1 AND 5",
                update("SET n = :z", "genre IN (:p, :r) AND n BETWEEN :lo AND :hi", null,
                        ":z", 0, ":p", "pop", ":r", "rock", ":lo", 1, ":hi", 5)));
        c.add(w("a failed condition returns the old item", true,
                "UPDATE " + WR + " SET n = 0 WHERE " + KEY + " AND doc.deep.q = 2", List.of(), true,
                update("SET n = :z", "doc.deep.q = :two", null, ":z", 0, ":two", 2)));
        c.add(w("no such item", false, "UPDATE " + WR + " SET n = 1 WHERE " + KEY, update("SET n = :v", null, null, ":v", 1)));
        // RETURNING is ReturnValues.
        c.add(w("returning all new", true, "UPDATE " + WR + " SET n = n + 1, added = 'a' REMOVE gone WHERE " + KEY + " RETURNING ALL NEW *",
                update("SET n = n + :o, added = :a REMOVE gone", null, ReturnValue.ALL_NEW, ":o", 1, ":a", "a")));
        c.add(w("returning all old", true, "UPDATE " + WR + " SET n = n + 1, added = 'a' REMOVE gone WHERE " + KEY + " RETURNING ALL OLD *",
                update("SET n = n + :o, added = :a REMOVE gone", null, ReturnValue.ALL_OLD, ":o", 1, ":a", "a")));
        c.add(w("returning modified new", true, "UPDATE " + WR + " SET n = n + 1, added = 'a' REMOVE gone WHERE " + KEY + " RETURNING MODIFIED NEW *",
                update("SET n = n + :o, added = :a REMOVE gone", null, ReturnValue.UPDATED_NEW, ":o", 1, ":a", "a")));
        c.add(w("returning modified old", true, "UPDATE " + WR + " SET n = n + 1, added = 'a' REMOVE gone WHERE " + KEY + " RETURNING MODIFIED OLD *",
                update("SET n = n + :o, added = :a REMOVE gone", null, ReturnValue.UPDATED_OLD, ":o", 1, ":a", "a")));
        c.add(w("returning modified new, nested", true, "UPDATE " + WR + " SET doc.deep.q = 3 WHERE " + KEY + " RETURNING MODIFIED NEW *",
                update("SET doc.deep.q = :v", null, ReturnValue.UPDATED_NEW, ":v", 3)));
        c.add(w("returning modified old, set_add", true, "UPDATE " + WR + " SET tags = set_add(tags, <<'q'>>) WHERE " + KEY + " RETURNING MODIFIED OLD *",
                update("ADD tags :v", null, ReturnValue.UPDATED_OLD, ":v", ss("q"))));
        // Errors.
        c.add(w("set a key attribute", true, "UPDATE " + WR + " SET sk = 2 WHERE " + KEY, update("SET sk = :v", null, null, ":v", 2)));
        c.add(w("add a string", true, "UPDATE " + WR + " SET n = n + 'x' WHERE " + KEY, update("SET n = n + :v", null, null, ":v", "x")));
        c.add(w("add to a missing attribute", true, "UPDATE " + WR + " SET n = nothere + 1 WHERE " + KEY,
                update("SET n = nothere + :v", null, null, ":v", 1)));
        c.add(w("list_append to a number", true, "UPDATE " + WR + " SET n = list_append(n, [1]) WHERE " + KEY,
                update("SET n = list_append(n, :v)", null, null, ":v", l(n(1)))));
        c.add(w("update without the sort key", true, "UPDATE " + WR + " SET n = 1 WHERE pk = $K",
                (table, key) -> update("SET n = :v", null, null, ":v", 1).run(table, Map.of("pk", key.get("pk")))));
        c.add(w("update with the wrong key type", true, "UPDATE " + WR + " SET n = 1 WHERE pk = $K AND sk = 'x'",
                (table, key) -> update("SET n = :v", null, null, ":v", 1).run(table, Map.of("pk", key.get("pk"), "sk", s("x")))));
        c.add(h("update, hash key", true, "UPDATE " + WH + " SET n = 3 WHERE pk = $K RETURNING ALL NEW *",
                update("SET n = :v", null, ReturnValue.ALL_NEW, ":v", 3)));
        c.add(h("update a missing item, hash key", false, "UPDATE " + WH + " SET n = 3 WHERE pk = $K",
                update("SET n = :v", null, null, ":v", 3)));
        // DELETE.
        c.add(w("delete", true, "DELETE FROM " + WR + " WHERE " + KEY, delete(null, null)));
        c.add(w("delete returning all old", true, "DELETE FROM " + WR + " WHERE " + KEY + " RETURNING ALL OLD *",
                delete(null, ReturnValue.ALL_OLD)));
        c.add(w("delete, condition passes", true, "DELETE FROM " + WR + " WHERE " + KEY + " AND n = 5",
                delete("n = :v", null, ":v", 5)));
        c.add(w("delete, condition fails", true, "DELETE FROM " + WR + " WHERE " + KEY + " AND n = 6",
                delete("n = :v", null, ":v", 6)));
        c.add(w("delete, condition fails, old item", true, "DELETE FROM " + WR + " WHERE " + KEY + " AND n > 5",
                List.of(), true, delete("n > :v", null, ":v", 5)));
        c.add(w("delete, conditions with functions", true,
                "DELETE FROM " + WR + " WHERE " + KEY + " AND genre IS NOT MISSING AND tags IS NOT NULL AND attribute_type(n, 'N')",
                delete("attribute_exists(genre) AND NOT attribute_type(tags, :null) AND attribute_type(n, :n)", null,
                        ":null", "NULL", ":n", "N")));
        c.add(w("delete a missing item", false, "DELETE FROM " + WR + " WHERE " + KEY, delete(null, null)));
        c.add(w("delete a missing item returning all old", false, "DELETE FROM " + WR + " WHERE " + KEY + " RETURNING ALL OLD *",
                delete(null, ReturnValue.ALL_OLD)));
        c.add(w("delete a missing item with a condition", false, "DELETE FROM " + WR + " WHERE " + KEY + " AND n = 5",
                delete("n = :v", null, ":v", 5)));
        c.add(w("delete without the sort key", true, "DELETE FROM " + WR + " WHERE pk = $K",
                (table, key) -> delete(null, null).run(table, Map.of("pk", key.get("pk")))));
        c.add(h("delete, hash key", true, "DELETE FROM " + WH + " WHERE pk = $K RETURNING ALL OLD *",
                delete(null, ReturnValue.ALL_OLD)));
        c.add(h("delete, hash key, condition", true, "DELETE FROM " + WH + " WHERE pk = $K AND contains(tags, 'y')",
                delete("contains(tags, :y)", null, ":y", "y")));
        return c;
    }

    static WriteCase w(String label, boolean seeded, String statement, JsonWrite json) {
        return new WriteCase(label, W_RANGE, seeded, statement, List.of(), false, json);
    }

    static WriteCase w(String label, boolean seeded, String statement, List<AttributeValue> parameters, JsonWrite json) {
        return new WriteCase(label, W_RANGE, seeded, statement, parameters, false, json);
    }

    static WriteCase w(String label, boolean seeded, String statement, List<AttributeValue> parameters,
                       boolean oldItemOnFailure, JsonWrite json) {
        return new WriteCase(label, W_RANGE, seeded, statement, parameters, oldItemOnFailure, json);
    }

    static WriteCase h(String label, boolean seeded, String statement, JsonWrite json) {
        return new WriteCase(label, W_HASH, seeded, statement, List.of(), false, json);
    }

    static Stream<WriteCase> writeCases() {
        return writes().stream();
    }

    private static int keys;

    @ParameterizedTest(name = "{0}")
    @MethodSource("writeCases")
    void writeIsTheJsonWrite(WriteCase c) {
        String pk = "w" + (++keys);
        Map<String, AttributeValue> key = c.twins().equals(W_RANGE) ? map("pk", pk, "sk", 1) : map("pk", pk);
        String tableP = c.twins() + "_p";
        String tableJ = c.twins() + "_j";
        for (String table : List.of(tableP, tableJ)) {
            if (c.seeded()) client().putItem(b -> b.tableName(table).item(seedItem(key)));
        }
        List<AttributeValue> parameters = c.parameters();
        if (c.statement().contains("VALUE ?")) parameters = List.of(AttributeValue.fromM(map("pk", pk, "sk", 1, "v", "param")));
        String statement = c.statement().replace(c.twins(), tableP).replace("$K", "'" + pk + "'");
        List<AttributeValue> bound = parameters;
        Outcome partiql = call(() -> {
            ExecuteStatementResponse r = client().executeStatement(b -> {
                b.statement(statement).returnConsumedCapacity(ReturnConsumedCapacity.INDEXES);
                if (!bound.isEmpty()) b.parameters(bound);
                if (c.oldItemOnFailure()) b.returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD);
            });
            assertTrue(r.items().size() <= 1, "at most one item returned");
            return writeOutcome(r.items().isEmpty() ? null : r.items().get(0), r.consumedCapacity());
        });
        Outcome json = c.json().run(tableJ, key);
        String what = c.toString();
        // DynamoDB's documented differences: INSERT of a taken key is DuplicateItemException
        // where the equivalent conditional PutItem fails its condition.
        String expectedError = json.error();
        if (c.statement().startsWith("INSERT") && "ConditionalCheckFailedException".equals(expectedError)) {
            expectedError = "DuplicateItemException";
        }
        assertEquals(expectedError, partiql.error(), () -> what + ": error (JSON " + json + ", PartiQL " + partiql + ")");
        if (json.error() == null) {
            assertSameItems(what + ": returned attributes", json.items(), partiql.items());
            assertEquals(json.capacity(), partiql.capacity(), what + ": consumed capacity");
            assertEquals(tableP, partiql.tableName(), what + ": ConsumedCapacity.TableName");
        } else if (c.oldItemOnFailure()) {
            assertNotNull(json.errorItem(), what + ": the JSON call's old item");
            assertSameItem(json.errorItem(), partiql.errorItem());
        } else if (json.errorItem() != null) {
            assertNull(partiql.errorItem(), what + ": no old item unless asked for");
        }
        Map<String, AttributeValue> afterP = client().getItem(b -> b.tableName(tableP).key(key).consistentRead(true)).item();
        Map<String, AttributeValue> afterJ = client().getItem(b -> b.tableName(tableJ).key(key).consistentRead(true)).item();
        try {
            assertSameItem(afterJ, afterP);
        } catch (AssertionError e) {
            throw new AssertionError(what + ": the item afterwards differs: " + e.getMessage(), e);
        }
    }

    // ---- the count ----------------------------------------------------------------------------

    /**
     * The suite compares at least 150 distinct statements (with their parameters; a write
     * statement run on a seeded and on a missing item counts once).
     */
    @Test
    void atLeast150DistinctStatementsAreCompared() {
        Set<String> statements = new HashSet<>();
        for (ReadCase c : reads()) statements.add(c.statement() + " " + c.parameters());
        for (WriteCase c : writes()) statements.add(c.statement() + " " + c.parameters());
        assertTrue(statements.size() >= 150, "distinct statements compared: " + statements.size());
        assertFalse(reads().isEmpty());
        assertFalse(writes().isEmpty());
    }
}
