package io.stator.engine.read;

import io.stator.core.error.DynamoDbException;
import io.stator.core.expression.Condition;
import io.stator.core.expression.Operand;
import io.stator.core.expression.Path;
import io.stator.core.expression.Projector;
import io.stator.core.item.ItemCodec;
import io.stator.core.item.ItemSize;
import io.stator.core.key.KeyLayout;
import io.stator.core.model.AttributeValue;
import io.stator.core.model.DynamoNumber;
import io.stator.engine.capacity.CapacityUnits;
import io.stator.engine.index.VectorEntries;
import io.stator.engine.index.VectorGraphs;
import io.stator.engine.index.vector.VectorGraph;
import io.stator.engine.index.vector.Distance;
import io.stator.engine.index.vector.VectorScores;
import io.stator.engine.keyspace.Keyspaces;
import io.stator.engine.table.IndexDefinition;
import io.stator.engine.table.IndexDefinition.IndexStatus;
import io.stator.engine.table.IndexDefinition.KeyAttribute;
import io.stator.engine.table.TableDefinition;
import io.stator.storage.Cursor;
import io.stator.storage.Snapshot;
import io.stator.storage.Storage;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;

/**
 * SearchVectors: the {@code TopK} entries of a vector index nearest a query vector, among those
 * of one HASH value (when the index has one) that equal every INLINE_FILTER value the condition
 * names, each with DynamoDB's score ({@link VectorScores}).
 *
 * <p>The request is checked in DynamoDB's order (docs/dynamodb/vector-search.md §5.1): the index
 * (missing, not a vector index, or being dropped: "does not have the specified index"; being
 * built: "Cannot search backfilling vector index"), TopK's maximum, the search vector's values,
 * then its dimensions ({@link #target}); then the condition: comparators, then membership in the
 * search schema, then the HASH requirement, then operand types ({@link #search}).
 *
 * <p>An index of a few thousand entries is searched exactly: the partition's entries are read
 * from the engine's storage and all ranked (recall 1.0, ties broken by key). A larger one is
 * searched through its HNSW graph ({@link VectorGraphs}) once built: the graph proposes the
 * candidates, with the filters applied inside its search, and each candidate's entry is read back
 * from storage and scored from there, so that scores are exact and a gone entry never shows.
 * Either way filters apply before ranking, never after: TopK results are not lost to filtering.
 */
public final class VectorSearch {

    public static final int MAX_TOP_K = 100;

    private final Storage storage;
    private final VectorGraphs graphs;

    public VectorSearch(Storage storage, VectorGraphs graphs) {
        this.storage = storage;
        this.graphs = graphs;
    }

    /** A checked search: its index and query vector. */
    public record Target(TableDefinition table, IndexDefinition index, float[] query, int topK) {}

    /** One result: the item as returned, and its score. */
    public record Hit(Map<String, AttributeValue> item, double score) {}

    /** The results, best first, and VectorSearchRequestBytes. */
    public record Result(List<Hit> hits, double requestBytes) {}

    /**
     * Steps 5 to 9 of the order: the index, TopK's maximum, the vector's values and its dimensions.
     * {@code searchVector} is null when the request held an element that is no attribute value.
     */
    public static Target target(TableDefinition table, String indexName, int topK, List<AttributeValue> searchVector) {
        IndexDefinition index = table.index(indexName);
        if (index == null || !index.isVector() || index.status() == IndexStatus.DELETING) {
            throw DynamoDbException.validation("The table does not have the specified index: " + indexName);
        }
        if (index.status() == IndexStatus.CREATING) {
            throw DynamoDbException.validation("Cannot search backfilling vector index: " + indexName);
        }
        if (topK > MAX_TOP_K) {
            throw DynamoDbException.validation("Provided TopK value '" + topK + "' is out of valid range. The value must "
                    + "be between 1 and " + MAX_TOP_K + " inclusive");
        }
        if (searchVector == null) throw invalidSearchVector();
        float[] query = new float[searchVector.size()];
        for (int i = 0; i < query.length; i++) {
            AttributeValue v = searchVector.get(i);
            double d = v instanceof AttributeValue.N n ? Double.parseDouble(n.value().toString()) : Double.NaN;
            if (!(Math.abs(d) <= VectorEntries.MAX_COMPONENT)) throw invalidSearchVector();
            query[i] = (float) d;
        }
        int dimensions = index.vector().dimensions();
        if (query.length != dimensions) {
            throw DynamoDbException.validation("Input search vector dimension " + query.length
                    + " does not match vector index dimension " + dimensions);
        }
        return new Target(table, index, query, topK);
    }

