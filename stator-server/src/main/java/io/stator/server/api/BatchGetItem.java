package io.stator.server.api;

import com.fasterxml.jackson.core.JsonGenerator;
import io.stator.core.error.DynamoDbException;
import io.stator.core.expression.Path;
import io.stator.core.expression.Projector;
import io.stator.core.item.ItemSize;
import io.stator.core.model.AttributeValue;
import io.stator.engine.Engine;
import io.stator.engine.item.ItemOperations.ReadResult;
import io.stator.engine.item.PrimaryKeys;
import io.stator.engine.table.Catalog.NotFoundMessage;
import io.stator.engine.table.TableDefinition;
import io.stator.server.protocol.AttributeValueJson;
import io.stator.server.protocol.ResponseBody;
import io.stator.server.protocol.Struct;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;

/**
 * BatchGetItem: up to 100 items of several tables, each read on its own (a batch is not a
 * snapshot), at most 16 MB of them per response; the rest come back as UnprocessedKeys, in
 * the form of the request, for the client to ask again. Checks in DynamoDB's order (dynalite,
 * whose tests ran against DynamoDB): per table its projection, keys and duplicates, the total,
 * then the tables, then each key against its table.
 */
final class BatchGetItem implements Action {

    /** DynamoDB's limit on the keys of one request (API reference). */
    static final int MAX_KEYS = 100;

    /**
     * DynamoDB returns at most 16 MB of items. In decimal megabytes: the API reference's example
     * (a hundred 300 KB items, 52 returned) rules out 16 MiB.
     */
    static final long MAX_RESPONSE_BYTES = 16_000_000;

    /**
     * The text most regions gave in 2026 (dynamodb-conformance); a few already give the newer
     * validation framework's "Value at 'RequestItems' ...".
     */
    private static final String EMPTY_REQUEST_ITEMS = "The requestItems parameter is required for BatchGetItem";

    private final Engine engine;

    BatchGetItem(Engine engine) {
        this.engine = engine;
    }

    /** One table's part of the request. */
    private record TableRequest(String name, Struct request, List<Map<String, AttributeValue>> keys,
                                List<Path> projection) {}

    @Override
    public void execute(Struct request, ResponseBody response) throws IOException {
        List<TableRequest> tables = new ArrayList<>();
        int total = 0;
        Map<String, Struct> requestItems = request.structMap("RequestItems");
        if (requestItems.isEmpty()) throw DynamoDbException.validation(EMPTY_REQUEST_ITEMS);
        for (Map.Entry<String, Struct> e : requestItems.entrySet()) {
            Struct s = e.getValue();
            ExpressionParameters.checkCombination(s, GetItem.PROJECTION_EXPRESSION, GetItem.ATTRIBUTES_TO_GET);
            List<Path> projection = GetItem.projection(s);
            List<Map<String, AttributeValue>> keys = s.attributeMapList("Keys");
            for (Map<String, AttributeValue> key : keys) ItemKeys.checkNoEmptyValue(key);
            if (new HashSet<>(keys).size() != keys.size()) {
                throw DynamoDbException.validation("Provided list of item keys contains duplicates");
            }
            total += keys.size();
            if (total > MAX_KEYS) throw DynamoDbException.validation("Too many items requested for the BatchGetItem call");
            tables.add(new TableRequest(e.getKey(), s, keys, projection));
        }
        // Per table, in request order (lists by position: a map keyed by the request would hash every key).
        List<TableDefinition> definitions = new ArrayList<>(tables.size());
        for (TableRequest t : tables) definitions.add(engine.catalog().require(t.name(), NotFoundMessage.PLAIN));
        for (int i = 0; i < tables.size(); i++) {
            TableRequest t = tables.get(i);
            TableDefinition table = definitions.get(i);
            for (Map<String, AttributeValue> key : t.keys()) PrimaryKeys.checkKey(table.keySchema(), key);
            if (t.projection() != null) KeyPaths.checkNoNestedKeyPaths(table.keySchema(), t.projection());
        }

        JsonGenerator g = response.json();
        PerTableResults perTable = new PerTableResults();
        List<List<Map<String, AttributeValue>>> unprocessed = new ArrayList<>(tables.size());
        boolean cut = false;
        long bytes = 0;
        g.writeObjectFieldStart("Responses");
        for (int i = 0; i < tables.size(); i++) {
            TableRequest t = tables.get(i);
            TableDefinition table = definitions.get(i);
            List<Map<String, AttributeValue>> left = new ArrayList<>();
            unprocessed.add(left);
            boolean consistentRead = t.request().bool("ConsistentRead", false);
            g.writeArrayFieldStart(t.name());
            for (Map<String, AttributeValue> key : t.keys()) {
                if (cut) {
                    left.add(key);
                    continue;
                }
                ReadResult r = engine.items().get(table, key, consistentRead);
                long size = r.item() == null ? 0 : ItemSize.of(r.item());
                if (bytes + size > MAX_RESPONSE_BYTES) {
                    cut = true;
                    left.add(key);
                    continue;
                }
                bytes += size;
                perTable.consumed(t.name(), r.consumed());
                if (r.item() != null) {
                    AttributeValueJson.writeItem(g,
                            t.projection() == null ? r.item() : Projector.project(r.item(), t.projection()));
                }
            }
            g.writeEndArray();
        }
        g.writeEndObject();
        writeUnprocessedKeys(g, tables, unprocessed);
        perTable.writeConsumedCapacity(g, request, null);
    }

    /**
     * The keys not read ({@code unprocessed}, by the position of their table in {@code tables}),
     * each table's entry in the form of the request (its projection and ConsistentRead kept).
     */
    private static void writeUnprocessedKeys(JsonGenerator g, List<TableRequest> tables,
                                             List<List<Map<String, AttributeValue>>> unprocessed) throws IOException {
        g.writeObjectFieldStart("UnprocessedKeys");
        for (int i = 0; i < tables.size(); i++) {
            if (unprocessed.get(i).isEmpty()) continue;
            Struct s = tables.get(i).request();
            g.writeObjectFieldStart(tables.get(i).name());
            g.writeArrayFieldStart("Keys");
            for (Map<String, AttributeValue> key : unprocessed.get(i)) AttributeValueJson.writeItem(g, key);
            g.writeEndArray();
            if (s.has("ConsistentRead")) g.writeBooleanField("ConsistentRead", s.bool("ConsistentRead"));
            if (s.has("ProjectionExpression")) g.writeStringField("ProjectionExpression", s.string("ProjectionExpression"));
            if (s.has("ExpressionAttributeNames")) {
                g.writeObjectFieldStart("ExpressionAttributeNames");
                for (Map.Entry<String, String> n : s.stringMap("ExpressionAttributeNames").entrySet()) {
                    g.writeStringField(n.getKey(), n.getValue());
                }
                g.writeEndObject();
            }
            if (s.has("AttributesToGet")) {
                g.writeArrayFieldStart("AttributesToGet");
                for (String name : s.stringList("AttributesToGet")) g.writeString(name);
                g.writeEndArray();
            }
            g.writeEndObject();
        }
        g.writeEndObject();
    }
}
