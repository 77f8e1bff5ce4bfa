package io.stator.server.api;

import com.fasterxml.jackson.core.JsonGenerator;
import io.stator.engine.capacity.ConsumedCapacity;
import io.stator.engine.item.ItemOperations.WriteResult;
import io.stator.engine.table.TableDefinition;
import io.stator.server.protocol.Struct;
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
    private final Map<String, List<Collection>> metrics = new LinkedHashMap<>();

    private record Collection(TableDefinition table, WriteResult result) {}

    void consumed(String tableName, ConsumedCapacity units) {
        consumed.computeIfAbsent(tableName, t -> new ConsumedCapacity.Builder()).add(units);
    }

    /** A write's consumption, and its item collection when its table has a local index. */
    void wrote(String tableName, TableDefinition table, WriteResult result) {
        consumed(tableName, result.consumed());
        if (result.itemCollectionSize() >= 0) {
            metrics.computeIfAbsent(tableName, t -> new ArrayList<>()).add(new Collection(table, result));
        }
    }

    /**
     * Writes ConsumedCapacity when asked for.
     *
     * @param unitsField see {@link ItemRules#writeConsumedCapacities}
     */
    void writeConsumedCapacity(JsonGenerator g, Struct request, String unitsField) throws IOException {
        Map<String, ConsumedCapacity> byTable = new LinkedHashMap<>();
        consumed.forEach((table, units) -> byTable.put(table, units.build()));
        ItemRules.writeConsumedCapacities(g, request, byTable, unitsField);
    }

    /** Writes ItemCollectionMetrics when ReturnItemCollectionMetrics is SIZE and a table has a local index. */
    void writeItemCollectionMetrics(JsonGenerator g, Struct request) throws IOException {
        if (!ItemRules.returnsItemCollectionMetrics(request) || metrics.isEmpty()) return;
        g.writeObjectFieldStart("ItemCollectionMetrics");
        for (Map.Entry<String, List<Collection>> e : metrics.entrySet()) {
            g.writeArrayFieldStart(e.getKey());
            for (Collection c : e.getValue()) ItemRules.writeItemCollectionMetrics(g, c.table(), c.result());
            g.writeEndArray();
        }
        g.writeEndObject();
    }
}
