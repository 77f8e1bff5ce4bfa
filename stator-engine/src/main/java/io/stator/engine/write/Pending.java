package io.stator.engine.write;

import io.stator.core.item.ItemCodec;
import io.stator.core.item.ItemSize;
import io.stator.core.key.KeyLayout;
import io.stator.core.model.AttributeValue;
import io.stator.engine.advisor.ObservedWrite;
import io.stator.engine.capacity.ConsumedCapacity;
import io.stator.engine.capacity.Usage;
import io.stator.engine.changes.ChangeRecord;
import io.stator.engine.changes.ItemVersion;
import io.stator.engine.table.TableDefinition;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** One item's write on its way through the stages. */
final class Pending {
    final ItemWrite write;
    TableDefinition table;
    /** The item as stored when read (what a commit on shared storage expects), or null. */
    final byte[] oldStored;
    final Map<String, AttributeValue> oldItem;
    Map<String, AttributeValue> newItem;
    long oldSize;
    long newSize;
    List<IndexChange> indexChanges = List.of();
    long collectionSize = -1;
    boolean queuedIndexChanges;
    /** The number of the last of them in the propagator's queue. */
    long lastIndexChange;
    ChangeRecord.Origin origin = ChangeRecord.Origin.REQUEST;
    /** A replicated change's version (global tables), else null. */
    ItemVersion version;
    /** Its stream record's sequence number as the table's Raft log gives it (MRSC), else 0. */
    long streamSequence;
    /** What the write consumed, once admitted. */
    ConsumedCapacity consumed;

    Pending(ItemWrite write, TableDefinition table, byte[] oldStored) {
        this.write = write;
        this.table = table;
        this.oldStored = oldStored;
        this.oldItem = oldStored == null ? null : ItemCodec.decode(oldStored);
        this.newItem = oldItem; // until computed; a ConditionCheck keeps it
        this.oldSize = oldItem == null ? 0 : ItemSize.of(oldItem);
    }

    boolean changesNothing() {
        return oldItem == null && newItem == null;
    }

    /**
     * What the write is billed on: the larger of the item before and after, and its index
     * changes; a write that changes nothing (or only checks) on the item as it is.
     */
    Usage.Write usage(boolean transactional) {
        boolean written = !write.isConditionCheck() && !changesNothing();
        List<Usage.IndexWrite> indexes = List.of();
        if (!indexChanges.isEmpty()) {
            indexes = new ArrayList<>(indexChanges.size());
            for (IndexChange c : indexChanges) indexes.add(c.usage());
        }
        return new Usage.Write(oldSize, written ? newSize : 0, indexes, transactional,
                KeyLayout.hashOf(write.rowKey()));
    }

    WriteResult result(ConsumedCapacity consumed) {
        return new WriteResult(write, oldItem, newItem, consumed, collectionSize);
    }

    /** The write as the advisor records it. */
    ObservedWrite observed() {
        List<ObservedWrite.IndexChange> changes = List.of();
        if (!indexChanges.isEmpty()) {
            changes = new ArrayList<>(indexChanges.size());
            for (IndexChange c : indexChanges) {
                boolean removed = c.before() != null && (c.after() == null || c.moved());
                changes.add(new ObservedWrite.IndexChange(c.index(), removed ? c.before().key() : null,
                        removed ? c.before().size() : -1, c.after() == null ? null : c.after().key(),
                        c.after() == null ? -1 : c.after().size()));
            }
        }
        boolean written = !write.isConditionCheck() && !changesNothing();
        return new ObservedWrite(table, write.action(), write.rowKey(), write.condition(), write.updateShape(),
                oldItem, newItem, oldSize, written ? newSize : oldSize, changes, written);
    }
}
