package io.stator.engine.partiql;

import io.stator.core.error.DynamoDbException;
import io.stator.core.error.ErrorType;
import io.stator.core.expression.Condition;
import io.stator.core.expression.Operand;
import io.stator.core.expression.Path;
import io.stator.core.model.AttributeValue;
import io.stator.core.partiql.Statement;
import io.stator.engine.Engine;
import io.stator.engine.advisor.Operation;
import io.stator.engine.item.ItemLimits;
import io.stator.engine.item.LimitedItem;
import io.stator.engine.table.TableDefinition;
import io.stator.engine.write.ConditionalCheckFailedException;
import io.stator.engine.write.ItemUpdate;
import io.stator.engine.write.ItemWrite;
import io.stator.engine.write.ReturnValues;
import io.stator.engine.write.WriteResult;
import java.util.List;
import java.util.Map;

/**
 * PartiQL's INSERT, UPDATE, DELETE and EXISTS as the write pipeline's {@link ItemWrite}s, for
 * ExecuteStatement, BatchExecuteStatement and ExecuteTransaction: INSERT is a put on condition
 * that the key is free, UPDATE an update on condition that the item exists (PartiQL's UPDATE
 * never creates one), DELETE a delete, EXISTS a transaction's ConditionCheck; UPDATE's, DELETE's
 * and EXISTS's key comes from WHERE's equalities, its other terms are the write's condition.
 */
public final class PartiqlWrites {

    private PartiqlWrites() {}

    /** INSERT's failure when the key is taken; the text is DynamoDB Local's (DUPLICATE_ITEM_IN_TABLE). */
    public static DynamoDbException duplicateItem() {
        return new DynamoDbException(ErrorType.DUPLICATE_ITEM, "Duplicate primary key exists in table");
    }

    /**
     * EXISTS is a transaction's condition check and nothing else; the text is the one DynamoDB
     * Local gives, as recorded by other emulators' tests.
     */
    public static DynamoDbException existsOutsideTransaction() {
        return DynamoDbException.validation("EXISTS can only be used in ExecuteTransaction write requests.");
    }

    /**
     * The write a statement outside a transaction makes (ExecuteStatement's, BatchExecuteStatement's).
     *
     * @param returnOldItemOnFailure ReturnValuesOnConditionCheckFailure is ALL_OLD
     */
    public static ItemWrite of(Engine engine, Statement statement, boolean returnOldItemOnFailure) {
        return switch (statement) {
            case Statement.Insert s -> insert(engine, s);
            case Statement.Update s -> update(engine, s, returnOldItemOnFailure);
            case Statement.Delete s -> delete(engine, s, returnOldItemOnFailure);
            case Statement.Exists s -> throw existsOutsideTransaction();
            case Statement.Select s -> throw new IllegalArgumentException("a SELECT is no write");
        };
    }

    /**
     * Runs a statement's write outside a transaction; an INSERT whose condition (its key free)
     * fails is DuplicateItemException, as DynamoDB answers it.
     */
    public static WriteResult run(Engine engine, Operation operation, Statement statement, ItemWrite write) {
        try {
            return engine.items().write(operation, write);
        } catch (ConditionalCheckFailedException e) {
            if (statement instanceof Statement.Insert) throw duplicateItem();
            throw e;
        }
    }

    static ItemWrite insert(Engine engine, Statement.Insert s) {
        LimitedItem item = ItemLimits.check(s.item());
        TableDefinition table = engine.tables().require(s.tableName());
        Condition absent = new Condition.Function(new Operand.FunctionCall("attribute_not_exists",
                List.of(new Operand.PathOperand(Path.of(table.keySchema().partitionKey())))));
        return ItemWrite.put(table, item, absent, ReturnValues.NONE, false, false);
    }

    static ItemWrite update(Engine engine, Statement.Update s, boolean returnOldItemOnFailure) {
        TableDefinition table = engine.tables().require(s.tableName());
        List<Condition> terms = WhereTerms.terms(s.where());
        Map<String, AttributeValue> key = WhereTerms.primaryKey(terms, KeyAttributes.ofTable(table));
        terms.add(0, new Condition.Function(new Operand.FunctionCall("attribute_exists",
                List.of(new Operand.PathOperand(Path.of(table.keySchema().partitionKey()))))));
        return ItemWrite.update(table, key, WhereTerms.and(terms), returnValues(s.returning()),
                returnOldItemOnFailure, new ItemUpdate.Expression(s.actions()));
    }

    static ItemWrite delete(Engine engine, Statement.Delete s, boolean returnOldItemOnFailure) {
        TableDefinition table = engine.tables().require(s.tableName());
        List<Condition> terms = WhereTerms.terms(s.where());
        Map<String, AttributeValue> key = WhereTerms.primaryKey(terms, KeyAttributes.ofTable(table));
        return ItemWrite.delete(table, key, WhereTerms.and(terms), returnValues(s.returning()),
                returnOldItemOnFailure);
    }

    /** A RETURNING clause as the write's ReturnValues (dynamodb:ReturnValues names it so too). */
    public static ReturnValues returnValues(Statement.Returning returning) {
        return switch (returning) {
            case NONE -> ReturnValues.NONE;
            case ALL_OLD -> ReturnValues.ALL_OLD;
            case ALL_NEW -> ReturnValues.ALL_NEW;
            case MODIFIED_OLD -> ReturnValues.UPDATED_OLD;
            case MODIFIED_NEW -> ReturnValues.UPDATED_NEW;
        };
    }
}
