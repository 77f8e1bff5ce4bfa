package io.stator.server.api.json;

import com.fasterxml.jackson.core.JsonGenerator;
import io.stator.core.model.AttributeValue;
import io.stator.engine.capacity.ConsumedCapacity;
import io.stator.engine.read.Page;
import io.stator.engine.write.Transactions;
import io.stator.engine.write.WriteResult;
import io.stator.server.protocol.AttributeValueJson;
import io.stator.server.protocol.request.ReturnConsumedCapacity;
import io.stator.server.protocol.request.ReturnItemCollectionMetrics;
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
public final class PerTableResults {

    private final Map<String, ConsumedCapacity.Builder> consumed = new LinkedHashMap<>();
    private final Map<String, List<WriteResult>> metrics = new LinkedHashMap<>();

    public void consumed(String tableName, ConsumedCapacity units) {
        consumed.computeIfAbsent(tableName, t -> new ConsumedCapacity.Builder()).add(units);
    }

    /** A write's consumption, and its item collection when its table has a local index. */
    public void wrote(String tableName, WriteResult result) {
        consumed(tableName, result.consumed());
        if (result.itemCollectionSize() >= 0) metrics.computeIfAbsent(tableName, t -> new ArrayList<>()).add(result);
    }

    /**
     * A write transaction's results: what each action wrote, or, for a replay under its
     * ClientRequestToken, what reading its items consumed.
     */
    public static PerTableResults ofTransaction(Transactions.WriteOutcome outcome, List<String> tableNames) {
        PerTableResults results = new PerTableResults();
        for (int i = 0; i < tableNames.size(); i++) {
            WriteResult r = outcome.results().get(i);
            if (outcome.replayed()) {
                results.consumed(tableNames.get(i), r.consumed());
            } else {
                results.wrote(tableNames.get(i), r);
            }
        }
        return results;
    }

    /** A write transaction's ConsumedCapacity: a replay reads the items instead of writing them, and is billed so (API reference). */
    public void writeTransactionCapacity(JsonGenerator g, ReturnConsumedCapacity returnConsumedCapacity, boolean replayed) throws IOException {
        writeConsumedCapacity(g, returnConsumedCapacity, replayed ? "ReadCapacityUnits" : "WriteCapacityUnits");
    }

    /**
     * TransactGetItems' and ExecuteTransaction's answer: Responses, one per get in order (its item,
     * or none), and ConsumedCapacity per table.
     */
    public static void writeTransactGet(JsonGenerator g, List<Page> pages, List<Map<String, AttributeValue>> items,
                                 List<String> tableNames, ReturnConsumedCapacity returnConsumedCapacity) throws IOException {
        g.writeArrayFieldStart("Responses");
        PerTableResults perTable = new PerTableResults();
        for (int i = 0; i < pages.size(); i++) {
            perTable.consumed(tableNames.get(i), pages.get(i).consumed());
            g.writeStartObject();
            if (items.get(i) != null) {
                g.writeFieldName("Item");
                AttributeValueJson.writeItem(g, items.get(i));
            }
            g.writeEndObject();
        }
        g.writeEndArray();
        perTable.writeConsumedCapacity(g, returnConsumedCapacity, "ReadCapacityUnits");
    }

    /**
     * Writes ConsumedCapacity when asked for.
     *
     * @param unitsField see {@link ItemResponses#writeConsumedCapacities}
     */
    public void writeConsumedCapacity(JsonGenerator g, ReturnConsumedCapacity returnConsumedCapacity, String unitsField) throws IOException {
        Map<String, ConsumedCapacity> byTable = new LinkedHashMap<>();
        consumed.forEach((table, units) -> byTable.put(table, units.build()));
        ItemResponses.writeConsumedCapacities(g, returnConsumedCapacity, byTable, unitsField);
    }

    /** Writes ItemCollectionMetrics when ReturnItemCollectionMetrics is SIZE and a table has a local index. */
    public void writeItemCollectionMetrics(JsonGenerator g, ReturnItemCollectionMetrics returnItemCollectionMetrics)
            throws IOException {
        if (returnItemCollectionMetrics != ReturnItemCollectionMetrics.SIZE || metrics.isEmpty()) return;
        g.writeObjectFieldStart("ItemCollectionMetrics");
        for (Map.Entry<String, List<WriteResult>> e : metrics.entrySet()) {
            g.writeArrayFieldStart(e.getKey());
            for (WriteResult r : e.getValue()) ItemResponses.writeItemCollectionMetrics(g, r);
            g.writeEndArray();
        }
        g.writeEndObject();
    }
}
