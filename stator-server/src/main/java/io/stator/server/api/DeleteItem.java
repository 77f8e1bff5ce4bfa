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
import java.util.Map;

/**
 * DeleteItem: deleting an absent item succeeds and still consumes one write unit. Checks, in
 * DynamoDB's order: the Key's values, ReturnValues, the condition parameters, the table, then
 * the Key against the table's key schema.
 */
final class DeleteItem implements Action {

    private final Engine engine;

    DeleteItem(Engine engine) {
        this.engine = engine;
    }

    /**
     * Checks a delete (DeleteItem's request, or a Delete of TransactWriteItems) in DynamoDB's
     * order and returns it ready to run.
     */
    static ItemWrite prepare(Engine engine, Struct request) {
        ExpressionParameters.checkCombination(request, PutItem.CONDITION_EXPRESSION, PutItem.EXPECTED);
        Map<String, AttributeValue> key = request.attributeMap("Key");
        ItemRules.returnsOldItem(request.string("ReturnValues"));
        Condition condition = ItemRules.condition(request);
        TableDefinition table = engine.catalog().require(request.string("TableName"), NotFoundMessage.PLAIN);
        return ItemWrite.delete(table, key, condition, ItemRules.returnsOldItemOnFailure(request));
    }

    @Override
    public void execute(Struct request, ResponseBody response) throws IOException {
        ItemWrite write = prepare(engine, request);
        TableDefinition table = write.table();
        boolean returnOld = ItemRules.returnsOldItem(request.string("ReturnValues"));
        WriteResult result = engine.items().write(write);

        JsonGenerator g = response.json();
        ItemRules.writeOldItem(g, returnOld, result.oldItem());
        ItemRules.writeConsumedCapacity(g, request, result.consumed());
        ItemRules.writeItemCollectionMetrics(g, request, table, result);
    }
}
