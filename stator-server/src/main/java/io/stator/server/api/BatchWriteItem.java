package io.stator.server.api;

import com.fasterxml.jackson.core.JsonGenerator;
import io.stator.core.error.DynamoDbException;
import io.stator.core.model.AttributeValue;
import io.stator.engine.Engine;
import io.stator.engine.item.ItemLimits;
import io.stator.engine.item.KeySchemaMismatchException;
import io.stator.engine.item.LimitedItem;
import io.stator.engine.item.PrimaryKeys;
import io.stator.engine.table.TableDefinition;
import io.stator.engine.write.ItemWrite;
import io.stator.engine.write.ReturnValues;
import io.stator.engine.write.WriteResult;
import io.stator.server.access.Authorizer;
import io.stator.server.access.Permissions;
import io.stator.server.api.checks.ItemKeys;
import io.stator.server.api.json.PerTableResults;
import io.stator.server.protocol.AttributeValueJson;
import io.stator.server.protocol.ResponseBody;
import io.stator.server.protocol.request.BatchWriteItemInput;
import io.stator.server.protocol.request.ReturnConsumedCapacity;
import io.stator.server.protocol.request.WriteRequest;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * BatchWriteItem: up to 25 puts and deletes over several tables, without conditions. The whole
 * request is checked before anything is written (dynalite's order, from its tests against
 * DynamoDB: each request's values and item size; then per table, the table, each key against
 * its schema, and no item named twice); then each write is applied on its own (see the engine's
 * {@code Items.batchWrite}).
 */
final class BatchWriteItem implements Action<BatchWriteItemInput> {

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
    private record Write(LimitedItem put, Map<String, AttributeValue> key) {

        /** A put's item; null for a delete. */
        Map<String, AttributeValue> item() {
            return put == null ? null : put.values();
        }
    }

    @Override
    public void execute(BatchWriteItemInput request, Authorizer access, ResponseBody response) throws IOException {
        Map<String, List<Write>> byTable = new LinkedHashMap<>();
        int total = 0;
        Map<String, List<WriteRequest>> requestItems = request.requestItems();
        if (requestItems.isEmpty()) throw DynamoDbException.validation(EMPTY_REQUEST_ITEMS);
        for (Map.Entry<String, List<WriteRequest>> e : requestItems.entrySet()) {
            List<Write> writes = new ArrayList<>(e.getValue().size());
            for (WriteRequest w : e.getValue()) writes.add(read(w));
            total += writes.size();
            byTable.put(e.getKey(), writes);
        }
        if (total > MAX_REQUESTS) {
            // DynamoDB's text for more than 25 requests over several tables is not recorded;
            // this is DynamoDB Local's, worded as BatchGetItem's.
            throw DynamoDbException.validation("Too many items requested for the BatchWriteItem call");
        }
        List<ItemWrite> plan = new ArrayList<>(total);
        List<String> planTables = new ArrayList<>(total);
        List<Write> planRequests = new ArrayList<>(total);
        for (Map.Entry<String, List<Write>> e : byTable.entrySet()) {
            if (access.enforced()) authorize(access, e.getKey(), e.getValue(), request.returnConsumedCapacity());
            TableDefinition table = engine.tables().require(e.getKey());
            List<Object> identities = new ArrayList<>();
            for (Write w : e.getValue()) {
                ItemWrite write = check(table, w);
                plan.add(write);
                planTables.add(e.getKey());
                planRequests.add(w);
                identities.add(ItemKeys.identity(write));
            }
            ItemKeys.checkDistinct(identities, "Provided list of item keys contains duplicates");
        }

        List<WriteResult> written = engine.items().batchWrite(plan);

        PerTableResults results = new PerTableResults();
        Map<String, List<Write>> unprocessed = new LinkedHashMap<>();
        for (int i = 0; i < plan.size(); i++) {
            if (written.get(i) != null) {
                results.wrote(planTables.get(i), written.get(i));
            } else {
                unprocessed.computeIfAbsent(planTables.get(i), t -> new ArrayList<>()).add(planRequests.get(i));
            }
        }
        JsonGenerator g = response.json();
        g.writeObjectFieldStart("UnprocessedItems");
        for (Map.Entry<String, List<Write>> e : unprocessed.entrySet()) {
            g.writeArrayFieldStart(e.getKey());
            for (Write w : e.getValue()) writeRequest(g, w);
            g.writeEndArray();
        }
        g.writeEndObject();
        results.writeConsumedCapacity(g, request.returnConsumedCapacity(), null);
        results.writeItemCollectionMetrics(g, request.returnItemCollectionMetrics());
    }

    /**
     * Each request is authorized on its own as dynamodb:BatchWriteItem on its table (the action the
     * Service Authorization Reference maps BatchWriteItem to, and the one DynamoDB's
     * fine-grained access examples list), with its item's partition key value and attribute
     * names (the item's for a put, the key's for a delete).
     */
    private void authorize(Authorizer access, String tableName, List<Write> writes,
                           ReturnConsumedCapacity returnConsumedCapacity) {
        TableDefinition known = Permissions.find(engine, tableName);
        for (Write w : writes) {
            Map<String, AttributeValue> values = w.item() != null ? w.item() : w.key();
            Permissions.item(access, engine, "BatchWriteItem", tableName, null, new Permissions.Keys()
                    .leadingKeyOf(known, values).attributes(values.keySet())
                    .returnConsumedCapacity(returnConsumedCapacity));
        }
    }

    /** A WriteRequest's own checks: one of PutRequest and DeleteRequest, valid values, the item's size. */
    private static Write read(WriteRequest w) {
        if ((w.putRequest() == null) == (w.deleteRequest() == null)) {
            // DynamoDB's text for an empty WriteRequest (dynalite's tests); for one with both
            // its text is not recorded, and this one is kept.
            throw DynamoDbException.validation("Supplied AttributeValue has more than one datatypes set, must contain "
                    + "exactly one of the supported datatypes");
        }
        if (w.putRequest() != null) {
            return new Write(ItemLimits.check(w.putRequest().item().validated()), null);
        }
        Map<String, AttributeValue> key = w.deleteRequest().key().validated();
        ItemKeys.checkNoEmptyValue(key);
        return new Write(null, key);
    }

    /**
     * A request against its table: its key (DynamoDB words every mismatch, in an item as in a
     * key, as a key that does not match the schema) and its index keys.
     */
    private static ItemWrite check(TableDefinition table, Write w) {
        try {
            if (w.item() == null) return ItemWrite.delete(table, w.key(), null, ReturnValues.NONE, false);
            return ItemWrite.put(table, w.put(), null, ReturnValues.NONE, false, false);
        } catch (KeySchemaMismatchException e) {
            throw PrimaryKeys.doesNotMatchSchema();
        }
    }

    private static void writeRequest(JsonGenerator g, Write w) throws IOException {
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