    private static DynamoDbException invalidSearchVector() {
        return DynamoDbException.validation("Search vector contains invalid values. All values in the search vector must "
                + "be a 32-bit floating-point number attribute");
    }

    /** The condition's equalities: the HASH value (null without a HASH) and the INLINE_FILTER values. */
    private record Filter(AttributeValue hash, Map<String, AttributeValue> equalities, boolean matchesNothing) {}

    /**
     * Runs the search. {@code condition} is the resolved SearchConditionExpression (null when none
     * was given); {@code projection} the ProjectionExpression's paths (null for every projected
     * attribute but the vector).
     */
    public Result search(Target target, Condition condition, List<Path> projection) {
        IndexDefinition index = target.index();
        Filter filter = filter(index, condition);
        Ranked ranked = filter.matchesNothing() ? new Ranked(List.of(), 0) : rank(target, filter);
        List<Scored> best = ranked.best();
        String vectorAttribute = index.vector().attribute();
        boolean vectorReturned = projection != null && index.projects(vectorAttribute, target.table().keySchema())
                && projection.stream().anyMatch(p -> p.topLevelName().equals(vectorAttribute));
        List<Hit> hits = new ArrayList<>(best.size());
        long returnedBytes = 0;
        for (Scored s : best) {
            Map<String, AttributeValue> item = new LinkedHashMap<>(s.entry());
            AttributeValue stored = item.remove(vectorAttribute);
            if (vectorReturned && stored instanceof AttributeValue.B b) item.put(vectorAttribute, asList(b));
            if (projection != null) item = Projector.project(item, projection);
            returnedBytes += ItemSize.of(item);
            hits.add(new Hit(item, s.score()));
        }
        return new Result(hits, requestBytes(index, ranked.seen(), best.size(), returnedBytes));
    }

    /**
     * VectorSearchRequestBytes: DynamoDB bills the vector data a search examines and returns, at
     * 1 KB at least, and gives no formula (developer guide, VectorSearchMonitoring). Stator counts
     * as examined what an approximate search of the index would visit, TopK candidates per level
     * of a graph over the partition (it grows with the logarithm of the item count, as DynamoDB
     * says its does), four bytes a dimension each, plus the items returned
     * (docs/dynamodb/vector-search.md §11 U19).
     */
    private static double requestBytes(IndexDefinition index, long partitionSize, int returned, long returnedBytes) {
        long n = Math.max(partitionSize, returned);
        long levels = 64 - Long.numberOfLeadingZeros(n + 1);
        long visited = Math.min(n, (long) Math.max(returned, 1) * (1 + levels));
        long examined = visited * 4L * index.vector().dimensions();
        return Math.max(CapacityUnits.VECTOR_MINIMUM_BYTES, examined + returnedBytes);
    }

    /** A candidate: its entry's attributes, key and score. */
    private record Scored(Map<String, AttributeValue> entry, byte[] key, double score) {}

    /** The best entries, best first, and how many entries the partition has. */
    private record Ranked(List<Scored> best, long seen) {}

    private Ranked rank(Target target, Filter filter) {
        VectorGraph graph = graphs.graph(target.table(), target.index());
        return graph != null ? rankByGraph(graph, target, filter) : rankAll(target, filter);
    }

