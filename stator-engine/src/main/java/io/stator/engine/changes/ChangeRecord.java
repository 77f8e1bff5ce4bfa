package io.stator.engine.changes;

import io.stator.core.model.AttributeValue;
import io.stator.engine.table.TableDefinition;
import java.util.Map;

/**
 * One committed change of one item, as the write pipeline stages it: the item before and after
 * (null when absent), and who made it. Every write that changes an item, whatever the operation,
 * stages exactly one, in the same atomic batch as the change itself (see {@link ChangeLog}).
 *
 * @param rowKey  the item's storage key
 * @param version a replicated change's version, as the region that made it gave it; null for a
 *                change made here (global tables' replication gives it one as it stages it)
 * @param streamSequence the sequence number its stream record carries, given by the table's Raft
 *                log so that it is the same in every region (multi-Region strong consistency); 0
 *                for one the stream draws here
 */
public record ChangeRecord(TableDefinition table, byte[] rowKey, Map<String, AttributeValue> oldItem,
                           Map<String, AttributeValue> newItem, Origin origin, ItemVersion version,
                           long streamSequence) {

    public ChangeRecord(TableDefinition table, byte[] rowKey, Map<String, AttributeValue> oldItem,
                        Map<String, AttributeValue> newItem, Origin origin) {
        this(table, rowKey, oldItem, newItem, origin, null, 0);
    }

    /** DynamoDB Streams' event name for this change. */
    public EventName eventName() {
        if (oldItem == null) return EventName.INSERT;
        return newItem == null ? EventName.REMOVE : EventName.MODIFY;
    }

    /** INSERT, MODIFY or REMOVE, as a stream record names its change. */
    public enum EventName { INSERT, MODIFY, REMOVE }

    /** Who made a change. */
    public enum Origin {
        /** A client's request: PutItem, UpdateItem, DeleteItem, a batch's or a transaction's write. */
        REQUEST,
        /**
         * Time to Live deleting an expired item. Its stream record is a REMOVE whose userIdentity
         * is {"type": "Service", "principalId": "dynamodb.amazonaws.com"} (developer guide,
         * "Change data capture for DynamoDB Streams" and "Working with expired items").
         */
        TIME_TO_LIVE,
        /**
         * A restore writing a backup's item into its new table: neither admitted nor charged (a
         * restored table has no stream: DynamoDB does not restore stream settings).
         */
        RESTORE,
        /**
         * A global table's change made in another region, applied here because it is newer than
         * the item (last writer wins): in this region's stream and indexes, never shipped again.
         */
        REPLICATION
    }
}
