package io.stator.engine.item;

import io.stator.core.expression.Condition;
import io.stator.core.model.AttributeValue;
import io.stator.engine.index.IndexEntries;
import io.stator.engine.item.ItemOperations.ItemMutation;
import io.stator.engine.table.TableDefinition;
import java.util.Map;

/**
 * One item's write as a request describes it: which item, under what condition, and how its
 * new state follows from its old one. PutItem, UpdateItem, DeleteItem, BatchWriteItem's
 * requests and TransactWriteItems' actions are each one of these; the factories check the key
 * against the table's key schema, and the item's index key values (a put's at once, an
 * update's when its new item is computed).
 *
 * @param rowKey    the item's storage key
 * @param condition null for none
 * @param mutation  the new item from the old one (null to delete); null for a ConditionCheck,
 *                  a transaction action that only checks
 */
public record ItemWrite(TableDefinition table, byte[] rowKey, Condition condition, ItemMutation mutation,
                        boolean returnOldItemOnFailure) {

    /**
     * PutItem, or a Put of TransactWriteItems: replaces the whole item. Its index key values are
     * checked at once, except in a transaction, where one of the wrong type cancels the
     * transaction (a ValidationError reason, in the action's place) instead of failing the
     * request, so it is checked with the new item (conformance, docs/dynamodb/indexes.md §4.2).
     */
    public static ItemWrite put(TableDefinition table, Map<String, AttributeValue> item, Condition condition,
                                boolean returnOldItemOnFailure, boolean inTransaction) {
        PrimaryKeys.checkItem(table.keySchema(), item);
        ItemMutation replace = old -> item;
        if (inTransaction) {
            replace = old -> {
                IndexEntries.checkItem(table, item);
                return item;
            };
        } else {
            IndexEntries.checkItem(table, item);
        }
        return new ItemWrite(table, ItemOperations.rowKey(table, item), condition, replace, returnOldItemOnFailure);
    }

    /** DeleteItem: removes the item. */
    public static ItemWrite delete(TableDefinition table, Map<String, AttributeValue> key, Condition condition,
                                   boolean returnOldItemOnFailure) {
        PrimaryKeys.checkKey(table.keySchema(), key);
        return new ItemWrite(table, ItemOperations.rowKey(table, key), condition, old -> null, returnOldItemOnFailure);
    }

    /** UpdateItem: {@code update} computes the new item from the old one (null when absent). */
    public static ItemWrite update(TableDefinition table, Map<String, AttributeValue> key, Condition condition,
                                   boolean returnOldItemOnFailure, ItemMutation update) {
        PrimaryKeys.checkKey(table.keySchema(), key);
        ItemMutation checked = old -> {
            Map<String, AttributeValue> updated = update.apply(old);
            if (updated != null) IndexEntries.checkUpdate(table, old, updated);
            return updated;
        };
        return new ItemWrite(table, ItemOperations.rowKey(table, key), condition, checked, returnOldItemOnFailure);
    }

    /** A transaction's ConditionCheck: the condition must hold, nothing is written. */
    public static ItemWrite conditionCheck(TableDefinition table, Map<String, AttributeValue> key, Condition condition,
                                           boolean returnOldItemOnFailure) {
        PrimaryKeys.checkKey(table.keySchema(), key);
        return new ItemWrite(table, ItemOperations.rowKey(table, key), condition, null, returnOldItemOnFailure);
    }

    public boolean isConditionCheck() {
        return mutation == null;
    }
}
