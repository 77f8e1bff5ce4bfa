package io.stator.server.api;

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
import io.stator.engine.Items;
import io.stator.engine.item.KeySchemaMismatchException;
import io.stator.engine.item.PrimaryKeys;
import io.stator.engine.read.Page;
import io.stator.engine.table.TableDefinition;
import io.stator.engine.write.CancellationReason;
import io.stator.engine.write.ItemWrite;
import io.stator.engine.write.TransactionCanceledException;
import io.stator.engine.write.TransactionItems;
import io.stator.engine.write.Transactions.ClientToken;
import io.stator.engine.write.Transactions.WriteOutcome;
import io.stator.server.access.Authorizer;
import io.stator.server.protocol.RequestDigest;
import io.stator.server.protocol.ResponseBody;
import io.stator.server.protocol.request.ExecuteTransactionInput;
import io.stator.server.protocol.request.ParameterizedStatement;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * ExecuteTransaction: up to 100 PartiQL statements, all reads or all writes, run as
 * TransactGetItems or TransactWriteItems would run them (the engine's {@code transactGet} and
 * {@code transactWrite}): a SELECT is a Get of the item its WHERE names by the whole primary key;
 * INSERT, UPDATE and DELETE are ExecuteStatement's writes; {@code EXISTS(SELECT ...)} is a
 * ConditionCheck.
 *
 * <p>Errors, in DynamoDB's words where recorded: a statement that can never run in a transaction
 * fails the request as "Validation failed in TransactStatements[i]: ..." (RETURNING, a read of an
 * index, an EXISTS without a condition, and syntax errors: dynamodb-conformance, recorded from
 * DynamoDB; DynamoDB Local words the others so). Reads and writes together are refused with
 * DynamoDB Local's text. A WHERE that misses part of the key, or a key of the wrong type, is that
 * statement's ValidationError cancellation reason, as TransactWriteItems reports a key that does
 * not fit (DynamoDB Local does the same). An INSERT whose key is taken cancels the transaction
 * with ValidationError "Duplicate primary key exists in table" (DynamoDB Local's mapping).
 *
 * <p>ClientRequestToken makes a write transaction idempotent for ten minutes, as
 * TransactWriteItems' does: a replay returns without writing and is billed as a read of the items
 * (recorded from DynamoDB by dynamodb-conformance: 2 WCU first, 2 RCU on replay, for one small
 * item).
 */
final class ExecuteTransaction implements Action<ExecuteTransactionInput> {

    private static final String STATEMENT_ERROR = "Validation failed in TransactStatements[%d]: %s";

    /**
     * dynamodb:EnclosingOperation of a transaction's statements ("IAM security policies with
     * PartiQL for DynamoDB": the examples allowing or denying transactional statements only).
     */
    private static final String ENCLOSING_OPERATION = "ExecuteTransaction";

    private final Engine engine;

    ExecuteTransaction(Engine engine) {
        this.engine = engine;
    }

    @Override
    public void execute(ExecuteTransactionInput request, Authorizer access, ResponseBody response) throws IOException {
        List<ParameterizedStatement> members = request.transactStatements();
        List<Statement> statements = new ArrayList<>(members.size());
        boolean reads = false;
        boolean writes = false;
        for (int i = 0; i < members.size(); i++) {
            Statement s = parse(i, members.get(i));
            statements.add(s);
            if (s instanceof Statement.Select) reads = true;
            else writes = true;
        }
        if (reads && writes) {
            throw DynamoDbException.validation(
                    "ExecuteTransaction API does not support both read and write operations in the same request.");
        }
        if (reads) {
            read(statements, request, access, response);
        } else {
            write(statements, request, access, response);
        }
    }

    /** One statement, parsed and checked for what a transaction cannot hold. */
    private static Statement parse(int i, ParameterizedStatement member) {
        try {
            List<AttributeValue> parameters = member.parameters() == null ? null : member.parameters().validated();
            Statement s = PartiqlParser.parse(member.statement(), parameters);
            Statement.Returning returning = switch (s) {
                case Statement.Update u -> u.returning();
                case Statement.Delete d -> d.returning();
                default -> Statement.Returning.NONE;
            };
            if (returning != Statement.Returning.NONE) {
                throw DynamoDbException.validation("RETURNING clause is not supported in ExecuteTransaction.");
            }
            if (s instanceof Statement.Select select && select.indexName() != null) {
                throw DynamoDbException.validation("Reads on indices are not supported within transactions.");
            }
            return s;
        } catch (DynamoDbException e) {
            if (e.type() != ErrorType.VALIDATION) throw e;
            throw DynamoDbException.validation(String.format(STATEMENT_ERROR, i, e.getMessage()));
        }
    }

    // ---- reads --------------------------------------------------------------------------------

    private void read(List<Statement> statements, ExecuteTransactionInput request, Authorizer access,
                      ResponseBody response) throws IOException {
        int n = statements.size();
        List<Items.Get> gets = new ArrayList<>(n);
        List<Condition> filters = new ArrayList<>(n);
        TransactionItems named = new TransactionItems();
        KeyMismatches mismatches = new KeyMismatches();
        for (int i = 0; i < n; i++) {
            Statement.Select s = (Statement.Select) statements.get(i);
            if (access.enforced()) Permissions.statement(access, engine, s, ENCLOSING_OPERATION);
            TableDefinition table = engine.tables().require(s.tableName());
            List<Condition> terms = PartiqlPlans.terms(s.where());
            Map<String, AttributeValue> key = null;
            try {
                key = PartiqlPlans.primaryKey(terms, PartiqlWrites.keyAttributes(table));
                PrimaryKeys.checkKey(table.keySchema(), key);
            } catch (PartiqlPlans.IncompleteKeyException | KeySchemaMismatchException e) {
                mismatches.record(i, e);
            }
            named.name(table, key);
            // The item is read whole: the other terms may name attributes the projection drops.
            gets.add(new Items.Get(table, key, null));
            filters.add(PartiqlPlans.and(terms));
        }
        named.checkDistinct();
        mismatches.throwIfAny(n);

        List<Page> results = engine.items().transactGet(Operation.EXECUTE_TRANSACTION, gets);

        List<String> tableNames = new ArrayList<>(n);
        List<Map<String, AttributeValue>> items = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            Statement.Select s = (Statement.Select) statements.get(i);
            tableNames.add(s.tableName());
            Map<String, AttributeValue> item = results.get(i).item();
            if (item != null && filters.get(i) != null && !ConditionEvaluator.matches(filters.get(i), item)) item = null;
            if (item != null && s.projection() != null) item = Projector.project(item, s.projection());
            items.add(item);
        }
        PerTableResults.writeTransactGet(response.json(), results, items, tableNames, request.returnConsumedCapacity());
    }

    // ---- writes -------------------------------------------------------------------------------

    private void write(List<Statement> statements, ExecuteTransactionInput request, Authorizer access,
                       ResponseBody response) throws IOException {
        int n = statements.size();
        List<ItemWrite> writes = new ArrayList<>(n);
        TransactionItems named = new TransactionItems();
        KeyMismatches mismatches = new KeyMismatches();
        String capacity = request.returnConsumedCapacity();
        for (int i = 0; i < n; i++) {
            Statement statement = statements.get(i);
            boolean returnOld = "ALL_OLD".equals(request.transactStatements().get(i).returnValuesOnConditionCheckFailure());
            ItemWrite write = null;
            if (access.enforced()) Permissions.statement(access, engine, statement, ENCLOSING_OPERATION);
            try {
                write = switch (statement) {
                    case Statement.Insert s -> PartiqlWrites.insert(engine, s);
                    case Statement.Update s -> PartiqlWrites.update(engine, s, returnOld);
                    case Statement.Delete s -> PartiqlWrites.delete(engine, s, returnOld);
                    case Statement.Exists s -> conditionCheck(i, s, returnOld);
                    case Statement.Select s -> throw new IllegalStateException("a read in a write transaction");
                };
            } catch (PartiqlPlans.IncompleteKeyException | KeySchemaMismatchException e) {
                mismatches.record(i, e);
            }
            if (write != null) named.name(write);
            if (statement instanceof Statement.Insert s) named.carry(s.item());
            writes.add(write);
        }
        named.checkDistinct();
        named.checkPayload();
        mismatches.throwIfAny(n);

        String token = request.clientRequestToken();
        WriteOutcome outcome;
        try {
            outcome = engine.items().transactWrite(Operation.EXECUTE_TRANSACTION, writes,
                    token == null ? null : new ClientToken(token, RequestDigest.of(request, "ClientRequestToken")));
        } catch (TransactionCanceledException e) {
            throw duplicatesNamed(e, statements);
        }

        List<String> tableNames = new ArrayList<>(n);
        for (Statement statement : statements) tableNames.add(statement.tableName());
        PerTableResults.ofTransaction(outcome, tableNames).writeTransactionCapacity(response.json(), capacity,
                outcome.replayed());
    }

    /**
     * {@code EXISTS(SELECT * FROM t WHERE key AND condition)}: a ConditionCheck of the item the
     * key names. DynamoDB requires at least one term besides the key ("PartiQL for DynamoDB",
     * EXISTS); the text of its refusal is DynamoDB Local's.
     */
    private ItemWrite conditionCheck(int i, Statement.Exists exists, boolean returnOld) {
        Statement.Select s = exists.select();
        TableDefinition table = engine.tables().require(s.tableName());
        List<Condition> terms = PartiqlPlans.terms(s.where());
        Map<String, AttributeValue> key = PartiqlPlans.primaryKey(terms, PartiqlWrites.keyAttributes(table));
        if (terms.isEmpty() || s.indexName() != null) {
            throw DynamoDbException.validation(String.format(STATEMENT_ERROR, i,
                    "EXISTS() must contain a single item read with additional condition"));
        }
        return ItemWrite.conditionCheck(table, key, PartiqlPlans.and(terms), returnOld);
    }

    /** An INSERT's failed condition is its key being taken: said so, as ValidationError. */
    private static TransactionCanceledException duplicatesNamed(TransactionCanceledException e,
                                                                 List<Statement> statements) {
        List<CancellationReason> reasons = new ArrayList<>(e.reasons());
        boolean changed = false;
        for (int i = 0; i < reasons.size(); i++) {
            if (statements.get(i) instanceof Statement.Insert
                    && CancellationReason.CONDITIONAL_CHECK_FAILED.equals(reasons.get(i).code())) {
                reasons.set(i, new CancellationReason(CancellationReason.VALIDATION_ERROR,
                        PartiqlWrites.duplicateItem().getMessage(), null));
                changed = true;
            }
        }
        return changed ? new TransactionCanceledException(reasons) : e;
    }
}
