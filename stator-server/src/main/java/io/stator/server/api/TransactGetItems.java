package io.stator.server.api;

import io.stator.core.expression.Path;
import io.stator.core.model.AttributeValue;
import io.stator.engine.Engine;
import io.stator.engine.Items;
import io.stator.engine.item.KeyPaths;
import io.stator.engine.item.KeySchemaMismatchException;
import io.stator.engine.item.PrimaryKeys;
import io.stator.engine.read.Page;
import io.stator.engine.table.TableDefinition;
import io.stator.engine.write.TransactionItems;
import io.stator.server.access.Authorizer;
import io.stator.server.access.Permissions;
import io.stator.server.api.checks.ItemKeys;
import io.stator.server.api.checks.KeyMismatches;
import io.stator.server.api.checks.ReadRequests;
import io.stator.server.api.json.PerTableResults;
import io.stator.server.protocol.ResponseBody;
import io.stator.server.protocol.request.Get;
import io.stator.server.protocol.request.TransactGetItemsInput;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * TransactGetItems: up to 100 items of any tables, read from one snapshot, so that no write
 * transaction is seen in part (see the engine's {@code Items.transactGet}). Errors as for
 * TransactWriteItems: the request's own first (projections, tables, an item named twice), then
 * a key that does not fit its table as the action's ValidationError.
 */
final class TransactGetItems implements Action<TransactGetItemsInput> {

    private final Engine engine;

    TransactGetItems(Engine engine) {
        this.engine = engine;
    }

    @Override
    public void execute(TransactGetItemsInput request, Authorizer access, ResponseBody response) throws IOException {
        int n = request.transactItems().size();
        List<Items.Get> gets = new ArrayList<>(n);
        List<String> tableNames = new ArrayList<>(n);
        TransactionItems named = new TransactionItems();
        KeyMismatches mismatches = new KeyMismatches();
        for (int i = 0; i < n; i++) {
            Get get = request.transactItems().get(i).get();
            Map<String, AttributeValue> key = get.key().validated();
            ItemKeys.checkNoEmptyValue(key);
            List<Path> projection = ReadRequests.projection(null, get.projectionExpression(),
                    get.expressionAttributeNames());
            if (access.enforced()) {
                // Authorized as GetItem, enclosed in TransactGetItems ("Using IAM with DynamoDB transactions").
                Permissions.item(access, engine, "GetItem", get.tableName(), null, new Permissions.Keys()
                        .leadingKeyOf(Permissions.find(engine, get.tableName()), key).attributes(key.keySet())
                        .paths(projection).select(Permissions.effectiveSelect(null, projection != null, false))
                        .returnConsumedCapacity(request.returnConsumedCapacity())
                        .enclosingOperation(Permissions.TRANSACT_GET_ITEMS));
            }
            TableDefinition table = engine.tables().require(get.tableName());
            if (projection != null) KeyPaths.checkNoNestedKeyPaths(table.keySchema(), projection);
            try {
                PrimaryKeys.checkKey(table.keySchema(), key);
            } catch (KeySchemaMismatchException e) {
                mismatches.record(i, e);
            }
            named.name(table, key);
            gets.add(new Items.Get(table, key, projection));
            tableNames.add(get.tableName());
        }
        // Refused by DynamoDB (dynamodb-conformance); its text is not recorded, this is the one
        // TransactWriteItems gives. Checked after every table, as TransactWriteItems checks it.
        named.checkDistinct();
        mismatches.throwIfAny(n);

        List<Page> results = engine.items().transactGet(gets);

        List<Map<String, AttributeValue>> items = new ArrayList<>(n);
        for (Page r : results) items.add(r.item());
        PerTableResults.writeTransactGet(response.json(), results, items, tableNames, request.returnConsumedCapacity());
    }
}