    /** The graph's candidates, each read back from storage and scored exactly. */
    private Ranked rankByGraph(VectorGraph graph, Target target, Filter filter) {
        IndexDefinition index = target.index();
        Distance distance = index.vector().distanceFunction();
        List<String> terms = new ArrayList<>(1 + filter.equalities().size());
        if (filter.hash() != null) terms.add(VectorGraphs.term(index.partitionKey().get(0).name(), filter.hash()));
        filter.equalities().forEach((name, value) -> terms.add(VectorGraphs.term(name, value)));
        // A graph may still hold an entry that storage has just lost (its removal is applied to the
        // graph after its commit): such a hit is skipped, and the graph asked for more, so that a
        // search does not come back short.
        List<Scored> best = new ArrayList<>(target.topK());
        int wanted = target.topK();
        for (int attempt = 0; ; attempt++) {
            best.clear();
            List<VectorGraph.Hit> hits = graph.search(target.query(), wanted, terms);
            int stale = 0;
            try (Snapshot snapshot = storage.snapshot()) {
                for (VectorGraph.Hit hit : hits) {
                    byte[] stored = storage.get(snapshot, Keyspaces.ITEMS, hit.key());
                    Map<String, AttributeValue> entry = stored == null ? null : ItemCodec.decode(stored);
                    if (entry == null || !matches(entry, filter.equalities())
                            || !(entry.get(index.vector().attribute()) instanceof AttributeValue.B vector)) {
                        stale++;
                        continue;
                    }
                    best.add(new Scored(entry, hit.key(), VectorScores.score(distance, target.query(),
                            VectorEntries.vectorOf(vector))));
                }
            }
            if (stale == 0 || hits.size() < wanted || attempt == 3) break;
            wanted = wanted * 2 + stale;
        }
        best.sort(ranking(distance));
        if (best.size() > target.topK()) best = new ArrayList<>(best.subList(0, target.topK()));
        return new Ranked(best, graph.size());
    }

    /** Best first; equal scores by key (as the graph orders its hits, {@link VectorScores#ranking}). */
    private static java.util.Comparator<Scored> ranking(Distance distance) {
        return (a, b) -> {
            int c = VectorScores.compare(distance, a.score(), b.score());
            return c != 0 ? c : java.util.Arrays.compareUnsigned(a.key(), b.key());
        };
    }

    /** Every entry of the partitions the filter allows, ranked. */
    private Ranked rankAll(Target target, Filter filter) {
        IndexDefinition index = target.index();
        Distance distance = index.vector().distanceFunction();
        String vectorAttribute = index.vector().attribute();
        java.util.Comparator<Scored> better = ranking(distance);
        // Worst first, so that the head is the one to drop.
        PriorityQueue<Scored> heap = new PriorityQueue<>(target.topK() + 1, better.reversed());
        List<List<AttributeValue>> partitions = new ArrayList<>();
        if (filter.hash() != null) {
            partitions.add(List.of(filter.hash()));
        } else {
            for (int b = 0; b < VectorEntries.BUCKETS; b++) partitions.add(VectorEntries.bucket(b));
        }
        long seen = 0;
        try (Snapshot snapshot = storage.snapshot()) {
            for (List<AttributeValue> partition : partitions) {
                byte[] prefix = KeyLayout.indexPartitionPrefix(target.table().partitionHash(), target.table().id(), index.id(),
                        partition);
                try (Cursor cursor = storage.range(snapshot, Keyspaces.ITEMS, prefix, KeyLayout.prefixUpperBound(prefix),
                        false)) {
                    while (cursor.next()) {
                        Map<String, AttributeValue> entry = ItemCodec.decode(cursor.value());
                        seen++;
                        if (!matches(entry, filter.equalities())) continue;
                        if (!(entry.get(vectorAttribute) instanceof AttributeValue.B stored)) continue;
                        double score = VectorScores.score(distance, target.query(), VectorEntries.vectorOf(stored));
                        heap.add(new Scored(entry, cursor.key(), score));
                        if (heap.size() > target.topK()) heap.poll();
                    }
                }
            }
        }
        List<Scored> best = new ArrayList<>(heap);
        best.sort(better);
        return new Ranked(best, seen);
    }

    private static boolean matches(Map<String, AttributeValue> entry, Map<String, AttributeValue> equalities) {
        for (Map.Entry<String, AttributeValue> e : equalities.entrySet()) {
            if (!sameValue(entry.get(e.getKey()), e.getValue())) return false;
        }
        return true;
    }

    /** Equality as the search compares: numbers by value ("1.0" equals "1"), others as stored. */
    private static boolean sameValue(AttributeValue a, AttributeValue b) {
        if (a instanceof AttributeValue.N x && b instanceof AttributeValue.N y) return x.value().compareTo(y.value()) == 0;
        return a != null && a.equals(b);
    }

