package io.stator.engine.write;

import io.stator.core.error.DynamoDbException;
import io.stator.core.expression.Path;
import io.stator.core.expression.UpdateAction;
import io.stator.core.expression.UpdateApplier;
import io.stator.core.model.AttributeValue;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * What UpdateItem (or a transaction's Update) does to an item: an UpdateExpression's actions,
 * or the legacy AttributeUpdates. Either is a pure function from the item to the updated item,
 * safe to run twice.
 */
public sealed interface ItemUpdate {

    /** No change: the update creates the item with its key only, or leaves it as it is. */
    ItemUpdate NONE = new Expression(List.of());

    /** The document paths the update touches, in order: what UPDATED_OLD and UPDATED_NEW return. */
    List<Path> targets();

    /** The item updated; {@code base} is the stored item, or the key when there is none. */
    Map<String, AttributeValue> apply(Map<String, AttributeValue> base);

    /**
     * True when the update only removes attributes. REMOVE alone on a missing item creates
     * nothing and, though its paths lead nowhere, is no error (DynamoDB's behaviour, recorded by
     * Scylla's tests).
     */
    boolean removesOnly();

    /** An UpdateExpression's actions, resolved, in the order written. */
    record Expression(List<UpdateAction> actions) implements ItemUpdate {
        public Expression {
            actions = List.copyOf(actions);
        }

        @Override
        public List<Path> targets() {
            List<Path> targets = new ArrayList<>(actions.size());
            for (UpdateAction a : actions) targets.add(a.path());
            return targets;
        }

        @Override
        public Map<String, AttributeValue> apply(Map<String, AttributeValue> base) {
            return UpdateApplier.apply(actions, base);
        }

        @Override
        public boolean removesOnly() {
            if (actions.isEmpty()) return false;
            for (UpdateAction a : actions) if (!(a instanceof UpdateAction.Remove)) return false;
            return true;
        }
    }

    /**
     * The legacy AttributeUpdates: per top-level attribute, PUT (the default) a value, ADD to a
     * number, set or list, or DELETE the attribute or some of a set's elements. Its errors are
     * worded differently from UpdateExpression's.
     *
     * @param updates by attribute name, in request order
     */
    record AttributeUpdates(Map<String, AttributeUpdate> updates) implements ItemUpdate {

        private static final Supplier<DynamoDbException> MISMATCH =
                () -> DynamoDbException.validation("Type mismatch for attribute to update");

        @Override
        public List<Path> targets() {
            List<Path> targets = new ArrayList<>(updates.size());
            for (String name : updates.keySet()) targets.add(Path.of(name));
            return targets;
        }

        @Override
        public Map<String, AttributeValue> apply(Map<String, AttributeValue> base) {
            Map<String, AttributeValue> item = new LinkedHashMap<>(base);
            for (Map.Entry<String, AttributeUpdate> e : updates.entrySet()) {
                String name = e.getKey();
                AttributeValue value = e.getValue().value();
                AttributeValue next = switch (e.getValue().action()) {
                    case PUT -> value;
                    case ADD -> UpdateApplier.add(item.get(name), value, MISMATCH);
                    case DELETE -> value == null ? null : UpdateApplier.delete(item.get(name), value, MISMATCH);
                };
                if (next == null) item.remove(name);
                else item.put(name, next);
            }
            return item;
        }

        /**
         * DELETE alone (of attributes, or of a set's elements) on a missing item creates nothing:
         * "DELETE - Nothing happens; there is no attribute to delete" (API reference,
         * AttributeValueUpdate, for an item not found).
         */
        @Override
        public boolean removesOnly() {
            for (AttributeUpdate u : updates.values()) if (u.action() != AttributeUpdate.Action.DELETE) return false;
            return !updates.isEmpty();
        }
    }

    /** One attribute's legacy update. @param value null for a DELETE of the whole attribute */
    record AttributeUpdate(Action action, AttributeValue value) {
        public enum Action { PUT, ADD, DELETE }
    }
}
