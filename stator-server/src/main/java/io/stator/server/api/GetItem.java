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
import io.stator.core.expression.ExpressionContext;
import io.stator.core.expression.Path;
import io.stator.core.expression.Projector;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;

/**
 * GetItem. An absent item answers {} (no Item member) and still consumes the minimum read.
 * AttributesToGet narrows the item to the named top-level attributes (an item none of them is
 * in answers an empty Item). Checks, in DynamoDB's order: the Key's values, AttributesToGet, the
 * expression parameters, the table, then the Key against the table's key schema.
 */
final class GetItem implements Action {

    static final List<String> PROJECTION_EXPRESSION = List.of("ProjectionExpression");
    static final List<String> ATTRIBUTES_TO_GET = List.of("AttributesToGet");

    private final Engine engine;

    GetItem(Engine engine) {
        this.engine = engine;
    }

    @Override
    public void execute(Struct request, ResponseBody response) throws IOException {
        ExpressionParameters.checkCombination(request, PROJECTION_EXPRESSION, ATTRIBUTES_TO_GET);
        Map<String, AttributeValue> key = request.attributeMap("Key");
        List<Path> projection = projection(request);
        boolean consistentRead = request.bool("ConsistentRead", false);
        TableDefinition table = engine.catalog().require(request.string("TableName"), NotFoundMessage.PLAIN);
        if (projection != null) KeyPaths.checkNoNestedKeyPaths(table.keySchema(), projection);

        ReadResult result = engine.items().get(table, key, consistentRead);

        JsonGenerator g = response.json();
        if (result.item() != null) {
            g.writeFieldName("Item");
            AttributeValueJson.writeItem(g, projection == null ? result.item() : Projector.project(result.item(), projection));
        }
        ItemRules.writeConsumedCapacity(g, request, result.consumed());
    }

    /** AttributesToGet as paths; DynamoDB refuses a name given twice. */
    static List<Path> topLevelPaths(List<String> attributesToGet) {
        HashSet<String> seen = new HashSet<>();
        List<Path> paths = new ArrayList<>(attributesToGet.size());
        for (String name : attributesToGet) {
            if (!seen.add(name)) throw DynamoDbException.invalidParameter("Duplicate value in attribute name: " + name);
            paths.add(Path.of(name));
        }
        return paths;
    }

    /**
     * What to return of the item: the paths of ProjectionExpression, or the top-level attributes
     * of the legacy AttributesToGet (which may not name one twice); null for the whole item.
     */
    static List<Path> projection(Struct request) {
        List<String> attributesToGet = request.stringList("AttributesToGet");
        List<Path> paths = attributesToGet == null ? null : topLevelPaths(attributesToGet);
        ExpressionContext expressions = ExpressionParameters.context(request);
        if (request.has("ProjectionExpression")) paths = expressions.projection(request.string("ProjectionExpression"));
        expressions.checkAllUsed();
        return paths;
    }
}
