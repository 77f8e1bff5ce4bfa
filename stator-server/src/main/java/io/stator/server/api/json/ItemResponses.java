package io.stator.server.api.json;

import com.fasterxml.jackson.core.JsonGenerator;
import io.stator.core.model.AttributeValue;
import io.stator.engine.capacity.ConsumedCapacity;
import io.stator.engine.read.Page;
import io.stator.engine.table.TableDefinition;
import io.stator.engine.write.WriteResult;
import io.stator.server.protocol.AttributeValueJson;
import io.stator.server.protocol.request.ReturnConsumedCapacity;
import io.stator.server.protocol.request.ReturnItemCollectionMetrics;
import java.io.IOException;
import java.util.Map;

/**
 * What the item actions' responses share: the attributes a write returns, ConsumedCapacity and
 * ItemCollectionMetrics, written as DynamoDB writes them.
 */
public final class ItemResponses {

    private ItemResponses() {}

    /** Writes the attributes a write returns (its ReturnValues), when there are any. */
    public static void writeAttributes(JsonGenerator g, WriteResult result) throws IOException {
        Map<String, AttributeValue> returned = result.returnedAttributes();
        if (returned == null || returned.isEmpty()) return;
        g.writeFieldName("Attributes");
        AttributeValueJson.writeItem(g, returned);
    }

    /**
     * Writes ConsumedCapacity when the request's ReturnConsumedCapacity asks for it: TOTAL gives
     * the sum, INDEXES also the table's part and each index's (an index that cost nothing is
     * left out). The table is named as the request named it: by ARN if it was addressed by ARN,
     * as DynamoDB's API reference says of ConsumedCapacity.TableName.
     */
    public static void writeConsumedCapacity(JsonGenerator g, ReturnConsumedCapacity returnConsumedCapacity, String tableName,
                                      ConsumedCapacity consumed) throws IOException {
        if (returnConsumedCapacity == null || returnConsumedCapacity == ReturnConsumedCapacity.NONE) return;
        g.writeFieldName("ConsumedCapacity");
        writeCapacity(g, returnConsumedCapacity, tableName, consumed, null);
    }

    /**
     * The ConsumedCapacity of an operation on several tables (batches, transactions): a list,
     * one entry per table, in the order the request first names them. A transaction's entries
     * repeat each part's units as ReadCapacityUnits or WriteCapacityUnits (as measured on
     * DynamoDB); a batch's do not.
     *
     * @param unitsField "ReadCapacityUnits", "WriteCapacityUnits", or null
     */
    public static void writeConsumedCapacities(JsonGenerator g, ReturnConsumedCapacity returnConsumedCapacity,
                                        Map<String, ConsumedCapacity> byTable, String unitsField) throws IOException {
        if (returnConsumedCapacity == null || returnConsumedCapacity == ReturnConsumedCapacity.NONE) return;
        g.writeArrayFieldStart("ConsumedCapacity");
        for (Map.Entry<String, ConsumedCapacity> e : byTable.entrySet()) {
            writeCapacity(g, returnConsumedCapacity, e.getKey(), e.getValue(), unitsField);
        }
        g.writeEndArray();
    }

    private static void writeCapacity(JsonGenerator g, ReturnConsumedCapacity mode, String tableName, ConsumedCapacity consumed,
                                      String unitsField) throws IOException {
        g.writeStartObject();
        g.writeStringField("TableName", tableName);
        writeUnits(g, consumed.total(), unitsField);
        if (mode == ReturnConsumedCapacity.INDEXES) {
            g.writeObjectFieldStart("Table");
            writeUnits(g, consumed.tableUnits(), unitsField);
            g.writeEndObject();
            writeIndexUnits(g, "GlobalSecondaryIndexes", consumed.globalIndexUnits(), unitsField);
            writeIndexUnits(g, "LocalSecondaryIndexes", consumed.localIndexUnits(), unitsField);
            writeVectorBytes(g, consumed.vectorIndexBytes());
        }
        g.writeEndObject();
    }

    /** VectorIndexes: the bytes each vector index was written (VectorWriteRequestBytes), under INDEXES only. */
    private static void writeVectorBytes(JsonGenerator g, Map<String, Double> bytes) throws IOException {
        if (bytes.isEmpty()) return;
        g.writeObjectFieldStart("VectorIndexes");
        for (Map.Entry<String, Double> e : bytes.entrySet()) {
            g.writeObjectFieldStart(e.getKey());
            g.writeNumberField("VectorWriteRequestBytes", e.getValue());
            g.writeEndObject();
        }
        g.writeEndObject();
    }

    private static void writeUnits(JsonGenerator g, double units, String unitsField) throws IOException {
        g.writeNumberField("CapacityUnits", units);
        if (unitsField != null) g.writeNumberField(unitsField, units);
    }

    private static void writeIndexUnits(JsonGenerator g, String field, Map<String, Double> units, String unitsField)
            throws IOException {
        if (units.isEmpty()) return;
        g.writeObjectFieldStart(field);
        for (Map.Entry<String, Double> e : units.entrySet()) {
            g.writeObjectFieldStart(e.getKey());
            writeUnits(g, e.getValue(), unitsField);
            g.writeEndObject();
        }
        g.writeEndObject();
    }

    /**
     * Writes ItemCollectionMetrics when ReturnItemCollectionMetrics is SIZE and the table has a
     * local secondary index (DynamoDB returns none otherwise).
     */
    public static void writeItemCollectionMetrics(JsonGenerator g, ReturnItemCollectionMetrics returnItemCollectionMetrics,
                                           WriteResult result) throws IOException {
        if (returnItemCollectionMetrics != ReturnItemCollectionMetrics.SIZE || result.itemCollectionSize() < 0) return;
        g.writeFieldName("ItemCollectionMetrics");
        writeItemCollectionMetrics(g, result);
    }

    /**
     * One write's ItemCollectionMetrics object (the write must be on a table with a local
     * index): the item's partition key, and the collection's size as a range in GB. DynamoDB
     * calls the range a rough estimate; here it is the whole gigabytes below and above the exact
     * size.
     */
    public static void writeItemCollectionMetrics(JsonGenerator g, WriteResult result) throws IOException {
        TableDefinition table = result.write().table();
        Map<String, AttributeValue> item = result.newItem() != null ? result.newItem() : result.oldItem();
        String partitionKey = table.keySchema().partitionKey();
        double gigabytes = Math.floor(result.itemCollectionSize() / (1024.0 * 1024 * 1024));
        g.writeStartObject();
        g.writeFieldName("ItemCollectionKey");
        AttributeValueJson.writeItem(g, Map.of(partitionKey, item.get(partitionKey)));
        g.writeArrayFieldStart("SizeEstimateRangeGB");
        g.writeNumber(gigabytes);
        g.writeNumber(gigabytes + 1);
        g.writeEndArray();
        g.writeEndObject();
    }

    public static void writePage(JsonGenerator g, Page page, boolean countOnly, ReturnConsumedCapacity returnConsumedCapacity,
                          String tableName) throws IOException {
        if (!countOnly) {
            g.writeArrayFieldStart("Items");
            for (Map<String, AttributeValue> item : page.items()) AttributeValueJson.writeItem(g, item);
            g.writeEndArray();
        }
        g.writeNumberField("Count", page.count());
        g.writeNumberField("ScannedCount", page.scannedCount());
        if (page.lastEvaluatedKey() != null) {
            g.writeFieldName("LastEvaluatedKey");
            AttributeValueJson.writeItem(g, page.lastEvaluatedKey());
        }
        writeConsumedCapacity(g, returnConsumedCapacity, tableName, page.consumed());
    }
}
