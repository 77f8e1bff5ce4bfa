package io.stator.server.api;

import com.fasterxml.jackson.core.JsonGenerator;
import io.stator.core.error.DynamoDbException;
import io.stator.core.error.ErrorType;
import io.stator.core.expression.Condition;
import io.stator.core.expression.ConditionEvaluator;
import io.stator.core.expression.Projector;
import io.stator.core.model.AttributeValue;
import io.stator.core.partiql.PartiqlParser;
import io.stator.core.partiql.Statement;
import io.stator.engine.Engine;
import io.stator.engine.advisor.Operation;
import io.stator.engine.capacity.ConsumedCapacity;
import io.stator.engine.read.Page;
import io.stator.engine.table.TableDefinition;
import io.stator.engine.write.ConditionalCheckFailedException;
import io.stator.engine.write.ItemWrite;
import io.stator.engine.write.WriteResult;
import io.stator.server.access.Authorizer;
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
 * are not affected. ConsumedCapacity is one entry per table, as BatchWriteItem's.
 *
 * <p>A batch holds only reads or only writes; one that mixes them is refused whole.
 */
final class BatchExecuteStatement implements Action<BatchExecuteStatementInput> {

    /** Recorded from DynamoDB by other emulators' tests (moto, and others). */
    private static final String SELECT_WITHOUT_KEY =
            "Select statements within BatchExecuteStatement must specify the primary key in the where clause.";

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
                    ? run(statement, statements.get(i), access, request.returnConsumedCapacity(), consumed)
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
                        String returnConsumedCapacity, Map<String, ConsumedCapacity.Builder> consumed) {
        String tableName = statement.tableName();
        try {
            boolean returnOld = "ALL_OLD".equals(request.returnValuesOnConditionCheckFailure());
            if (statement instanceof Statement.Exists) throw PartiqlWrites.existsOutsideTransaction();
            if (access.enforced()) Permissions.statement(access, engine, statement, null);
            ItemWrite write = switch (statement) {
                case Statement.Select s -> null;
                case Statement.Insert s -> PartiqlWrites.insert(engine, s);
                case Statement.Update s -> PartiqlWrites.update(engine, s, returnOld);
                case Statement.Delete s -> PartiqlWrites.delete(engine, s, returnOld);
                case Statement.Exists s -> throw PartiqlWrites.existsOutsideTransaction();
            };
            if (write == null) {
                return select((Statement.Select) statement, Boolean.TRUE.equals(request.consistentRead()), consumed);
            }
            WriteResult result = PartiqlWrites.run(engine, Operation.BATCH_EXECUTE_STATEMENT, write, statement instanceof Statement.Insert);
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
        return new Outcome(ran ? tableName : null, null, code(e.type()), e.getMessage(), null);
    }

    private Outcome select(Statement.Select s, boolean consistent, Map<String, ConsumedCapacity.Builder> consumed) {
        TableDefinition table = engine.tables().require(s.tableName());
        if (s.indexName() != null) throw DynamoDbException.validation(SELECT_WITHOUT_KEY);
        List<Condition> terms = PartiqlPlans.terms(s.where());
        Map<String, AttributeValue> key;
        try {
            key = PartiqlPlans.primaryKey(terms, PartiqlWrites.keyAttributes(table));
        } catch (DynamoDbException e) {
            throw DynamoDbException.validation(SELECT_WITHOUT_KEY);
        }
        Page page = engine.items().get(Operation.BATCH_EXECUTE_STATEMENT, table, key, consistent, null);
        add(consumed, s.tableName(), page.consumed());
        Map<String, AttributeValue> item = page.item();
        Condition rest = PartiqlPlans.and(terms);
        if (item != null && rest != null && !ConditionEvaluator.matches(rest, item)) item = null;
        if (item != null && s.projection() != null) item = PartiqlPlans.named(Projector.project(item, s.projection()), s.projection());
        return new Outcome(s.tableName(), item, null, null, null);
    }

    private static void add(Map<String, ConsumedCapacity.Builder> consumed, String tableName, ConsumedCapacity c) {
        if (c != null) consumed.computeIfAbsent(tableName, t -> new ConsumedCapacity.Builder()).add(c);
    }

    /** The model's BatchStatementErrorCodeEnum for an error type. */
    private static String code(ErrorType type) {
        return switch (type) {
            case CONDITIONAL_CHECK_FAILED -> "ConditionalCheckFailed";
            case DUPLICATE_ITEM -> "DuplicateItem";
            case RESOURCE_NOT_FOUND -> "ResourceNotFound";
            case PROVISIONED_THROUGHPUT_EXCEEDED -> "ProvisionedThroughputExceeded";
            case REQUEST_LIMIT_EXCEEDED -> "RequestLimitExceeded";
            case ITEM_COLLECTION_SIZE_LIMIT_EXCEEDED -> "ItemCollectionSizeLimitExceeded";
            case TRANSACTION_CONFLICT -> "TransactionConflict";
            case THROTTLING -> "ThrottlingError";
            case ACCESS_DENIED -> "AccessDenied";
            case INTERNAL_SERVER_ERROR -> "InternalServerError";
            default -> "ValidationError";
        };
    }
}
