package io.stator.engine.partiql;

import io.stator.core.error.DynamoDbException;
import io.stator.core.expression.Condition;
import io.stator.core.model.AttributeValue;
import io.stator.core.partiql.Statement;
import io.stator.engine.Engine;
import io.stator.engine.table.TableDefinition;
import io.stator.engine.write.CancellationReason;
import io.stator.engine.write.ItemWrite;
import io.stator.engine.write.TransactionCanceledException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * ExecuteTransaction's rules: its statements are all reads (a SELECT is a Get of the item its
 * WHERE names, {@link ItemSelect}) or all writes (INSERT, UPDATE and DELETE as outside a
 * transaction, {@code EXISTS(SELECT ...)} a ConditionCheck), run by the engine's
 * {@code transactGet} and {@code transactWrite}.
 *
 * <p>Errors, in DynamoDB's words where recorded: a statement that can never run in a transaction
 * ({@link UnfitStatementException}: RETURNING, a read of an index, an EXISTS without a
 * condition; dynamodb-conformance, recorded from DynamoDB; DynamoDB Local words the others so)
 * fails the request, which names it. Reads and writes together are refused with DynamoDB Local's
 * text. An INSERT whose key is taken cancels the transaction with ValidationError "Duplicate
 * primary key exists in table" (DynamoDB Local's mapping).
 */
public final class PartiqlTransactions {

    private PartiqlTransactions() {}

    /** Refuses what a transaction can never hold: a RETURNING clause, a read of an index. */
    public static void checkFits(Statement s) {
        Statement.Returning returning = switch (s) {
            case Statement.Update u -> u.returning();
            case Statement.Delete d -> d.returning();
            default -> Statement.Returning.NONE;
        };
        if (returning != Statement.Returning.NONE) {
            throw new UnfitStatementException("RETURNING clause is not supported in ExecuteTransaction.");
        }
        if (s instanceof Statement.Select select && select.indexName() != null) {
            throw new UnfitStatementException("Reads on indices are not supported within transactions.");
        }
    }

    /** True when the statements are reads; refuses reads and writes together (DynamoDB Local's text). */
    public static boolean reads(List<Statement> statements) {
        boolean reads = false;
        boolean writes = false;
        for (Statement s : statements) {
            if (s instanceof Statement.Select) reads = true;
            else writes = true;
        }
        if (reads && writes) {
            throw DynamoDbException.validation(
                    "ExecuteTransaction API does not support both read and write operations in the same request.");
        }
        return reads;
    }

    /**
     * The write a transaction's statement makes: as outside one, and an EXISTS is a
     * ConditionCheck of the item its key names.
     */
    public static ItemWrite write(Engine engine, Statement statement, boolean returnOldItemOnFailure) {
        return statement instanceof Statement.Exists e
                ? conditionCheck(engine, e, returnOldItemOnFailure)
                : PartiqlWrites.of(engine, statement, returnOldItemOnFailure);
    }

    /**
     * {@code EXISTS(SELECT * FROM t WHERE key AND condition)}: a ConditionCheck of the item the
     * key names. DynamoDB requires at least one term besides the key ("PartiQL for DynamoDB",
     * EXISTS); the text of its refusal is DynamoDB Local's.
     */
    private static ItemWrite conditionCheck(Engine engine, Statement.Exists exists, boolean returnOldItemOnFailure) {
        Statement.Select s = exists.select();
        TableDefinition table = engine.tables().require(s.tableName());
        List<Condition> terms = WhereTerms.terms(s.where());
        Map<String, AttributeValue> key = WhereTerms.primaryKey(terms, KeyAttributes.ofTable(table));
        if (terms.isEmpty() || s.indexName() != null) {
            throw new UnfitStatementException("EXISTS() must contain a single item read with additional condition");
        }
        return ItemWrite.conditionCheck(table, key, WhereTerms.and(terms), returnOldItemOnFailure);
    }

    /**
     * A transaction's cancellation as PartiQL reports it: an INSERT's failed condition is its key
     * being taken, said so as ValidationError (DynamoDB Local's mapping).
     */
    public static TransactionCanceledException duplicatesNamed(TransactionCanceledException e,
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
