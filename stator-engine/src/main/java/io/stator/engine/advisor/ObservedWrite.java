package io.stator.engine.advisor;

import io.stator.core.expression.Condition;
import io.stator.core.model.AttributeValue;
import io.stator.engine.table.IndexDefinition;
import io.stator.engine.table.TableDefinition;
import java.util.List;
import java.util.Map;

/**
 * One item's write as the write pipeline saw it, for the advisor: the item before and after, its
 * index entries' changes, what the request asked. Nothing here is copied: the pipeline hands over
 * what it already holds.
 *
 * @param action       PutItem, UpdateItem, DeleteItem or ConditionCheck
 * @param rowKey       the item's row key
 * @param condition    null for none
 * @param update       an update's actions ({@link Signature#update}), empty for other writes
 * @param oldItem      null when absent
 * @param newItem      null when deleted or absent (a ConditionCheck's is its old item)
 * @param written      the item was changed (false for a ConditionCheck, or a write that changed nothing)
 */
public record ObservedWrite(TableDefinition table, String action, byte[] rowKey, Condition condition,
                            List<String> update, Map<String, AttributeValue> oldItem,
                            Map<String, AttributeValue> newItem, long oldBytes, long newBytes,
                            List<IndexChange> indexChanges, boolean written) {

    /**
     * One secondary index entry the write changed.
     *
     * @param removedKey the row key of the entry removed (its key moved, or the item left the
     *                   index), or null
     * @param writtenKey the row key of the entry written, or null
     */
    public record IndexChange(IndexDefinition index, byte[] removedKey, long removedBytes, byte[] writtenKey,
                              long writtenBytes) {

        /** The entry's key changed: the write is a delete and a put on the index. */
        public boolean moved() {
            return removedKey != null && writtenKey != null;
        }
    }
}
