package io.stator.core.partiql;

import io.stator.core.expression.Condition;
import io.stator.core.expression.Path;
import io.stator.core.expression.UpdateAction;
import io.stator.core.model.AttributeValue;
import java.util.List;
import java.util.Map;

/**
 * One PartiQL statement, parsed and with its {@code ?} parameters bound. WHERE clauses are the
 * expression language's {@link Condition} (values as {@code Operand.Constant}, paths resolved),
 * so that a front end can hand them to the same evaluator as FilterExpression and
 * ConditionExpression.
 */
public sealed interface Statement {

    String tableName();

    /**
     * {@code SELECT projection FROM "table"["index"] [WHERE ...] [ORDER BY path [ASC|DESC]]}.
     * {@code projection} is null for {@code *}; {@code where} and {@code orderBy} may be null.
     */
    record Select(List<Path> projection, String tableName, String indexName, Condition where, Path orderBy,
                  boolean descending) implements Statement {
        public Select {
            projection = projection == null ? null : List.copyOf(projection);
        }
    }

    /** {@code INSERT INTO "table" VALUE {...}}. */
    record Insert(String tableName, Map<String, AttributeValue> item) implements Statement {
        public Insert {
            item = Map.copyOf(item);
        }
    }

    /** What {@code RETURNING} asks for, in ReturnValues' vocabulary; NONE without the clause. */
    enum Returning { NONE, ALL_OLD, MODIFIED_OLD, ALL_NEW, MODIFIED_NEW }

    /** {@code UPDATE "table" SET ... REMOVE ... WHERE ... [RETURNING ...]}: the actions in the order written. */
    record Update(String tableName, List<UpdateAction> actions, Condition where, Returning returning)
            implements Statement {
        public Update {
            actions = List.copyOf(actions);
        }
    }

    /**
     * {@code EXISTS(SELECT * FROM "table" WHERE ...)}: in a write transaction, the condition that
     * the item named by the full primary key exists and satisfies the other terms (DynamoDB's
     * ConditionCheck in PartiQL; "PartiQL for DynamoDB", EXISTS function).
     */
    record Exists(Select select) implements Statement {
        @Override
        public String tableName() { return select.tableName(); }
    }

    /** {@code DELETE FROM "table" WHERE ... [RETURNING ALL OLD *]}. */
    record Delete(String tableName, Condition where, Returning returning) implements Statement {}
}
