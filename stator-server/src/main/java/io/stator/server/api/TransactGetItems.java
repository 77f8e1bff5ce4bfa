package io.stator.server.api;

import com.fasterxml.jackson.core.JsonGenerator;
import io.stator.core.error.DynamoDbException;
import io.stator.core.expression.Path;
import io.stator.core.expression.Projector;
import io.stator.core.item.ItemSize;
import io.stator.core.model.AttributeValue;
import io.stator.engine.Engine;
import io.stator.engine.item.ItemOperations.ReadResult;
import io.stator.engine.item.KeySchemaMismatchException;
import io.stator.engine.item.PrimaryKeys;
import io.stator.engine.item.Transactions.GetAction;
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
import java.util.Set;

/**
 * TransactGetItems: up to 100 items of any tables, read from one snapshot, so that no write
 * transaction is seen in part. Errors as for TransactWriteItems: the request's own first
 * (projections, tables, an item named twice), then a key that does not fit its table as the
 * action's ValidationError.
 */
final class TransactGetItems implements Action {

    private final Engine engine;

    TransactGetItems(Engine engine) {
        this.engine = engine;
    }

    @Override
    public void execute(Struct request, ResponseBody response) throws IOException {
        List<Struct> transactItems = request.structList("TransactItems");
        int n = transactItems.size();
        List<GetAction> gets = new ArrayList<>(n);
        List<List<Path>> projections = new ArrayList<>(n);
        List<String> tableNames = new ArrayList<>(n);
        List<Object> identities = new ArrayList<>(n);
        KeyMismatches mismatches = new KeyMismatches();
        for (int i = 0; i < n; i++) {
            Struct get = transactItems.get(i).struct("Get");
            Map<String, AttributeValue> key = get.attributeMap("Key");
            ItemKeys.checkNoEmptyValue(key);
            List<Path> projection = GetItem.projection(get);
            TableDefinition table = engine.catalog().require(get.string("TableName"), NotFoundMessage.PLAIN);
            if (projection != null) KeyPaths.checkNoNestedKeyPaths(table.keySchema(), projection);
            try {
                PrimaryKeys.checkKey(table.keySchema(), key);
            } catch (KeySchemaMismatchException e) {
                mismatches.record(i, e);
            }
            identities.add(ItemKeys.identity(table, key));
            gets.add(new GetAction(table, key));
            projections.add(projection);
            tableNames.add(get.string("TableName"));
        }
        // Refused by DynamoDB (dynamodb-conformance); its text is not recorded, this is the one
        // TransactWriteItems gives. Checked after every table, as TransactWriteItems checks it.
        ItemKeys.checkDistinct(identities, ItemKeys.TRANSACTION_DUPLICATE);
        mismatches.throwIfAny(n);

        List<ReadResult> results = engine.transactions().get(gets);
        long bytes = 0;
        for (ReadResult r : results) bytes += r.item() == null ? 0 : ItemSize.of(r.item());
        if (bytes > TransactWriteItems.MAX_PAYLOAD_BYTES) {
            throw DynamoDbException.validation("Transaction payload size cannot exceed 4 MB");
        }

        JsonGenerator g = response.json();
        g.writeArrayFieldStart("Responses");
        PerTableResults perTable = new PerTableResults();
        for (int i = 0; i < n; i++) {
            ReadResult r = results.get(i);
            perTable.consumed(tableNames.get(i), r.consumed());
            g.writeStartObject();
            if (r.item() != null) {
                List<Path> projection = projections.get(i);
                g.writeFieldName("Item");
                AttributeValueJson.writeItem(g, projection == null ? r.item() : Projector.project(r.item(), projection));
            }
            g.writeEndObject();
        }
        g.writeEndArray();
        perTable.writeConsumedCapacity(g, request, "ReadCapacityUnits");
    }
}