    /** A stored vector as DynamoDB returns it: a list of numbers, each its 32-bit float's shortest decimal. */
    private static AttributeValue asList(AttributeValue.B stored) {
        float[] v = VectorEntries.vectorOf(stored);
        List<AttributeValue> out = new ArrayList<>(v.length);
        for (float f : v) {
            String text = f == 0 ? "0" : new BigDecimal(Float.toString(f)).stripTrailingZeros().toPlainString();
            out.add(new AttributeValue.N(DynamoNumber.parse(text)));
        }
        return new AttributeValue.L(out);
    }

    // ---- the condition ----------------------------------------------------------------------

    private static final String PREFIX = "Invalid SearchConditionExpression: ";

    /** One {@code name = value} of the condition. */
    private record Equality(Path path, AttributeValue value) {}

    private static Filter filter(IndexDefinition index, Condition condition) {
        KeyAttribute hash = index.partitionKey().isEmpty() ? null : index.partitionKey().get(0);
        if (condition == null) {
            if (hash != null) {
                throw DynamoDbException.validation("SearchConditionExpression must be provided when SearchSchema has a "
                        + "HASH key");
            }
            return new Filter(null, Map.of(), false);
        }
        List<Equality> equalities = new ArrayList<>();
        collect(condition, equalities);
        for (Equality e : equalities) {
            if (!e.path().isTopLevel()) {
                throw DynamoDbException.validation(PREFIX + "SearchConditionExpression cannot have conditions on nested "
                        + "attributes");
            }
        }
        Map<String, KeyAttribute> schema = new LinkedHashMap<>();
        if (hash != null) schema.put(hash.name(), hash);
        for (KeyAttribute k : index.vector().inlineFilters()) schema.put(k.name(), k);
        for (Equality e : equalities) {
            String name = e.path().topLevelName();
            if (!schema.containsKey(name)) {
                throw DynamoDbException.validation("SearchConditionExpression must not contain any attributes that is not "
                        + "in SearchSchema. Invalid attribute: " + name);
            }
        }
        if (hash != null && equalities.stream().noneMatch(e -> e.path().topLevelName().equals(hash.name()))) {
            throw DynamoDbException.validation("SearchConditionExpression must be provided when SearchSchema has a HASH key");
        }
        AttributeValue hashValue = null;
        Map<String, AttributeValue> inline = new LinkedHashMap<>();
        boolean nothing = false;
        for (Equality e : equalities) {
            String name = e.path().topLevelName();
            KeyAttribute k = schema.get(name);
            AttributeValue v = e.value();
            if (v.type() != k.type()) {
                throw DynamoDbException.validation("Type of '" + name + "' attribute in SearchConditionExpression ("
                        + v.type() + ") does not match type in search schema (" + k.type() + ")");
            }
            if (k == hash && v instanceof AttributeValue.S s && s.value().isEmpty()) {
                throw DynamoDbException.validation("One or more parameter values are not valid. The AttributeValue for a "
                        + "key attribute cannot contain an empty string value. Key: " + name);
            }
            // Two equalities on one attribute: an item holds one value, so only equal ones can match.
            if (k == hash) {
                if (hashValue != null && !sameValue(hashValue, v)) nothing = true;
                hashValue = v;
            } else {
                AttributeValue was = inline.put(name, v);
                if (was != null && !sameValue(was, v)) nothing = true;
            }
        }
        return new Filter(hashValue, inline, nothing);
    }

    /**
     * The condition's equalities, joined by AND; any other comparator or combinator is refused,
     * each clause before any is looked up (DynamoDB answers the comparator first).
     */
    private static void collect(Condition c, List<Equality> out) {
        switch (c) {
            case Condition.And and -> {
                collect(and.left(), out);
                collect(and.right(), out);
            }
            case Condition.Comparison cmp when cmp.comparator() == Condition.Comparator.EQ -> {
                if (cmp.left() instanceof Operand.PathOperand p && cmp.right() instanceof Operand.Constant v) {
                    out.add(new Equality(p.path(), v.value()));
                } else if (cmp.right() instanceof Operand.PathOperand p && cmp.left() instanceof Operand.Constant v) {
                    out.add(new Equality(p.path(), v.value()));
                } else {
                    throw invalidComparator();
                }
            }
            default -> throw invalidComparator();
        }
    }

    private static DynamoDbException invalidComparator() {
        return DynamoDbException.validation(PREFIX + "Invalid comparator used in SearchConditionExpression");
    }
}
