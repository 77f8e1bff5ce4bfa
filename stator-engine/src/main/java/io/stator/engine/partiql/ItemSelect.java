package io.stator.engine.partiql;

import io.stator.core.error.DynamoDbException;
import io.stator.core.expression.Condition;
import io.stator.core.expression.ConditionEvaluator;
import io.stator.core.expression.Path;
import io.stator.core.expression.Projector;
import io.stator.core.model.AttributeValue;
import io.stator.core.partiql.Statement;
import io.stator.engine.Engine;
import io.stator.engine.advisor.Operation;
import io.stator.engine.read.Page;
import io.stator.engine.table.TableDefinition;
import java.util.List;
import java.util.Map;

/**
 * A SELECT that names one item by its whole primary key, as BatchExecuteStatement and
 * ExecuteTransaction run it: a read of the item, whole (the other terms of WHERE may name
 * attributes the projection drops), then those terms tested on it and the projection applied.
 *
 * @param condition WHERE's terms besides the key, or null
 */
public record ItemSelect(TableDefinition table, Map<String, AttributeValue> key, Condition condition,
                         List<Path> projection) {

    /** Recorded from DynamoDB by other emulators' tests (moto, and others). */
    static final String SELECT_WITHOUT_KEY =
            "Select statements within BatchExecuteStatement must specify the primary key in the where clause.";

    /**
     * The item {@code s} names; IncompleteKeyException when WHERE does not name one by the whole
     * key (ExecuteTransaction reports it as the statement's cancellation reason).
     */
    public static ItemSelect of(Engine engine, Statement.Select s) {
        return of(engine.tables().require(s.tableName()), s);
    }

    private static ItemSelect of(TableDefinition table, Statement.Select s) {
        List<Condition> terms = WhereTerms.terms(s.where());
        Map<String, AttributeValue> key = WhereTerms.primaryKey(terms, KeyAttributes.ofTable(table));
        return new ItemSelect(table, key, WhereTerms.and(terms), s.projection());
    }

    /**
     * BatchExecuteStatement's SELECT: the item, or a page without one; a read of an index, or a
     * WHERE without the whole key, is refused with DynamoDB's text.
     */
    public static Page get(Engine engine, Statement.Select s, boolean consistentRead) {
        TableDefinition table = engine.tables().require(s.tableName());
        if (s.indexName() != null) throw DynamoDbException.validation(SELECT_WITHOUT_KEY);
        ItemSelect select;
        try {
            select = of(table, s);
        } catch (DynamoDbException e) {
            throw DynamoDbException.validation(SELECT_WITHOUT_KEY);
        }
        Page page = engine.items().get(Operation.BATCH_EXECUTE_STATEMENT, table, select.key(), consistentRead, null);
        Map<String, AttributeValue> item = SelectedNames.named(select.returned(page.item()), s.projection());
        return new Page(item == null ? List.of() : List.of(item), item == null ? 0 : 1, page.scannedCount(),
                page.bytesRead(), null, page.usage(), page.consumed());
    }

    /** The item as the statement returns it: null unless it matches the other terms, projected. */
    public Map<String, AttributeValue> returned(Map<String, AttributeValue> item) {
        if (item == null || (condition != null && !ConditionEvaluator.matches(condition, item))) return null;
        return projection == null ? item : Projector.project(item, projection);
    }
}
