package io.stator.server.api;

import com.fasterxml.jackson.core.JsonGenerator;
import io.stator.core.error.DynamoDbException;
import io.stator.core.model.AttributeValue;
import io.stator.engine.Engine;
import io.stator.engine.item.ItemOperations.ReadResult;
import io.stator.engine.table.Catalog.NotFoundMessage;
import io.stator.engine.table.TableDefinition;
import io.stator.server.protocol.AttributeValueJson;
import io.stator.server.protocol.ResponseBody;
import io.stator.server.protocol.Struct;
import java.io.IOException;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * GetItem. An absent item answers {} (no Item member) and still consumes the minimum read.
 * AttributesToGet narrows the item to the named top-level attributes (an item none of them is
 * in answers an empty Item). Checks, in DynamoDB's order: the Key's values, AttributesToGet, the
 * expression parameters, the table, then the Key against the table's key schema.
 */
final class GetItem implements Action {

    private final Engine engine;

    GetItem(Engine engine) {
        this.engine = engine;
    }

    @Override
    public void execute(Struct request, ResponseBody response) throws IOException {
        Map<String, AttributeValue> key = request.attributeMap("Key");
        List<String> attributesToGet = request.stringList("AttributesToGet");
        if (attributesToGet != null) {
            HashSet<String> seen = new HashSet<>();
            for (String name : attributesToGet) {
                if (!seen.add(name)) {
                    throw DynamoDbException.invalidParameter("Duplicate value in attribute name: " + name);
                }
            }
        }
        NotYetSupported.refuse(request, "ProjectionExpression", "ExpressionAttributeNames");
        boolean consistentRead = request.bool("ConsistentRead", false);
        TableDefinition table = engine.catalog().require(request.string("TableName"), NotFoundMessage.PLAIN);

        ReadResult result = engine.items().get(table, key, consistentRead);

        JsonGenerator g = response.json();
        if (result.item() != null) {
            Map<String, AttributeValue> item = result.item();
            if (attributesToGet != null) {
                Map<String, AttributeValue> projected = new LinkedHashMap<>();
                for (String name : attributesToGet) {
                    AttributeValue v = item.get(name);
                    if (v != null) projected.put(name, v);
                }
                item = projected;
            }
            g.writeFieldName("Item");
            AttributeValueJson.writeItem(g, item);
        }
        ItemRules.writeConsumedCapacity(g, request, result.consumedReadUnits());
    }
}
