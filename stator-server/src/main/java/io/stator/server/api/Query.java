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
import java.util.Set;
import java.util.function.Predicate;

/**
 * Query: one partition's items, of the table or of an index, in sort-key order (or reversed),
 * narrowed by a sort-key condition, paged by Limit and 1 MB before the filter. The checks run in
 * DynamoDB's order: parameters and expressions first (even for a table that does not exist),
 * then the table and the index, the key conditions and ExclusiveStartKey against the queried
 * key, then Select, the projection's and the filter's use of key attributes.
 */
final class Query implements Action {

    private static final List<String> EXPRESSIONS = List.of("ProjectionExpression", "FilterExpression",
            "KeyConditionExpression");
    private static final List<String> LEGACY = List.of("AttributesToGet", "QueryFilter", "ConditionalOperator",
            "KeyConditions");

    private final Engine engine;

    Query(Engine engine) {
        this.engine = engine;
    }

    @Override
    public void execute(Struct request, ResponseBody response) throws IOException {
        // KeyConditions may go with expressions when there is no KeyConditionExpression.
        ExpressionParameters.checkCombination(request, EXPRESSIONS,
                request.has("KeyConditionExpression") ? LEGACY : LEGACY.subList(0, 3));
        Condition filter = LegacyConditions.filter(request, "QueryFilter");
        List<Path> projection = null;
        List<String> attributesToGet = request.stringList("AttributesToGet");
        if (attributesToGet != null) projection = GetItem.topLevelPaths(attributesToGet);
        Map<String, AttributeValue> exclusiveStartKey = ReadRequests.exclusiveStartKey(request);
        if (!request.has("KeyConditions") && !request.has("KeyConditionExpression")) {
            throw DynamoDbException.validation(
                    "Either the KeyConditions or KeyConditionExpression parameter must be specified in the request.");
        }
        ExpressionContext expressions = ExpressionParameters.context(request);
        Condition keyExpression = request.has("KeyConditionExpression")
                ? expressions.condition(ExpressionKind.KEY_CONDITION, request.string("KeyConditionExpression")) : null;
        if (request.has("FilterExpression")) {
            filter = expressions.condition(ExpressionKind.FILTER, request.string("FilterExpression"));
        }
        if (request.has("ProjectionExpression")) projection = expressions.projection(request.string("ProjectionExpression"));
        expressions.checkAllUsed();
        Map<String, KeyConditions.KeyCondition> keyConditions = keyExpression != null
                ? KeyConditions.fromExpression(keyExpression)
                : KeyConditions.fromLegacy(request.structMap("KeyConditions"));
        KeyConditions.checkCount(keyConditions, request.has("IndexName"));
        boolean countOnly = ReadRequests.countOnly(request, true);

        TableDefinition table = engine.catalog().require(request.string("TableName"), NotFoundMessage.PLAIN);
        ReadTarget target = ReadTarget.of(table, request);
        KeyConditions.Resolved key = KeyConditions.resolve(target, keyConditions, exclusiveStartKey);
        String select = request.string("Select");
        target.checkSelect(select);
        if (projection != null) {
            target.checkNoNestedKeyPaths(projection);
            target.checkProjected(projection);
        }
        if (filter != null) {
            checkFilterAvoidsKeys(target, request, filter);
            target.checkNoNestedKeyPaths(FilterPaths.paths(filter));
        }

        Condition matching = filter;
        Predicate<Map<String, AttributeValue>> filterTest =
                matching == null ? null : item -> ConditionEvaluator.matches(matching, item);
        boolean forward = request.bool("ScanIndexForward", true);
        int limit = ReadRequests.limit(request);
        boolean consistentRead = request.bool("ConsistentRead", false);
        boolean fetch = target.fetchesFromTable(select, projection, filter);
        Page page = target.isIndex()
                ? engine.pages().queryIndex(table, target.index(), key.partitionKey(), key.sortKeyPrefix(), key.sortKey(),
                        forward, exclusiveStartKey, limit, consistentRead,
                        fetch, filterTest)
                : engine.pages().query(table, key.partitionKey().get(0), key.sortKey(), forward, exclusiveStartKey,
                        limit, consistentRead, filterTest);
        ReadRequests.writePage(response.json(), request, target.returned(page, fetch, select, projection), projection,
                countOnly);
    }

    /** A Query may not filter on the key it queries by (on an index, the index's key). */
    private static void checkFilterAvoidsKeys(ReadTarget target, Struct request, Condition filter) {
        boolean legacy = request.has("QueryFilter");
        Set<String> heads = legacy ? request.keysOf("QueryFilter") : FilterPaths.topLevelNames(filter);
        for (String key : target.keyNames()) {
            if (heads.contains(key)) {
                throw DynamoDbException.validation((legacy ? "QueryFilter" : "Filter Expression")
                        + " can only contain non-primary key attributes: Primary key attribute: " + key);
            }
        }
    }
}
