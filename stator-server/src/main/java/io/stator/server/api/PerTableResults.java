package io.stator.server.api;

import com.fasterxml.jackson.core.JsonGenerator;
import io.stator.engine.capacity.ConsumedCapacity;
import io.stator.engine.write.WriteResult;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a batch or a transaction consumed and did, gathered per table, each table named as the
 * request names it: ConsumedCapacity (a list, one entry per table) and ItemCollectionMetrics
 * (a map from table to the collections its writes touched, for tables with a local index).
 */
final class PerTableResults {

    private final Map<String, ConsumedCapacity.Builder> consumed = new LinkedHashMap<>();
    private final Map<String, List<WriteResult>> metrics = new LinkedHashMap<>();

    void consumed(String tableName, ConsumedCapacity units) {
        consumed.computeIfAbsent(tableName, t -> new ConsumedCapacity.Builder()).add(units);
    }

    /** A write's consumption, and its item collection when its table has a local index. */
    void wrote(String tableName, WriteResult result) {
        consumed(tableName, result.consumed());
        if (result.itemCollectionSize() >= 0) metrics.computeIfAbsent(tableName, t -> new ArrayList<>()).add(result);
    }

    /**
     * Writes ConsumedCapacity when asked for.
     *
     * @param unitsField see {@link ItemResponses#writeConsumedCapacities}
     */
    void writeConsumedCapacity(JsonGenerator g, String returnConsumedCapacity, String unitsField) throws IOException {
        Map<String, ConsumedCapacity> byTable = new LinkedHashMap<>();
        consumed.forEach((table, units) -> byTable.put(table, units.build()));
        ItemResponses.writeConsumedCapacities(g, returnConsumedCapacity, byTable, unitsField);
    }

    /** Writes ItemCollectionMetrics when ReturnItemCollectionMetrics is SIZE and a table has a local index. */
    void writeItemCollectionMetrics(JsonGenerator g, String returnItemCollectionMetrics) throws IOException {
        if (!"SIZE".equals(returnItemCollectionMetrics) || metrics.isEmpty()) return;
        g.writeObjectFieldStart("ItemCollectionMetrics");
        for (Map.Entry<String, List<WriteResult>> e : metrics.entrySet()) {
            g.writeArrayFieldStart(e.getKey());
            for (WriteResult r : e.getValue()) ItemResponses.writeItemCollectionMetrics(g, r);
            g.writeEndArray();
        }
        g.writeEndObject();
    }
}
