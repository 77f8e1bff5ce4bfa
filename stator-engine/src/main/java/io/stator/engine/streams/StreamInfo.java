package io.stator.engine.streams;

import io.stator.engine.table.KeySchema;
import io.stator.engine.table.TableDefinition.StreamViewType;

/**
 * One stream of a table, enabled now or in the past: what its records and shards are derived
 * from. A stream's shards are not stored: shard (slot, generation) holds the records of the
 * partition-key hashes of its slot whose sequence numbers fall in its generation's time window
 * ({@link Shards}), so the shard count and period are kept with the stream, fixed at its creation.
 *
 * @param disabledMillis when the stream was disabled (or its table deleted), -1 while enabled
 */
public record StreamInfo(String tableName, long tableId, String label, long createdMillis, StreamViewType viewType,
                         KeySchema keySchema, int shardCount, long shardPeriodMillis, long disabledMillis) {

    public boolean enabled() { return disabledMillis < 0; }

    StreamInfo disabledAt(long millis) {
        return new StreamInfo(tableName, tableId, label, createdMillis, viewType, keySchema, shardCount,
                shardPeriodMillis, millis);
    }
}
