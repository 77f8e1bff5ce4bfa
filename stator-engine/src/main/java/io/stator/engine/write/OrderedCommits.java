package io.stator.engine.write;

import io.stator.core.model.AttributeValue;
import io.stator.engine.table.TableDefinition;
import java.util.Map;

/**
 * Tables whose writes a consensus group orders (global tables with multi-Region strong
 * consistency): a write to one is checked and computed here as any other, against this region's
 * store brought up to date first, and then proposed to the group rather than committed; every
 * region commits the group's writes in its log's order ({@link WritePipeline#applyCommitted}). A
 * proposal expects the item's version it was computed from, so a write another region committed
 * first wins and this one gets ReplicatedWriteConflictException. Strongly consistent reads of such
 * a table catch up first too.
 */
public interface OrderedCommits {

    /** No table's writes are ordered elsewhere. */
    OrderedCommits NONE = new OrderedCommits() {
        @Override
        public boolean orders(TableDefinition table) {
            return false;
        }

        @Override
        public void catchUp(TableDefinition table) { }

        @Override
        public long versionBeforeRead(TableDefinition table, byte[] rowKey) {
            return 0;
        }

        @Override
        public void propose(TableDefinition table, byte[] rowKey, Map<String, AttributeValue> key,
                            Map<String, AttributeValue> newItem, long expectedVersion) {
            throw new IllegalStateException("no table's writes are ordered");
        }
    };

    /** Whether the table's writes are ordered by consensus. */
    boolean orders(TableDefinition table);

    /** Returns once this region's store holds every write the group committed before the call. */
    void catchUp(TableDefinition table);

    /**
     * The item's version, read before the item itself (after catching up): a write proposed on it
     * commits only if nothing committed in between.
     */
    long versionBeforeRead(TableDefinition table, byte[] rowKey);

    /**
     * Proposes the item's new state (null: deleted); returns once committed and applied here.
     * Throws ReplicatedWriteConflictException when another region's write to the item came first.
     */
    void propose(TableDefinition table, byte[] rowKey, Map<String, AttributeValue> key,
                 Map<String, AttributeValue> newItem, long expectedVersion);
}
