package io.stator.server.api;

import io.stator.core.error.DynamoDbException;
import io.stator.core.model.AttributeValue;
import io.stator.engine.Engine;
import io.stator.engine.item.KeySchemaMismatchException;
import io.stator.engine.write.ItemWrite;
import io.stator.engine.write.TransactionItems;
import io.stator.engine.write.Transactions.ClientToken;
import io.stator.engine.write.Transactions.WriteOutcome;
import io.stator.server.access.Authorizer;
import io.stator.server.access.Permissions;
import io.stator.server.api.checks.ItemKeys;
import io.stator.server.api.checks.KeyMismatches;
import io.stator.server.api.checks.WriteRequests;
import io.stator.server.api.json.PerTableResults;
import io.stator.server.protocol.RequestDigest;
import io.stator.server.protocol.ResponseBody;
import io.stator.server.protocol.request.TransactWriteItem;
import io.stator.server.protocol.request.TransactWriteItemsInput;
import io.stator.server.protocol.request.Unvalidated;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * TransactWriteItems: up to 100 Put, Update, Delete and ConditionCheck actions on distinct
 * items of any tables, applied all or none (see the engine's write pipeline).
 *
 * <p>What DynamoDB can decide from the request alone is the request's error, in this order:
 * each action's shape, expressions and item size, its table; two actions on one item; the 4 MB
 * payload. What needs the schema or the stored items is a reason of TransactionCanceledException:
 * a key that does not fit its table (ValidationError, the first one only, every other action
 * None), then the engine's reasons (a new item that cannot be made, failed conditions,
 * conflicts, the item-collection limit).
 */
final class TransactWriteItems implements Action<TransactWriteItemsInput> {

    private final Engine engine;

    TransactWriteItems(Engine engine) {
        this.engine = engine;
    }

    @Override
    public void execute(TransactWriteItemsInput request, Authorizer access, ResponseBody response) throws IOException {
        List<TransactWriteItem> actions = request.transactItems();
        int n = actions.size();
        List<ItemWrite> writes = new ArrayList<>(n);
        List<String> tableNames = new ArrayList<>(n);
        KeyMismatches mismatches = new KeyMismatches();
        TransactionItems items = new TransactionItems();
        WriteRequests.Access writeAccess = WriteRequests.Access.of(access, Permissions.TRANSACT_WRITE_ITEMS,
                request.returnConsumedCapacity());
        for (int i = 0; i < n; i++) {
            TransactWriteItem action = actions.get(i);
            checkOneAction(action);
            String tableName = tableName(action);
            tableNames.add(tableName);
            Map<String, AttributeValue> keyOrItem = action.put() != null ? action.put().item().validated()
                    : keyOf(action).validated();
            if (action.put() == null) ItemKeys.checkNoEmptyValue(keyOrItem);
            ItemWrite write = null;
            try {
                write = prepare(action, writeAccess);
            } catch (KeySchemaMismatchException e) {
                mismatches.record(i, e);
            }
            items.carry(keyOrItem);
            if (write != null) {
                items.name(write);
            } else {
                items.name(engine.tables().require(tableName), keyOrItem);
            }
            writes.add(write);
        }
        items.checkDistinct();
        items.checkPayload();
        mismatches.throwIfAny(n);

        String token = request.clientRequestToken();
        WriteOutcome outcome = engine.items().transactWrite(writes,
                token == null ? null : new ClientToken(token, RequestDigest.of(request, "ClientRequestToken")));

        PerTableResults results = PerTableResults.ofTransaction(outcome, tableNames);
        results.writeTransactionCapacity(response.json(), request.returnConsumedCapacity(), outcome.replayed());
        results.writeItemCollectionMetrics(response.json(), request.returnItemCollectionMetrics());
    }

    /** An entry of TransactItems holds exactly one action. */
    private static void checkOneAction(TransactWriteItem action) {
        int kinds = (action.conditionCheck() != null ? 1 : 0) + (action.put() != null ? 1 : 0)
                + (action.delete() != null ? 1 : 0) + (action.update() != null ? 1 : 0);
        if (kinds > 1) {
            // DynamoDB's text is not recorded; this is the one AWS's own DAX clients give.
            throw DynamoDbException.validation("TransactItems can only contain one of ConditionCheck, Put, Update or Delete");
        }
        if (kinds == 0) {
            // As DynamoDB answers in us-east-1 (dynamodb-conformance, 2026).
            throw DynamoDbException.validation("Invalid Request: TransactWriteRequest should contain Delete or Put or Update request");
        }
    }

    private static String tableName(TransactWriteItem a) {
        if (a.put() != null) return a.put().tableName();
        if (a.update() != null) return a.update().tableName();
        if (a.delete() != null) return a.delete().tableName();
        return a.conditionCheck().tableName();
    }

    private static Unvalidated<Map<String, AttributeValue>> keyOf(TransactWriteItem a) {
        if (a.update() != null) return a.update().key();
        if (a.delete() != null) return a.delete().key();
        return a.conditionCheck().key();
    }

    /**
     * Each kind of action is checked as its single-item operation checks it, and authorized as it:
     * PutItem, UpdateItem, DeleteItem, or ConditionCheckItem, with dynamodb:EnclosingOperation
     * TransactWriteItems (DynamoDB Developer Guide, "Using IAM with DynamoDB transactions").
     */
    private ItemWrite prepare(TransactWriteItem a, WriteRequests.Access access) {
        if (a.put() != null) return WriteRequests.put(engine, a.put(), access);
        if (a.update() != null) return WriteRequests.update(engine, a.update(), access);
        if (a.delete() != null) return WriteRequests.delete(engine, a.delete(), access);
        return WriteRequests.conditionCheck(engine, a.conditionCheck(), access);
    }
}
