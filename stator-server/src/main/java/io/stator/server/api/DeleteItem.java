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

/** DeleteItem: deleting an absent item succeeds and still consumes one write unit. */
final class DeleteItem implements Action {

    private final Engine engine;

    DeleteItem(Engine engine) {
        this.engine = engine;
    }

    @Override
    public void execute(Struct request, ResponseBody response) throws IOException {
        NotYetSupported.refuse(request, "ConditionExpression", "Expected", "ConditionalOperator",
                "ExpressionAttributeNames", "ExpressionAttributeValues", "ReturnValuesOnConditionCheckFailure");
        Map<String, AttributeValue> key = request.attributeMap("Key");
        boolean returnOld = ItemRules.returnsOldItem(request.string("ReturnValues"));
        TableDefinition table = engine.catalog().require(request.string("TableName"), NotFoundMessage.PLAIN);

        WriteResult result = engine.items().delete(table, key);

        JsonGenerator g = response.json();
        if (returnOld && result.oldItem() != null) {
            g.writeFieldName("Attributes");
            AttributeValueJson.writeItem(g, result.oldItem());
        }
        ItemRules.writeConsumedCapacity(g, request.string("ReturnConsumedCapacity"), table.name(),
                result.consumedWriteUnits());
    }
}
