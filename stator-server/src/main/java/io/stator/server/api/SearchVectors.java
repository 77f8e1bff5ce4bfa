package io.stator.server.api;

import static io.stator.server.api.checks.ExpressionParameters.member;

import com.fasterxml.jackson.core.JsonGenerator;
import io.stator.core.expression.Condition;
import io.stator.core.expression.ExpressionContext;
import io.stator.core.expression.ExpressionKind;
import io.stator.core.expression.Path;
import io.stator.core.model.AttributeValue;
import io.stator.engine.Engine;
import io.stator.engine.read.VectorSearch;
import io.stator.engine.table.TableDefinition;
import io.stator.server.access.Authorizer;
import io.stator.server.access.Permissions;
import io.stator.server.api.checks.ExpressionParameters;
import io.stator.server.protocol.ResponseBody;
import io.stator.server.protocol.request.ReturnConsumedCapacity;
import io.stator.server.protocol.request.SearchVectorsInput;
import java.io.IOException;
import java.util.List;

/**
 * SearchVectors: the TopK items of a vector index nearest a query vector (the engine's
 * {@code VectorSearch}). DynamoDB's order of checks (docs/dynamodb/vector-search.md §5.1): the
 * model's constraints, the table, the index, TopK's maximum, the vector's values and dimensions,
 * then the expressions (ExpressionAttributeValues without a condition, syntax, then the
 * condition's rules), and unused expression values last, after the search.
 */
final class SearchVectors implements Action<SearchVectorsInput> {

    private final Engine engine;

    SearchVectors(Engine engine) {
        this.engine = engine;
    }

    @Override
    public void execute(SearchVectorsInput request, Authorizer access, ResponseBody response) throws IOException {
        // The IAM action on the index's ARN; fine-grained keys do not apply to it (developer
        // guide, VectorSearch.Security), so none is given.
        if (access.enforced()) {
            Permissions.tableOrIndex(access, engine, "SearchVectors", request.tableName(), request.indexName());
        }
        TableDefinition table = engine.tables().require(request.tableName());
        // An element that is no valid attribute value is one of the vector's invalid values, reported
        // in their place in the order (after the index's checks).
        List<AttributeValue> searchVector;
        try {
            searchVector = request.searchVector().validated();
        } catch (io.stator.core.error.DynamoDbException invalid) {
            searchVector = null;
        }
        VectorSearch.Target target = engine.items().vectorTarget(table, request.indexName(), request.topK(), searchVector);
        ExpressionParameters.checkCombination(
                List.of(member("ProjectionExpression", request.projectionExpression()),
                        member("SearchConditionExpression", request.searchConditionExpression())),
                List.of(), request.expressionAttributeNames(), request.expressionAttributeValues());
        ExpressionContext expressions = ExpressionParameters.context(request.expressionAttributeNames(),
                request.expressionAttributeValues());
        Condition condition = request.searchConditionExpression() == null ? null
                : expressions.condition(ExpressionKind.SEARCH_CONDITION, request.searchConditionExpression());
        List<Path> projection = request.projectionExpression() == null ? null
                : expressions.projection(request.projectionExpression());
        VectorSearch.Result result = engine.items().searchVectors(target, condition, projection);
        expressions.checkAllUsed();

        JsonGenerator g = response.json();
        ReturnConsumedCapacity capacity = request.returnConsumedCapacity();
        if (capacity != null && capacity != ReturnConsumedCapacity.NONE) {
            g.writeObjectFieldStart("ConsumedCapacity");
            g.writeNumberField("VectorSearchRequestBytes", result.requestBytes());
            g.writeEndObject();
        }
        g.writeArrayFieldStart("SearchResults");
        for (VectorSearch.Hit hit : result.hits()) {
            g.writeStartObject();
            g.writeFieldName("Item");
            io.stator.server.protocol.AttributeValueJson.writeItem(g, hit.item());
            g.writeNumberField("Score", hit.score());
            g.writeEndObject();
        }
        g.writeEndArray();
        response.returnedItems(request.tableName(), result.hits().size());
    }
}
