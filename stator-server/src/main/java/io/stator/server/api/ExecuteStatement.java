package io.stator.server.api;

import static io.stator.server.protocol.request.ReturnValuesOnConditionCheckFailure.ALL_OLD;

import com.fasterxml.jackson.core.JsonGenerator;
import io.stator.core.model.AttributeValue;
import io.stator.core.partiql.PartiqlParser;
import io.stator.core.partiql.Statement;
import io.stator.engine.Engine;
import io.stator.engine.advisor.Operation;
import io.stator.engine.partiql.PartiqlReads;
import io.stator.engine.partiql.PartiqlWrites;
import io.stator.engine.read.Page;
import io.stator.engine.write.WriteResult;
import io.stator.server.access.Authorizer;
import io.stator.server.access.Permissions;
import io.stator.server.api.checks.ReadRequests;
import io.stator.server.api.json.ItemResponses;
import io.stator.server.protocol.AttributeValueJson;
import io.stator.server.protocol.ResponseBody;
import io.stator.server.protocol.request.ExecuteStatementInput;
import java.io.IOException;
import java.util.List;
import java.util.Map;

/**
 * ExecuteStatement: one PartiQL statement, parsed, authorized, and run by the engine: a SELECT as
 * its plan says ({@code engine/partiql/SelectPlan}: a Query, a Query of each partition an IN
 * lists, or a Scan), a write as the write pipeline's put, update or delete
 * ({@code engine/partiql/PartiqlWrites}). NextToken is the engine's, tied to the statement.
 */
final class ExecuteStatement implements Action<ExecuteStatementInput> {

    private final Engine engine;

    ExecuteStatement(Engine engine) {
        this.engine = engine;
    }

    @Override
    public void execute(ExecuteStatementInput request, Authorizer access, ResponseBody response) throws IOException {
        List<AttributeValue> parameters = request.parameters() == null ? null : request.parameters().validated();
        Statement statement = PartiqlParser.parse(request.statement(), parameters);
        if (statement instanceof Statement.Exists) throw PartiqlWrites.existsOutsideTransaction();
        if (access.enforced()) Permissions.statement(access, engine, statement, null);
        if (statement instanceof Statement.Select s) {
            select(s, request, response);
        } else {
            boolean returnOld = request.returnValuesOnConditionCheckFailure() == ALL_OLD;
            WriteResult result = PartiqlWrites.run(engine, Operation.EXECUTE_STATEMENT, statement,
                    PartiqlWrites.of(engine, statement, returnOld));
            JsonGenerator g = response.json();
            g.writeArrayFieldStart("Items");
            Map<String, AttributeValue> returned = result.returnedAttributes();
            if (returned != null && !returned.isEmpty()) AttributeValueJson.writeItem(g, returned);
            g.writeEndArray();
            ItemResponses.writeConsumedCapacity(g, request.returnConsumedCapacity(), statement.tableName(),
                    result.consumed());
        }
    }

    private void select(Statement.Select s, ExecuteStatementInput request, ResponseBody response) throws IOException {
        PartiqlReads.Result result = PartiqlReads.select(engine, s, request.statement(), request.nextToken(),
                ReadRequests.limit(request.limit()), Boolean.TRUE.equals(request.consistentRead()));
        Page page = result.page();
        JsonGenerator g = response.json();
        g.writeArrayFieldStart("Items");
        for (Map<String, AttributeValue> item : page.items()) AttributeValueJson.writeItem(g, item);
        g.writeEndArray();
        if (result.nextToken() != null) {
            g.writeStringField("NextToken", result.nextToken());
            g.writeFieldName("LastEvaluatedKey");
            AttributeValueJson.writeItem(g, page.lastEvaluatedKey());
        }
        ItemResponses.writeConsumedCapacity(g, request.returnConsumedCapacity(), s.tableName(), page.consumed());
        response.returnedItems(s.tableName(), page.count());
    }
}
