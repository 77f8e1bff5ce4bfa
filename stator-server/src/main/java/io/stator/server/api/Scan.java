package io.stator.server.api;

import io.stator.core.error.DynamoDbException;
import io.stator.core.expression.Condition;
import io.stator.core.expression.ConditionEvaluator;
import io.stator.core.expression.ExpressionContext;
import io.stator.core.expression.ExpressionKind;
import io.stator.core.expression.Path;
import io.stator.core.model.AttributeValue;
import io.stator.engine.Engine;
import io.stator.engine.item.PageReader.Page;
import io.stator.engine.table.Catalog.NotFoundMessage;
import io.stator.engine.table.TableDefinition;
import io.stator.server.protocol.ResponseBody;
import io.stator.server.protocol.Struct;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * Scan: the whole table in partition-hash order, or one segment of a parallel scan (segments are
 * disjoint hash ranges that together cover the table once), paged by Limit and 1 MB before the
 * filter. Checks in DynamoDB's order: parameters, filters, ExclusiveStartKey values, segments and
 * expressions first; then the table and the ExclusiveStartKey against its key schema and segment.
 */
final class Scan implements Action {

    private static final List<String> EXPRESSIONS = List.of("ProjectionExpression", "FilterExpression");
    private static final List<String> LEGACY = List.of("AttributesToGet", "ScanFilter", "ConditionalOperator");

    private final Engine engine;

    Scan(Engine engine) {
        this.engine = engine;
    }

    @Override
    public void execute(Struct request, ResponseBody response) throws IOException {
        ExpressionParameters.checkCombination(request, EXPRESSIONS, LEGACY);
        List<String> attributesToGet = request.stringList("AttributesToGet");
        List<Path> projection = attributesToGet == null ? null : GetItem.topLevelPaths(attributesToGet);
        Condition filter = LegacyConditions.filter(request, "ScanFilter");
        Map<String, AttributeValue> exclusiveStartKey = ReadRequests.exclusiveStartKey(request);
        Integer segment = request.intValue("Segment");
        Integer totalSegments = request.intValue("TotalSegments");
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
        ExpressionContext expressions = ExpressionParameters.context(request);
        if (request.has("FilterExpression")) {
            filter = expressions.condition(ExpressionKind.FILTER, request.string("FilterExpression"));
        }
        if (request.has("ProjectionExpression")) projection = expressions.projection(request.string("ProjectionExpression"));
        expressions.checkAllUsed();
        boolean countOnly = ReadRequests.countOnly(request, false);

        TableDefinition table = engine.catalog().require(request.string("TableName"), NotFoundMessage.PLAIN);
        ReadTarget target = ReadTarget.of(table, request);
        int seg = segment == null ? 0 : segment;
        int total = totalSegments == null ? 1 : totalSegments;
        if (exclusiveStartKey != null) target.checkScanStartKey(exclusiveStartKey, seg, total);
        String select = request.string("Select");
        target.checkSelect(select);
        if (projection != null) {
            target.checkNoNestedKeyPaths(projection);
            target.checkProjected(projection);
        }
        // A Scan may filter on key attributes, but not reach inside one (as a Query may not at all).
        if (filter != null) target.checkNoNestedKeyPaths(FilterPaths.paths(filter));

        Condition matching = filter;
        Predicate<Map<String, AttributeValue>> filterTest =
                matching == null ? null : item -> ConditionEvaluator.matches(matching, item);
        int limit = ReadRequests.limit(request);
        boolean consistentRead = request.bool("ConsistentRead", false);
        boolean fetch = target.fetchesFromTable(select, projection, filter);
        Page page = target.isIndex()
                ? engine.pages().scanIndex(table, target.index(), seg, total, exclusiveStartKey, limit, consistentRead,
                        fetch, filterTest)
                : engine.pages().scan(table, seg, total, exclusiveStartKey, limit, consistentRead, filterTest);
        ReadRequests.writePage(response.json(), request, target.returned(page, fetch, select, projection), projection,
                countOnly);
    }
}
