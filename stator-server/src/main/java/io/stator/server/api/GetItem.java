package io.stator.server.api;

import static io.stator.server.api.checks.ExpressionParameters.member;

import com.fasterxml.jackson.core.JsonGenerator;
import io.stator.core.expression.Path;
import io.stator.core.model.AttributeValue;
import io.stator.engine.Engine;
import io.stator.engine.read.Page;
import io.stator.engine.table.TableDefinition;
import io.stator.server.access.Authorizer;
import io.stator.server.access.Permissions;
import io.stator.server.api.checks.ExpressionParameters;
import io.stator.server.api.checks.ReadRequests;
import io.stator.server.api.json.ItemResponses;
import io.stator.server.protocol.AttributeValueJson;
import io.stator.server.protocol.ResponseBody;
import io.stator.server.protocol.request.GetItemInput;
import java.io.IOException;
import java.util.List;
import java.util.Map;

/**
 * GetItem. An absent item answers {} (no Item member) and still consumes the minimum read.
 * AttributesToGet narrows the item to the named top-level attributes (an item none of them is
 * in answers an empty Item). Checks, in DynamoDB's order: the Key's values, AttributesToGet, the
 * expression parameters, the table, then the Key against the table's key schema.
 */
final class GetItem implements Action<GetItemInput> {

    private final Engine engine;

    GetItem(Engine engine) {
        this.engine = engine;
    }

    @Override
    public void execute(GetItemInput request, Authorizer access, ResponseBody response) throws IOException {
        ExpressionParameters.checkCombination(List.of(member("ProjectionExpression", request.projectionExpression())),
                List.of(member("AttributesToGet", request.attributesToGet())), request.expressionAttributeNames(), null);
        Map<String, AttributeValue> key = request.key().validated();
        List<Path> projection = ReadRequests.projection(request.attributesToGet(), request.projectionExpression(),
                request.expressionAttributeNames());
        if (access.enforced()) {
            Permissions.item(access, engine, "GetItem", request.tableName(), null, new Permissions.Keys()
                    .leadingKeyOf(Permissions.find(engine, request.tableName()), key).attributes(key.keySet())
                    .paths(projection).select(Permissions.effectiveSelect(null, projection != null, false))
                    .returnConsumedCapacity(request.returnConsumedCapacity()));
        }
        TableDefinition table = engine.tables().require(request.tableName());

        Page read = engine.items().get(table, key, Boolean.TRUE.equals(request.consistentRead()), projection);

        JsonGenerator g = response.json();
        if (read.item() != null) {
            g.writeFieldName("Item");
            AttributeValueJson.writeItem(g, read.item());
        }
        ItemResponses.writeConsumedCapacity(g, request.returnConsumedCapacity(), request.tableName(), read.consumed());
    }
}
