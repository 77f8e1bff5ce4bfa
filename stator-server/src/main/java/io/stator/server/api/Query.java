package io.stator.server.api;

import static io.stator.server.api.checks.ExpressionParameters.member;

import io.stator.core.error.DynamoDbException;
import io.stator.core.expression.Condition;
import io.stator.core.expression.ExpressionContext;
import io.stator.core.expression.ExpressionKind;
import io.stator.core.expression.Path;
import io.stator.core.model.AttributeValue;
import io.stator.engine.Engine;
import io.stator.engine.read.ComparisonOperator;
import io.stator.engine.read.KeyConditions.KeyCondition;
import io.stator.engine.read.KeyConditions;
import io.stator.engine.read.Page;
import io.stator.engine.read.QuerySpec;
import io.stator.engine.read.Select;
import io.stator.engine.table.TableDefinition;
import io.stator.server.access.Authorizer;
import io.stator.server.access.Permissions;
import io.stator.server.api.checks.ExpressionParameters;
import io.stator.server.api.checks.LegacyConditions;
import io.stator.server.api.checks.ReadRequests;
import io.stator.server.api.json.ItemResponses;
import io.stator.server.protocol.ResponseBody;
import io.stator.server.protocol.request.QueryInput;
import java.io.IOException;
import java.util.List;
import java.util.Map;

/**
 * Query: one partition's items, of the table or of an index (see the engine's
 * {@code ReadPlan.query}). The request's own checks run first, in DynamoDB's order, even for a
 * table that does not exist: parameters, filters, the ExclusiveStartKey's values, the key
 * conditions' form, expressions, Select; then the engine's, against the table or index.
 */
final class Query implements Action<QueryInput> {

    private final Engine engine;

    Query(Engine engine) {
        this.engine = engine;
    }

    @Override
    public void execute(QueryInput request, Authorizer access, ResponseBody response) throws IOException {
        // KeyConditions may go with expressions when there is no KeyConditionExpression.
        List<ExpressionParameters.Member> legacy = List.of(member("AttributesToGet", request.attributesToGet()),
                member("QueryFilter", request.queryFilter()), member("ConditionalOperator", request.conditionalOperator()),
                member("KeyConditions", request.keyConditions()));
        ExpressionParameters.checkCombination(
                List.of(member("ProjectionExpression", request.projectionExpression()),
                        member("FilterExpression", request.filterExpression()),
                        member("KeyConditionExpression", request.keyConditionExpression())),
                request.keyConditionExpression() != null ? legacy : legacy.subList(0, 3),
                request.expressionAttributeNames(), request.expressionAttributeValues());
        Condition filter = LegacyConditions.filter(request.queryFilter(), request.conditionalOperator());
        List<Path> projection = request.attributesToGet() == null ? null
                : ReadRequests.topLevelPaths(request.attributesToGet());
        Map<String, AttributeValue> exclusiveStartKey = ReadRequests.exclusiveStartKey(request.exclusiveStartKey());
        if (request.keyConditions() == null && request.keyConditionExpression() == null) {
            throw DynamoDbException.validation(
                    "Either the KeyConditions or KeyConditionExpression parameter must be specified in the request.");
        }
        ExpressionContext expressions = ExpressionParameters.context(request.expressionAttributeNames(),
                request.expressionAttributeValues());
        Condition keyExpression = request.keyConditionExpression() == null ? null
                : expressions.condition(ExpressionKind.KEY_CONDITION, request.keyConditionExpression());
        if (request.filterExpression() != null) {
            filter = expressions.condition(ExpressionKind.FILTER, request.filterExpression());
        }
        if (request.projectionExpression() != null) projection = expressions.projection(request.projectionExpression());
        expressions.checkAllUsed();
        Map<String, KeyCondition> keyConditions = keyExpression != null
                ? KeyConditions.fromExpression(keyExpression)
                : LegacyConditions.keyConditions(request.keyConditions());
        KeyConditions.checkCount(keyConditions, request.indexName() != null);
        Select select = ReadRequests.select(request.select(),
                ReadRequests.projectionMember(request.projectionExpression(), request.attributesToGet()),
                request.indexName() != null, true);
        if (access.enforced()) {
            TableDefinition known = Permissions.find(engine, request.tableName());
            Permissions.Keys keys = new Permissions.Keys();
            String partitionKey = known == null ? null : Permissions.partitionKey(known, request.indexName());
            KeyCondition onPartitionKey = partitionKey == null ? null : keyConditions.get(partitionKey);
            if (onPartitionKey != null && onPartitionKey.operator() == ComparisonOperator.EQ) {
                keys.leadingKey(onPartitionKey.values().get(0));
            }
            Permissions.item(access, engine, "Query", request.tableName(), request.indexName(), keys
                    .keyConditions(keyConditions).condition(filter).paths(projection)
                    .select(Permissions.effectiveSelect(request.select(), projection != null, request.indexName() != null))
                    .returnConsumedCapacity(request.returnConsumedCapacity()));
        }
        TableDefinition table = engine.tables().require(request.tableName());

        Page page = engine.items().query(table, new QuerySpec(request.indexName(), keyConditions, filter,
                request.queryFilter() != null, projection, select, exclusiveStartKey,
                ReadRequests.limit(request.limit()), !Boolean.FALSE.equals(request.scanIndexForward()),
                Boolean.TRUE.equals(request.consistentRead())));
        ItemResponses.writePage(response.json(), page, select == Select.COUNT, request.returnConsumedCapacity(),
                request.tableName());
        response.returnedItems(request.tableName(), page.count());
    }
}
