package io.stator.server.api;

import com.fasterxml.jackson.core.JsonGenerator;
import io.stator.core.error.DynamoDbException;
import io.stator.core.expression.Condition;
import io.stator.core.expression.ExpressionContext;
import io.stator.core.expression.ExpressionKind;
import io.stator.core.item.ItemSize;
import io.stator.core.model.AttributeValue;
import io.stator.engine.Engine;
import io.stator.engine.item.ItemOperations.WriteResult;
import io.stator.engine.item.ItemWrite;
import io.stator.engine.item.KeySchemaMismatchException;
import io.stator.engine.item.Transactions.ClientToken;
import io.stator.engine.item.Transactions.WriteOutcome;
import io.stator.engine.table.Catalog.NotFoundMessage;
import io.stator.engine.table.TableDefinition;
import io.stator.server.protocol.ResponseBody;
import io.stator.server.protocol.Struct;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * TransactWriteItems: up to 100 Put, Update, Delete and ConditionCheck actions on distinct
 * items of any tables, applied all or none (see the engine's Transactions).
 *
 * <p>What DynamoDB can decide from the request alone is the request's error, in this order:
 * each action's shape, expressions and item size, its table; two actions on one item; the 4 MB
 * payload. What needs the schema or the stored items is a reason of TransactionCanceledException:
 * a key that does not fit its table (ValidationError, the first one only, every other action
 * None), then the engine's reasons (a new item that cannot be made, failed conditions,
 * conflicts, the item-collection limit).
 */
final class TransactWriteItems implements Action {

    /** DynamoDB's limit on the items of a transaction (developer guide, "Amazon DynamoDB Transactions"). */
    static final long MAX_PAYLOAD_BYTES = 4L * 1024 * 1024;

    private final Engine engine;

    TransactWriteItems(Engine engine) {
        this.engine = engine;
    }

    @Override
    public void execute(Struct request, ResponseBody response) throws IOException {
        List<Struct> transactItems = request.structList("TransactItems");
        int n = transactItems.size();
        List<ItemWrite> writes = new ArrayList<>(n);
        List<String> tableNames = new ArrayList<>(n);
        KeyMismatches mismatches = new KeyMismatches();
        List<Object> identities = new ArrayList<>(n);
        long payload = 0;
        for (int i = 0; i < n; i++) {
            Struct action = transactItems.get(i);
            String kind = kindOf(action);
            Struct s = action.struct(kind);
            tableNames.add(s.string("TableName"));
            Map<String, AttributeValue> keyOrItem = kind.equals("Put") ? s.attributeMap("Item") : s.attributeMap("Key");
            if (!kind.equals("Put")) ItemKeys.checkNoEmptyValue(keyOrItem);
            ItemWrite write = null;
            try {
                write = prepare(kind, s);
            } catch (KeySchemaMismatchException e) {
                mismatches.record(i, e);
            }
            payload += ItemSize.of(keyOrItem);
            TableDefinition table = write != null ? write.table()
                    : engine.catalog().require(s.string("TableName"), NotFoundMessage.PLAIN);
            identities.add(write != null ? ItemKeys.identity(write) : ItemKeys.identity(table, keyOrItem));
            writes.add(write);
        }
        ItemKeys.checkDistinct(identities, ItemKeys.TRANSACTION_DUPLICATE);
        if (payload > MAX_PAYLOAD_BYTES) {
            // DynamoDB's text for this is not recorded anywhere we could find; it is known to
            // speak of the transaction payload's size.
            throw DynamoDbException.validation("Transaction payload size cannot exceed 4 MB");
        }
        mismatches.throwIfAny(n);

        String token = request.string("ClientRequestToken");
        WriteOutcome outcome = engine.transactions().write(writes,
                token == null ? null : new ClientToken(token, request.digest()));

        PerTableResults results = new PerTableResults();
        for (int i = 0; i < n; i++) {
            WriteResult r = outcome.results().get(i);
            if (outcome.replayed()) {
                results.consumed(tableNames.get(i), r.consumed());
            } else {
                results.wrote(tableNames.get(i), writes.get(i).table(), r);
            }
        }
        JsonGenerator g = response.json();
        // A replay reads the items instead of writing them, and is billed so (API reference).
        results.writeConsumedCapacity(g, request, outcome.replayed() ? "ReadCapacityUnits" : "WriteCapacityUnits");
        results.writeItemCollectionMetrics(g, request);
    }

    /** The one action an entry of TransactItems holds. */
    private static String kindOf(Struct action) {
        String kind = null;
        for (String k : new String[] {"ConditionCheck", "Put", "Delete", "Update"}) {
            if (!action.has(k)) continue;
            if (kind != null) {
                // DynamoDB's text is not recorded; this is the one AWS's own DAX clients give.
                throw DynamoDbException.validation("TransactItems can only contain one of ConditionCheck, Put, Update or Delete");
            }
            kind = k;
        }
        if (kind == null) {
            // As DynamoDB answers in us-east-1 (dynamodb-conformance, 2026).
            throw DynamoDbException.validation("Invalid Request: TransactWriteRequest should contain Delete or Put or Update request");
        }
        return kind;
    }

    /** Each kind of action is checked as its single-item operation checks it. */
    private ItemWrite prepare(String kind, Struct s) {
        return switch (kind) {
            case "Put" -> PutItem.prepare(engine, s, true);
            case "Update" -> UpdateItem.prepare(engine, s).write();
            case "Delete" -> DeleteItem.prepare(engine, s);
            default -> {
                Map<String, AttributeValue> key = s.attributeMap("Key");
                ExpressionContext expressions = ExpressionParameters.context(s);
                Condition condition = expressions.condition(ExpressionKind.CONDITION, s.string("ConditionExpression"));
                expressions.checkAllUsed();
                TableDefinition table = engine.catalog().require(s.string("TableName"), NotFoundMessage.PLAIN);
                yield ItemWrite.conditionCheck(table, key, condition, ItemRules.returnsOldItemOnFailure(s));
            }
        };
    }
}
