package io.stator.engine.capacity;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.DoubleAdder;

/**
 * The bytes vector indexes were metered, per table and vector index since the server started:
 * CloudWatch's VectorSearchRequestBytes and VectorWriteRequestBytes (dimensions TableName and
 * VectorIndexName; developer guide, VectorSearchMonitoring). Vector indexes are on demand only,
 * so these bytes are counted, never admitted or refused.
 */
public final class VectorBytes {

    /** One vector index's totals. */
    public record Figures(String tableName, String indexName, double searchBytes, double writeBytes) {}

    private record Key(String tableName, String indexName) {}

    private final Map<Key, DoubleAdder[]> totals = new ConcurrentHashMap<>();

    /** A SearchVectors' VectorSearchRequestBytes. */
    public void searched(String tableName, String indexName, double bytes) {
        adders(tableName, indexName)[0].add(bytes);
    }

    /** A write's VectorWriteRequestBytes, by vector index. */
    public void written(String tableName, Map<String, Double> bytesByIndex) {
        bytesByIndex.forEach((index, bytes) -> adders(tableName, index)[1].add(bytes));
    }

    private DoubleAdder[] adders(String tableName, String indexName) {
        return totals.computeIfAbsent(new Key(tableName, indexName), k -> new DoubleAdder[] {new DoubleAdder(), new DoubleAdder()});
    }

    /** A deleted table's indexes start again from nothing if a table of its name is made again. */
    public void tableDeleted(String tableName) {
        totals.keySet().removeIf(k -> k.tableName().equals(tableName));
    }

    public List<Figures> snapshot() {
        List<Figures> out = new ArrayList<>(totals.size());
        totals.forEach((k, a) -> out.add(new Figures(k.tableName(), k.indexName(), a[0].sum(), a[1].sum())));
        out.sort(java.util.Comparator.comparing(Figures::tableName).thenComparing(Figures::indexName));
        return out;
    }
}
