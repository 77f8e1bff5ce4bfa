package io.stator.server.api;

import com.fasterxml.jackson.core.JsonGenerator;
import io.stator.core.model.AttributeValue;
import io.stator.engine.Engine;
import io.stator.engine.item.ItemOperations.WriteResult;
import io.stator.engine.table.Catalog.NotFoundMessage;
import io.stator.engine.table.TableDefinition;
import io.stator.server.protocol.AttributeValueJson;
import io.stator.server.protocol.ResponseBody;
import io.stator.server.protocol.Struct;
import java.io.IOException;
import java.util.Map;

/**
 * PutItem. DynamoDB's order of checks: the item's values, ReturnValues, the item's size, then
 * the table, then the key attributes against the table's key schema.
 */
final class PutItem implements Action {

    private final Engine engine;

    PutItem(Engine engine) {
        this.engine = engine;
    }

    @Override
    public void execute(Struct request, ResponseBody response) throws IOException {
        NotYetSupported.refuse(request, "ConditionExpression", "Expected", "ConditionalOperator",
                "ExpressionAttributeNames", "ExpressionAttributeValues");
        Map<String, AttributeValue> item = request.attributeMap("Item");
        boolean returnOld = ItemRules.returnsOldItem(request.string("ReturnValues"));
        ItemRules.checkNesting(item);
        ItemRules.checkItemSize(item);
        TableDefinition table = engine.catalog().require(request.string("TableName"), NotFoundMessage.PLAIN);

        WriteResult result = engine.items().put(table, item);

        JsonGenerator g = response.json();
        if (returnOld && result.oldItem() != null) {
            g.writeFieldName("Attributes");
            AttributeValueJson.writeItem(g, result.oldItem());
        }
        ItemRules.writeConsumedCapacity(g, request.string("ReturnConsumedCapacity"), table.name(),
                result.consumedWriteUnits());
    }
}
