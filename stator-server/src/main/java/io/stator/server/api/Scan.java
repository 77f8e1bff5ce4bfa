package io.stator.server.api;

import static io.stator.server.api.checks.ExpressionParameters.member;

import io.stator.core.error.DynamoDbException;
import io.stator.core.expression.Condition;
import io.stator.core.expression.ExpressionContext;
import io.stator.core.expression.ExpressionKind;
import io.stator.core.expression.Path;
import io.stator.core.model.AttributeValue;
import io.stator.engine.Engine;
import io.stator.engine.read.Page;
import io.stator.engine.read.ScanSpec;
import io.stator.engine.read.Select;
import io.stator.engine.table.TableDefinition;
import io.stator.server.access.Authorizer;
import io.stator.server.access.Permissions;
import io.stator.server.api.checks.ExpressionParameters;
import io.stator.server.api.checks.LegacyConditions;
import io.stator.server.api.checks.ReadRequests;
import io.stator.server.api.json.ItemResponses;
import io.stator.server.protocol.ResponseBody;
import io.stator.server.protocol.request.ScanInput;
import java.io.IOException;
import java.util.List;
import java.util.Map;

/**
 * Scan: the whole table or index in partition-hash order, or one segment of a parallel scan (see
 * the engine's {@code ReadPlan.scan}). Checks in DynamoDB's order: parameters, filters,
 * ExclusiveStartKey values, segments and expressions first; then the engine's, against the table
 * or index and the segment.
 */
final class Scan implements Action<ScanInput> {

    private final Engine engine;

    Scan(Engine engine) {
        this.engine = engine;
    }

    @Override
    public void execute(ScanInput request, Authorizer access, ResponseBody response) throws IOException {
        ExpressionParameters.checkCombination(
                List.of(member("ProjectionExpression", request.projectionExpression()),
                        member("FilterExpression", request.filterExpression())),
                List.of(member("AttributesToGet", request.attributesToGet()), member("ScanFilter", request.scanFilter()),
                        member("ConditionalOperator", request.conditionalOperator())),
                request.expressionAttributeNames(), request.expressionAttributeValues());
        List<Path> projection = request.attributesToGet() == null ? null
                : ReadRequests.topLevelPaths(request.attributesToGet());
        Condition filter = LegacyConditions.filter(request.scanFilter(), request.conditionalOperator());
        Map<String, AttributeValue> exclusiveStartKey = ReadRequests.exclusiveStartKey(request.exclusiveStartKey());
        Integer segment = request.segment();
        Integer totalSegments = request.totalSegments();
        if (segment != null && totalSegments == null) {
            throw DynamoDbException.validation("The TotalSegments parameter is required but was not present in the "
                    + "request when Segment parameter is present");
        }
        if (totalSegments != null && segment == null) {
            throw DynamoDbException.validation("The Segment parameter is required but was not present in the request "
                    + "when parameter TotalSegments is present");
        }
        if (segment != null && segment >= totalSegments) {
            throw DynamoDbException.validation("The Segment parameter is zero-based and must be less than parameter "
                    + "TotalSegments: Segment: " + segment + " is not less than TotalSegments: " + totalSegments);
        }
        ExpressionContext expressions = ExpressionParameters.context(request.expressionAttributeNames(),
                request.expressionAttributeValues());
        if (request.filterExpression() != null) {
            filter = expressions.condition(ExpressionKind.FILTER, request.filterExpression());
        }
        if (request.projectionExpression() != null) projection = expressions.projection(request.projectionExpression());
        expressions.checkAllUsed();
        Select select = ReadRequests.select(request.select(),
                ReadRequests.projectionMember(request.projectionExpression(), request.attributesToGet()),
                request.indexName() != null, false);
        if (access.enforced()) {
            Permissions.item(access, engine, "Scan", request.tableName(), request.indexName(), new Permissions.Keys()
                    .condition(filter).paths(projection)
                    .select(Permissions.effectiveSelect(request.select(), projection != null, request.indexName() != null))
                    .returnConsumedCapacity(request.returnConsumedCapacity()));
        }
        TableDefinition table = engine.tables().require(request.tableName());

        Page page = engine.items().scan(table, new ScanSpec(request.indexName(), filter, projection, select,
                exclusiveStartKey, segment == null ? 0 : segment, totalSegments == null ? 1 : totalSegments,
                ReadRequests.limit(request.limit()),
                Boolean.TRUE.equals(request.consistentRead())));
        ItemResponses.writePage(response.json(), page, select == Select.COUNT, request.returnConsumedCapacity(),
                request.tableName());
        response.returnedItems(request.tableName(), page.count());
    }
}
