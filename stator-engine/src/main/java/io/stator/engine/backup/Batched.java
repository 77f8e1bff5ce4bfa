package io.stator.engine.backup;

import io.stator.core.key.KeyLayout;
import io.stator.core.key.KeyRange;
import io.stator.core.key.KeyRanges;
import io.stator.engine.keyspace.Keyspaces;
import io.stator.storage.Cursor;
import io.stator.storage.Snapshot;
import io.stator.storage.Storage;
import io.stator.storage.WriteBatch;
import java.util.function.BooleanSupplier;

/**
 * How the background work walks rows: a backup's copy of a table, point-in-time recovery's base
 * copy and its folding all write for each row of a cursor, a few hundred rows to a commit, so that
 * no commit grows with the table and a server stopping waits for one batch at the most.
 */
final class Batched {

    private static final int ROWS_PER_COMMIT = 512;
    /** A commit also ends past this many bytes of rows read: 512 items of 400 KB would not be one commit on Cassandra. */
    private static final int BYTES_PER_COMMIT = 4 << 20;

    private Batched() {}

    /** Stages what one row of the cursor becomes. */
    @FunctionalInterface
    interface Stage {
        void stage(WriteBatch batch, byte[] key, byte[] value);
    }

    /** Stages every row of the cursor, committing every few hundred, until the end or {@code stopped}; how many. */
    static long forEach(Storage storage, Cursor cursor, BooleanSupplier stopped, Stage stage) {
        long rows = 0;
        boolean more = true;
        while (more && !stopped.getAsBoolean()) {
            try (WriteBatch batch = storage.newBatch()) {
                int n = 0;
                long bytes = 0;
                while (n < ROWS_PER_COMMIT && bytes < BYTES_PER_COMMIT && (more = cursor.next())) {
                    stage.stage(batch, cursor.key(), cursor.value());
                    bytes += cursor.value().length;
                    n++;
                }
                if (n > 0) storage.commit(batch);
                rows += n;
            }
        }
        return rows;
    }

    /** The table's items (its own rows, no index entries) as the snapshot has them: a whole-table scan's range. */
    static Cursor tableItems(Storage storage, Snapshot snapshot, long tableId) {
        KeyRange all = KeyRanges.segment(tableId, KeyLayout.BASE_TABLE_INDEX_ID, 0, 1);
        return storage.range(snapshot, Keyspaces.ITEMS, all.from(), all.to(), false);
    }
}
