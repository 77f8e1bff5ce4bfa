package io.stator.server.api;

import com.fasterxml.jackson.core.JsonGenerator;
import io.stator.core.error.DynamoDbException;
import io.stator.core.error.ErrorType;
import io.stator.core.model.AttributeValue;
import io.stator.engine.Engine;
import io.stator.engine.item.ItemOperations.WriteResult;
import io.stator.engine.item.ItemWrite;
import io.stator.engine.item.KeySchemaMismatchException;
import io.stator.engine.item.PrimaryKeys;
import io.stator.engine.table.Catalog.NotFoundMessage;
import io.stator.engine.table.TableDefinition;
import io.stator.server.protocol.AttributeValueJson;
import io.stator.server.protocol.ResponseBody;
import io.stator.server.protocol.Struct;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * BatchWriteItem: up to 25 puts and deletes over several tables, without conditions. The whole
 * request is checked before anything is written (dynalite's order, from its tests against
 * DynamoDB: each request's values and item size; then per table, the table, each key against
 * its schema, and no item named twice); then each write is applied on its own, atomic by
 * itself but not with the others, as DynamoDB's are.
 */
final class BatchWriteItem implements Action {

    /** DynamoDB's limit on the requests of one call (API reference). */
    static final int MAX_REQUESTS = 25;

    /**
     * The text most regions gave in 2026 (dynamodb-conformance); a few already give the newer
     * validation framework's "Value at 'RequestItems' ...".
     */
    private static final String EMPTY_REQUEST_ITEMS = "The requestItems parameter is required for BatchWriteItem";

    private final Engine engine;

    BatchWriteItem(Engine engine) {
        this.engine = engine;
    }

    /** One request of the batch: a put (item) or a delete (key). */
    private record WriteRequest(Map<String, AttributeValue> item, Map<String, AttributeValue> key) {}

    @Override
    public void execute(Struct request, ResponseBody response) throws IOException {
        Map<String, List<WriteRequest>> byTable = new LinkedHashMap<>();
        int total = 0;
        Map<String, List<Struct>> requestItems = request.structListMap("RequestItems");
        if (requestItems.isEmpty()) throw DynamoDbException.validation(EMPTY_REQUEST_ITEMS);
        for (Map.Entry<String, List<Struct>> e : requestItems.entrySet()) {
            List<WriteRequest> writes = new ArrayList<>(e.getValue().size());
            for (Struct w : e.getValue()) writes.add(read(w));
            total += writes.size();
            byTable.put(e.getKey(), writes);
        }
        if (total > MAX_REQUESTS) {
            // DynamoDB's text for more than 25 requests over several tables is not recorded;
            // this is DynamoDB Local's, worded as BatchGetItem's.
            throw DynamoDbException.validation("Too many items requested for the BatchWriteItem call");
        }
        Map<String, TableDefinition> tables = new LinkedHashMap<>();
        List<ItemWrite> plan = new ArrayList<>(total);
        List<String> planTables = new ArrayList<>(total);
        List<WriteRequest> planRequests = new ArrayList<>(total);
        for (Map.Entry<String, List<WriteRequest>> e : byTable.entrySet()) {
            TableDefinition table = engine.catalog().require(e.getKey(), NotFoundMessage.PLAIN);
            tables.put(e.getKey(), table);
            List<Object> identities = new ArrayList<>();
            for (WriteRequest w : e.getValue()) {
                ItemWrite write = check(table, w);
                plan.add(write);
                planTables.add(e.getKey());
                planRequests.add(w);
                identities.add(ItemKeys.identity(write));
            }
            ItemKeys.checkDistinct(identities, "Provided list of item keys contains duplicates");
        }

        PerTableResults results = new PerTableResults();
        Map<String, List<WriteRequest>> unprocessed = new LinkedHashMap<>();
        for (int i = 0; i < plan.size(); i++) {
            String tableName = planTables.get(i);
            try {
                WriteResult r = engine.items().write(plan.get(i));
                results.wrote(tableName, tables.get(tableName), r);
            } catch (DynamoDbException e) {
                // A write that meets a transaction on its item is left for the client to retry,
                // as writes DynamoDB could not do now are.
                if (e.type() != ErrorType.TRANSACTION_CONFLICT) throw e;
                unprocessed.computeIfAbsent(tableName, t -> new ArrayList<>()).add(planRequests.get(i));
            }
        }

        JsonGenerator g = response.json();
        g.writeObjectFieldStart("UnprocessedItems");
        for (Map.Entry<String, List<WriteRequest>> e : unprocessed.entrySet()) {
            g.writeArrayFieldStart(e.getKey());
            for (WriteRequest w : e.getValue()) writeRequest(g, w);
            g.writeEndArray();
        }
        g.writeEndObject();
        results.writeConsumedCapacity(g, request, null);
        results.writeItemCollectionMetrics(g, request);
    }

    /** A WriteRequest's own checks: one of PutRequest and DeleteRequest, valid values, the item's size. */
    private static WriteRequest read(Struct w) {
        Struct put = w.struct("PutRequest");
        Struct delete = w.struct("DeleteRequest");
        if ((put == null) == (delete == null)) {
            // DynamoDB's text for an empty WriteRequest (dynalite's tests); for one with both
            // its text is not recorded, and this one is kept.
            throw DynamoDbException.validation("Supplied AttributeValue has more than one datatypes set, must contain "
                    + "exactly one of the supported datatypes");
        }
        if (put != null) {
            Map<String, AttributeValue> item = put.attributeMap("Item");
            ItemRules.checkNesting(item);
            ItemRules.checkItemSize(item);
            return new WriteRequest(item, null);
        }
        Map<String, AttributeValue> key = delete.attributeMap("Key");
        ItemKeys.checkNoEmptyValue(key);
        return new WriteRequest(null, key);
    }

    /**
     * A request against its table: its key (DynamoDB words every mismatch, in an item as in a
     * key, as a key that does not match the schema) and its index keys.
     */
    private static ItemWrite check(TableDefinition table, WriteRequest w) {
        try {
            if (w.item() == null) return ItemWrite.delete(table, w.key(), null, false);
            return ItemWrite.put(table, w.item(), null, false, false);
        } catch (KeySchemaMismatchException e) {
            throw PrimaryKeys.doesNotMatchSchema();
        }
    }

    private static void writeRequest(JsonGenerator g, WriteRequest w) throws IOException {
        g.writeStartObject();
        if (w.item() != null) {
            g.writeObjectFieldStart("PutRequest");
            g.writeFieldName("Item");
            AttributeValueJson.writeItem(g, w.item());
        } else {
            g.writeObjectFieldStart("DeleteRequest");
            g.writeFieldName("Key");
            AttributeValueJson.writeItem(g, w.key());
        }
        g.writeEndObject();
        g.writeEndObject();
    }
}
