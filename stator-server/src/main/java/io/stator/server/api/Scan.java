package io.stator.server.api;

import io.stator.core.error.DynamoDbException;
import io.stator.core.expression.Condition;
import io.stator.core.expression.ConditionEvaluator;
import io.stator.core.expression.ExpressionContext;
import io.stator.core.expression.ExpressionKind;
import io.stator.core.expression.Path;
import io.stator.core.key.KeyLayout;
import io.stator.core.key.PartitionHash;
import io.stator.core.model.AttributeValue;
import io.stator.engine.Engine;
import io.stator.engine.item.PageReader.Page;
import io.stator.engine.item.PrimaryKeys;
import io.stator.engine.table.Catalog.NotFoundMessage;
import io.stator.engine.table.KeySchema;
import io.stator.engine.table.TableDefinition;
import io.stator.server.protocol.ResponseBody;
import io.stator.server.protocol.Struct;
import java.io.IOException;
import java.util.List;
import java.util.Map;

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
        if (request.has("IndexName")) {
            throw DynamoDbException.validation("The table does not have the specified index: " + request.string("IndexName"));
        }
        KeySchema schema = table.keySchema();
        int seg = segment == null ? 0 : segment;
        int total = totalSegments == null ? 1 : totalSegments;
        if (exclusiveStartKey != null) checkStartKey(schema, exclusiveStartKey, seg, total);
        if (projection != null) KeyPaths.checkNoNestedKeyPaths(schema, projection);
        // A Scan may filter on key attributes, but not reach inside one (as a Query may not at all).
        if (filter != null) KeyPaths.checkNoNestedKeyPaths(schema, FilterPaths.paths(filter));

        Condition matching = filter;
        Page page = engine.pages().scan(table, seg, total, exclusiveStartKey, ReadRequests.limit(request),
                request.bool("ConsistentRead", false),
                matching == null ? null : item -> ConditionEvaluator.matches(matching, item));
        ReadRequests.writePage(response.json(), request, page, projection, countOnly);
    }

    /** A Scan's start key must be a key of the table, and of the segment being scanned. */
    private static void checkStartKey(KeySchema schema, Map<String, AttributeValue> start, int segment, int total) {
        try {
            PrimaryKeys.checkKey(schema, start);
        } catch (DynamoDbException e) {
            throw DynamoDbException.validation("The provided starting key is invalid: " + e.getMessage());
        }
        long hash = PartitionHash.of(start.get(schema.partitionKey()));
        if (KeyLayout.segmentOf(hash, total) != segment) {
            throw DynamoDbException.validation("The provided starting key is invalid: Invalid ExclusiveStartKey. "
                    + "Please use ExclusiveStartKey with correct Segment. TotalSegments: " + total + " Segment: " + segment);
        }
    }
}
