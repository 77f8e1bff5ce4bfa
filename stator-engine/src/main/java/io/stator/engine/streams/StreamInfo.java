package io.stator.engine.streams;

import io.stator.engine.table.KeySchema;
import io.stator.engine.table.TableDefinition.StreamViewType;

/**
 * One stream of a table, enabled now or in the past: what its records and shards are derived
 * from. Its shards are not stored one by one: its lineage ({@link ShardLineage}, the table's
 * partitions and their splits since the stream was enabled) and the rollover period give them
 * ({@link Shards}).
 *
 * @param disabledMillis when the stream was disabled (or its table deleted), -1 while enabled
 */
public record StreamInfo(String tableName, long tableId, String label, long createdMillis, StreamViewType viewType,
                         KeySchema keySchema, ShardLineage lineage, long shardPeriodMillis, long disabledMillis) {

    public boolean enabled() { return disabledMillis < 0; }

    StreamInfo disabledAt(long millis) {
        return new StreamInfo(tableName, tableId, label, createdMillis, viewType, keySchema, lineage,
                shardPeriodMillis, millis);
    }

    StreamInfo withLineage(ShardLineage next) {
        return new StreamInfo(tableName, tableId, label, createdMillis, viewType, keySchema, next,
                shardPeriodMillis, disabledMillis);
    }
}
