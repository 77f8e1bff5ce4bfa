package io.stator.engine.write;

import io.stator.core.expression.Condition;
import io.stator.core.expression.Path;
import io.stator.core.model.AttributeValue;
import io.stator.engine.index.IndexEntries;
import io.stator.engine.item.ItemLimits;
import io.stator.engine.item.KeyPaths;
import io.stator.engine.item.LimitedItem;
import io.stator.engine.item.PrimaryKeys;
import io.stator.engine.item.RowKeys;
import io.stator.engine.table.TableDefinition;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One item's write, as an operation describes it to the {@link WritePipeline}: which item, under
 * what condition, how its new state follows from its old one, and what to return of it. PutItem,
 * UpdateItem, DeleteItem, BatchWriteItem's requests and TransactWriteItems' actions are each
 * one of these. The factories check the key against the table's key schema, and the item's index
 * key values (a put's at once, an update's when its new item is computed).
 *
 * @param rowKey       the item's storage key
 * @param condition    null for none
 * @param mutation     the new item from the old one (null to delete); null for a ConditionCheck,
 *                     a transaction action that only checks
 * @param updatedPaths what an update touches (for UPDATED_OLD and UPDATED_NEW); empty otherwise
 * @param action       PutItem, UpdateItem, DeleteItem or ConditionCheck, as the advisor names it
 * @param update       an update's actions; null for other writes
 */
public record ItemWrite(TableDefinition table, byte[] rowKey, Condition condition, ItemMutation mutation,
                        boolean returnOldItemOnFailure, ReturnValues returnValues, List<Path> updatedPaths,
                        String action, ItemUpdate update) {

    /** A write made by hand (Time to Live's, a test's): a put unless it only checks. */
    public ItemWrite(TableDefinition table, byte[] rowKey, Condition condition, ItemMutation mutation,
                     boolean returnOldItemOnFailure, ReturnValues returnValues, List<Path> updatedPaths) {
        this(table, rowKey, condition, mutation, returnOldItemOnFailure, returnValues, updatedPaths,
                mutation == null ? CONDITION_CHECK : PUT, null);
    }

    public static final String PUT = "PutItem";
    public static final String UPDATE = "UpdateItem";
    public static final String DELETE = "DeleteItem";
    public static final String CONDITION_CHECK = "ConditionCheck";

    /**
     * Computes an item's new state from its old state; returns null to delete it. A pure function
     * of the old item: the pipeline may run it again, and its result only counts once committed.
     */
    @FunctionalInterface
    public interface ItemMutation {
        /** @param oldItem the item as stored, or null when absent */
        Map<String, AttributeValue> apply(Map<String, AttributeValue> oldItem);
    }

    /**
     * PutItem, or a Put of TransactWriteItems: replaces the whole item, which has been held to
     * DynamoDB's limits ({@link ItemLimits}). Its index key values are
     * checked at once, except in a transaction, where one of the wrong type cancels the
     * transaction (a ValidationError reason, in the action's place) instead of failing the
     * request, so it is checked with the new item (conformance, docs/dynamodb/indexes.md §4.2).
     */
    public static ItemWrite put(TableDefinition table, LimitedItem limited, Condition condition,
                                ReturnValues returnValues, boolean returnOldItemOnFailure, boolean inTransaction) {
        Map<String, AttributeValue> item = limited.values();
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
        return new ItemWrite(table, RowKeys.of(table, item), condition, replace, returnOldItemOnFailure, returnValues,
                List.of(), PUT, null);
    }

    /** A put of an item not yet held to DynamoDB's limits: checks them (nesting, then size) first. */
    public static ItemWrite put(TableDefinition table, Map<String, AttributeValue> item, Condition condition,
                                ReturnValues returnValues, boolean returnOldItemOnFailure, boolean inTransaction) {
        return put(table, ItemLimits.check(item), condition, returnValues, returnOldItemOnFailure, inTransaction);
    }

    /** DeleteItem, or a Delete of TransactWriteItems: removes the item. */
    public static ItemWrite delete(TableDefinition table, Map<String, AttributeValue> key, Condition condition,
                                   ReturnValues returnValues, boolean returnOldItemOnFailure) {
        PrimaryKeys.checkKey(table.keySchema(), key);
        return new ItemWrite(table, RowKeys.of(table, key), condition, old -> null, returnOldItemOnFailure,
                returnValues, List.of(), DELETE, null);
    }

    /**
     * UpdateItem, or an Update of TransactWriteItems: applies {@code update} to the item, which
     * is created when absent (an upsert). Checks, in DynamoDB's order: the key against the
     * schema, then that no key attribute is updated or reached inside (dynalite's order); the
     * updated item's size and index keys when it is computed.
     */
    public static ItemWrite update(TableDefinition table, Map<String, AttributeValue> key, Condition condition,
                                   ReturnValues returnValues, boolean returnOldItemOnFailure, ItemUpdate update) {
        PrimaryKeys.checkKey(table.keySchema(), key);
        List<Path> targets = update.targets();
        List<String> topLevel = new ArrayList<>(targets.size());
        for (Path p : targets) topLevel.add(p.topLevelName());
        KeyPaths.checkNotUpdatingKey(table.keySchema(), topLevel);
        KeyPaths.checkNoNestedKeyPaths(table.keySchema(), targets);
        boolean removesOnly = update.removesOnly();
        ItemMutation mutation = old -> {
            if (old == null && removesOnly) return null;
            Map<String, AttributeValue> updated = update.apply(old != null ? old : key);
            ItemLimits.checkUpdatedItemSize(updated);
            IndexEntries.checkUpdate(table, old, updated);
            return updated;
        };
        return new ItemWrite(table, RowKeys.of(table, key), condition, mutation, returnOldItemOnFailure, returnValues,
                targets, UPDATE, update);
    }

    /** A transaction's ConditionCheck: the condition must hold, nothing is written. */
    public static ItemWrite conditionCheck(TableDefinition table, Map<String, AttributeValue> key, Condition condition,
                                           boolean returnOldItemOnFailure) {
        PrimaryKeys.checkKey(table.keySchema(), key);
        return new ItemWrite(table, RowKeys.of(table, key), condition, null, returnOldItemOnFailure, ReturnValues.NONE,
                List.of(), CONDITION_CHECK, null);
    }

    public boolean isConditionCheck() {
        return mutation == null;
    }

    /**
     * An update's actions as the advisor's signatures show them: {@code SET a}, {@code ADD n},
     * {@code REMOVE x}, {@code DELETE s} (or the legacy {@code PUT a}), sorted; empty otherwise.
     */
    public List<String> updateShape() {
        if (update == null) return List.of();
        java.util.TreeSet<String> shape = new java.util.TreeSet<>();
        switch (update) {
            case ItemUpdate.Expression e -> {
                for (io.stator.core.expression.UpdateAction a : e.actions()) {
                    String verb = switch (a) {
                        case io.stator.core.expression.UpdateAction.Set x -> "SET";
                        case io.stator.core.expression.UpdateAction.Remove x -> "REMOVE";
                        case io.stator.core.expression.UpdateAction.Add x -> "ADD";
                        case io.stator.core.expression.UpdateAction.Delete x -> "DELETE";
                    };
                    shape.add(verb + " " + a.path().topLevelName());
                }
            }
            case ItemUpdate.AttributeUpdates u -> u.updates().forEach((name, x) -> shape.add(x.action().name() + " " + name));
        }
        return List.copyOf(shape);
    }
}
