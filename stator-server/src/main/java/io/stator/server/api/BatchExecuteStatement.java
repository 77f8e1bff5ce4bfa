package io.stator.server.api;

import static io.stator.server.protocol.request.ReturnValuesOnConditionCheckFailure.ALL_OLD;

import com.fasterxml.jackson.core.JsonGenerator;
import io.stator.core.error.DynamoDbException;
import io.stator.core.error.ErrorType;
import io.stator.core.model.AttributeValue;
import io.stator.core.partiql.PartiqlParser;
import io.stator.core.partiql.Statement;
import io.stator.engine.Engine;
import io.stator.engine.advisor.Operation;
import io.stator.engine.capacity.ConsumedCapacity;
import io.stator.engine.partiql.ItemSelect;
import io.stator.engine.partiql.PartiqlWrites;
import io.stator.engine.read.Page;
import io.stator.engine.write.ConditionalCheckFailedException;
import io.stator.engine.write.WriteResult;
import io.stator.server.access.Authorizer;
import io.stator.server.access.Permissions;
import io.stator.server.api.json.BatchStatementErrorCodes;
import io.stator.server.api.json.ItemResponses;
import io.stator.server.protocol.AttributeValueJson;
import io.stator.server.protocol.ResponseBody;
import io.stator.server.protocol.request.BatchExecuteStatementInput;
import io.stator.server.protocol.request.BatchStatementRequest;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * BatchExecuteStatement: up to 25 PartiQL statements, each on its own: a SELECT is a GetItem
 * (its WHERE must give the whole primary key; the other terms are checked against the item by the
 * condition evaluator), a write is ExecuteStatement's write. A statement that fails gets its
 * Error in its place in Responses (codes from the model's BatchStatementErrorCodeEnum); the others
 * are not affected. ConsumedCapacity is one entry per table, as BatchWriteItem's. A batch holds
 * only reads or only writes; one that mixes them is refused whole.
 */
final class BatchExecuteStatement implements Action<BatchExecuteStatementInput> {

    private final Engine engine;

    BatchExecuteStatement(Engine engine) {
        this.engine = engine;
    }

    /** One statement's outcome: an item (or none), or an error; and what it consumed. */
    private record Outcome(String tableName, Map<String, AttributeValue> item, String errorCode, String errorMessage,
                           Map<String, AttributeValue> errorItem) {}

    @Override
    public void execute(BatchExecuteStatementInput request, Authorizer access, ResponseBody response) throws IOException {
        Map<String, ConsumedCapacity.Builder> consumed = new LinkedHashMap<>();
        List<BatchStatementRequest> statements = request.statements();
        // Every member parsed first: a batch holds reads or writes, never both, which fails the
        // whole request (DynamoDB's API reference; the text is DynamoDB Local's). A member that
        // does not parse is its own error and does not count either way.
        List<Object> parsed = new ArrayList<>(statements.size());
        Boolean reads = null;
        for (BatchStatementRequest statement : statements) {
            Object p = parse(statement);
            parsed.add(p);
            if (p instanceof Statement s && !(s instanceof Statement.Exists)) {
                boolean read = s instanceof Statement.Select;
                if (reads == null) reads = read;
                else if (reads != read) {
                    throw DynamoDbException.validation("Read and write requests together in the same batch is not supported.");
                }
            }
        }
        if (reads == null) access.nothingToAuthorize(); // every member refused before it named a table
        JsonGenerator g = response.json();
        g.writeArrayFieldStart("Responses");
        for (int i = 0; i < statements.size(); i++) {
            Outcome outcome = parsed.get(i) instanceof Statement statement
                    ? run(statement, statements.get(i), access, consumed)
                    : refused((DynamoDbException) parsed.get(i), null);
            g.writeStartObject();
            if (outcome.errorCode() != null) {
                g.writeObjectFieldStart("Error");
                g.writeStringField("Code", outcome.errorCode());
                g.writeStringField("Message", outcome.errorMessage());
                if (outcome.errorItem() != null) {
                    g.writeFieldName("Item");
                    AttributeValueJson.writeItem(g, outcome.errorItem());
                }
                g.writeEndObject();
            }
            if (outcome.tableName() != null) g.writeStringField("TableName", outcome.tableName());
            if (outcome.item() != null) {
                g.writeFieldName("Item");
                AttributeValueJson.writeItem(g, outcome.item());
            }
            g.writeEndObject();
        }
        g.writeEndArray();
        Map<String, ConsumedCapacity> byTable = new LinkedHashMap<>();
        consumed.forEach((table, units) -> byTable.put(table, units.build()));
        ItemResponses.writeConsumedCapacities(g, request.returnConsumedCapacity(), byTable, null);
    }

    /** The member's statement, or the error that refuses it. */
    private static Object parse(BatchStatementRequest request) {
        try {
            List<AttributeValue> parameters = request.parameters() == null ? null : request.parameters().validated();
            return PartiqlParser.parse(request.statement(), parameters);
        } catch (DynamoDbException e) {
            return e;
        }
    }

    private Outcome run(Statement statement, BatchStatementRequest request, Authorizer access,
                        Map<String, ConsumedCapacity.Builder> consumed) {
        String tableName = statement.tableName();
        try {
            if (statement instanceof Statement.Exists) throw PartiqlWrites.existsOutsideTransaction();
            if (access.enforced()) Permissions.statement(access, engine, statement, null);
            if (statement instanceof Statement.Select s) {
                Page page = ItemSelect.get(engine, s, Boolean.TRUE.equals(request.consistentRead()));
                add(consumed, tableName, page.consumed());
                return new Outcome(tableName, page.item(), null, null, null);
            }
            WriteResult result = PartiqlWrites.run(engine, Operation.BATCH_EXECUTE_STATEMENT, statement,
                    PartiqlWrites.of(engine, statement, request.returnValuesOnConditionCheckFailure() == ALL_OLD));
            add(consumed, tableName, result.consumed());
            Map<String, AttributeValue> returned = result.returnedAttributes();
            return new Outcome(tableName, returned == null || returned.isEmpty() ? null : returned, null, null, null);
        } catch (ConditionalCheckFailedException e) {
            return new Outcome(tableName, null, "ConditionalCheckFailed", e.getMessage(), e.item());
        } catch (DynamoDbException e) {
            return refused(e, tableName);
        }
    }

    /**
     * A member's error. One refused before it ran (no table, or not valid) names no table, as
     * recorded from DynamoDB by dynamodb-conformance; one that ran and failed does.
     */
    private static Outcome refused(DynamoDbException e, String tableName) {
        boolean ran = e.type() != ErrorType.RESOURCE_NOT_FOUND && e.type() != ErrorType.VALIDATION;
        return new Outcome(ran ? tableName : null, null, BatchStatementErrorCodes.of(e.type()), e.getMessage(), null);
    }

    private static void add(Map<String, ConsumedCapacity.Builder> consumed, String tableName, ConsumedCapacity c) {
        if (c != null) consumed.computeIfAbsent(tableName, t -> new ConsumedCapacity.Builder()).add(c);
    }
}
