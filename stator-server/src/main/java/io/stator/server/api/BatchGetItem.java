package io.stator.server.api;

import static io.stator.server.api.checks.ExpressionParameters.member;

import com.fasterxml.jackson.core.JsonGenerator;
import io.stator.core.error.DynamoDbException;
import io.stator.core.expression.Path;
import io.stator.core.model.AttributeValue;
import io.stator.engine.Engine;
import io.stator.engine.Items;
import io.stator.engine.table.TableDefinition;
import io.stator.server.access.Authorizer;
import io.stator.server.access.Permissions;
import io.stator.server.api.checks.ExpressionParameters;
import io.stator.server.api.checks.ItemKeys;
import io.stator.server.api.checks.ReadRequests;
import io.stator.server.api.json.PerTableResults;
import io.stator.server.protocol.AttributeValueJson;
import io.stator.server.protocol.ResponseBody;
import io.stator.server.protocol.request.BatchGetItemInput;
import io.stator.server.protocol.request.KeysAndAttributes;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;

/**
 * BatchGetItem: up to 100 items of several tables, each read on its own (see the engine's
 * {@code Items.batchGet}); what does not fit in 16 MB comes back as UnprocessedKeys, in the form
 * of the request. Checks in DynamoDB's order (dynalite, whose tests ran against DynamoDB): per
 * table its projection, keys and duplicates, the total, then the tables, then each key against
 * its table.
 */
final class BatchGetItem implements Action<BatchGetItemInput> {

    /** DynamoDB's limit on the keys of one request (API reference). */
    static final int MAX_KEYS = 100;

    /**
     * The text most regions gave in 2026 (dynamodb-conformance); a few already give the newer
     * validation framework's "Value at 'RequestItems' ...".
     */
    private static final String EMPTY_REQUEST_ITEMS = "The requestItems parameter is required for BatchGetItem";

    private final Engine engine;

    BatchGetItem(Engine engine) {
        this.engine = engine;
    }

    @Override
    public void execute(BatchGetItemInput request, Authorizer access, ResponseBody response) throws IOException {
        Map<String, KeysAndAttributes> requestItems = request.requestItems();
        if (requestItems.isEmpty()) throw DynamoDbException.validation(EMPTY_REQUEST_ITEMS);
        List<String> names = new ArrayList<>(requestItems.size());
        List<KeysAndAttributes> parts = new ArrayList<>(requestItems.size());
        List<List<Path>> projections = new ArrayList<>(requestItems.size());
        List<List<Map<String, AttributeValue>>> keys = new ArrayList<>(requestItems.size());
        int total = 0;
        for (Map.Entry<String, KeysAndAttributes> e : requestItems.entrySet()) {
            KeysAndAttributes t = e.getValue();
            ExpressionParameters.checkCombination(List.of(member("ProjectionExpression", t.projectionExpression())),
                    List.of(member("AttributesToGet", t.attributesToGet())), t.expressionAttributeNames(), null);
            projections.add(ReadRequests.projection(t.attributesToGet(), t.projectionExpression(),
                    t.expressionAttributeNames()));
            List<Map<String, AttributeValue>> tableKeys = t.keys().validated();
            for (Map<String, AttributeValue> key : tableKeys) ItemKeys.checkNoEmptyValue(key);
            if (new HashSet<>(tableKeys).size() != tableKeys.size()) {
                throw DynamoDbException.validation("Provided list of item keys contains duplicates");
            }
            total += tableKeys.size();
            if (total > MAX_KEYS) throw DynamoDbException.validation("Too many items requested for the BatchGetItem call");
            names.add(e.getKey());
            parts.add(t);
            keys.add(tableKeys);
        }
        List<Items.TableKeys> tables = new ArrayList<>(names.size());
        for (int i = 0; i < names.size(); i++) {
            if (access.enforced()) authorize(access, names.get(i), keys.get(i), projections.get(i), request);
            TableDefinition table = engine.tables().require(names.get(i));
            tables.add(new Items.TableKeys(table, keys.get(i), Boolean.TRUE.equals(parts.get(i).consistentRead()),
                    projections.get(i)));
        }

        List<Items.TableItems> results = engine.items().batchGet(tables);

        JsonGenerator g = response.json();
        PerTableResults perTable = new PerTableResults();
        g.writeObjectFieldStart("Responses");
        for (int i = 0; i < names.size(); i++) {
            Items.TableItems r = results.get(i);
            g.writeArrayFieldStart(names.get(i));
            for (Map<String, AttributeValue> item : r.items()) AttributeValueJson.writeItem(g, item);
            g.writeEndArray();
            response.returnedItems(names.get(i), r.items().size());
            if (r.consumed() != null) perTable.consumed(names.get(i), r.consumed());
        }
        g.writeEndObject();
        writeUnprocessedKeys(g, names, parts, results);
        perTable.writeConsumedCapacity(g, request.returnConsumedCapacity(), null);
    }

    /**
     * Each key is authorized on its own as dynamodb:BatchGetItem on its table, with its
     * partition key value and attributes (the Service Authorization Reference gives BatchGetItem
     * its own action; checking key by key keeps a ForAnyValue condition from letting one allowed
     * key carry the others).
     */
    private void authorize(Authorizer access, String tableName, List<Map<String, AttributeValue>> keys,
                           List<Path> projection, BatchGetItemInput request) {
        TableDefinition known = Permissions.find(engine, tableName);
        for (Map<String, AttributeValue> key : keys) {
            Permissions.item(access, engine, "BatchGetItem", tableName, null, new Permissions.Keys()
                    .leadingKeyOf(known, key).attributes(key.keySet()).paths(projection)
                    .select(Permissions.effectiveSelect(null, projection != null, false))
                    .returnConsumedCapacity(request.returnConsumedCapacity()));
        }
    }

    /** The keys not read, each table's entry in the form of the request (its projection and ConsistentRead kept). */
    private static void writeUnprocessedKeys(JsonGenerator g, List<String> names, List<KeysAndAttributes> parts,
                                             List<Items.TableItems> results) throws IOException {
        g.writeObjectFieldStart("UnprocessedKeys");
        for (int i = 0; i < names.size(); i++) {
            List<Map<String, AttributeValue>> unprocessed = results.get(i).unprocessedKeys();
            if (unprocessed.isEmpty()) continue;
            KeysAndAttributes t = parts.get(i);
            g.writeObjectFieldStart(names.get(i));
            g.writeArrayFieldStart("Keys");
            for (Map<String, AttributeValue> key : unprocessed) AttributeValueJson.writeItem(g, key);
            g.writeEndArray();
            if (t.consistentRead() != null) g.writeBooleanField("ConsistentRead", t.consistentRead());
            if (t.projectionExpression() != null) g.writeStringField("ProjectionExpression", t.projectionExpression());
            if (t.expressionAttributeNames() != null) {
                g.writeObjectFieldStart("ExpressionAttributeNames");
                for (Map.Entry<String, String> n : t.expressionAttributeNames().entrySet()) {
                    g.writeStringField(n.getKey(), n.getValue());
                }
                g.writeEndObject();
            }
            if (t.attributesToGet() != null) {
                g.writeArrayFieldStart("AttributesToGet");
                for (String name : t.attributesToGet()) g.writeString(name);
                g.writeEndArray();
            }
            g.writeEndObject();
        }
        g.writeEndObject();
    }
}
