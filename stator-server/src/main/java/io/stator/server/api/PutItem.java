package io.stator.server.api;

import com.fasterxml.jackson.core.JsonGenerator;
import io.stator.core.expression.Condition;
import io.stator.core.model.AttributeValue;
import io.stator.engine.Engine;
import io.stator.engine.item.ItemOperations.WriteResult;
import io.stator.engine.item.ItemWrite;
import io.stator.engine.table.Catalog.NotFoundMessage;
import io.stator.engine.table.TableDefinition;
import io.stator.server.protocol.ResponseBody;
import io.stator.server.protocol.Struct;
import java.io.IOException;
import java.util.List;
import java.util.Map;

/**
 * PutItem. DynamoDB's order of checks: the item's values, ReturnValues, the item's size, the
 * condition parameters, then the table, then the key attributes against the table's key schema.
 * An over-size item is refused even when the table does not exist.
 */
final class PutItem implements Action {

    static final List<String> CONDITION_EXPRESSION = List.of("ConditionExpression");
    static final List<String> EXPECTED = List.of("Expected");

    private final Engine engine;

    /**
     * Checks a put (PutItem's request, or a Put of TransactWriteItems) in DynamoDB's order and
     * returns it ready to run (a transaction's Put has no ReturnValues).
     */
    static ItemWrite prepare(Engine engine, Struct request, boolean inTransaction) {
        ExpressionParameters.checkCombination(request, CONDITION_EXPRESSION, EXPECTED);
        Map<String, AttributeValue> item = request.attributeMap("Item");
        ItemRules.checkNesting(item);
        ItemRules.returnsOldItem(request.string("ReturnValues"));
        ItemRules.checkItemSize(item);
        Condition condition = ItemRules.condition(request);
        TableDefinition table = engine.catalog().require(request.string("TableName"), NotFoundMessage.PLAIN);
        return ItemWrite.put(table, item, condition, ItemRules.returnsOldItemOnFailure(request), inTransaction);
    }

    PutItem(Engine engine) {
        this.engine = engine;
    }

    @Override
    public void execute(Struct request, ResponseBody response) throws IOException {
        ItemWrite write = prepare(engine, request, false);
        TableDefinition table = write.table();
        WriteResult result = engine.items().write(write);

        JsonGenerator g = response.json();
        ItemRules.writeOldItem(g, ItemRules.returnsOldItem(request.string("ReturnValues")), result.oldItem());
        ItemRules.writeConsumedCapacity(g, request, result.consumed());
        ItemRules.writeItemCollectionMetrics(g, request, table, result);
    }
}
