package io.stator.engine.kinesis;

import io.stator.core.item.ItemCodec;
import io.stator.core.model.AttributeValue;
import io.stator.engine.changes.ChangeImages;
import io.stator.engine.changes.ChangeLog;
import io.stator.engine.changes.ChangeRecord;
import io.stator.engine.item.RowKeys;
import io.stator.engine.keyspace.Keyspaces;
import io.stator.engine.table.TableDefinition;
import io.stator.storage.Cursor;
import io.stator.storage.Storage;
import io.stator.storage.WriteBatch;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The changes of every table streaming to Kinesis, staged as a {@link ChangeLog} consumer in the
 * batch that commits each change, and kept until the delivery has put them: so no acknowledged
 * write is lost to Kinesis, whatever is killed when (a change is put at least once, as DynamoDB
 * says its records may be).
 *
 * <p><b>Layout.</b> One row per change in the KINESIS_OUTBOX key space: key {@code [table id 8][0
 * x 8][bucket 2][epoch µs 8][unique 8]}, big-endian, the bucket a hash of the item's key (so an
 * item's changes stay in one bucket, in time order, and several servers' writes spread over
 * {@value #BUCKETS} collections on shared storage). Value, format version 1: {@code u8 version;
 * u8 eventName; u8 origin; i64 eventId high; i64 eventId low; keys; newImage; oldImage}, each item
 * as {@link ChangeImages} writes it.
 */
final class KinesisOutbox implements ChangeLog.Consumer {

    static final int BUCKETS = 16;
    private static final byte VERSION = 1;

    private final Storage storage;
    private final Clock clock;
    private final Runnable staged;
    private final Set<WriteBatch> pending = ConcurrentHashMap.newKeySet();

    /** @param staged told after a batch with outbox rows commits (the delivery wakes) */
    KinesisOutbox(Storage storage, Clock clock, Runnable staged) {
        this.storage = storage;
        this.clock = clock;
        this.staged = staged;
    }

    @Override
    public boolean wants(TableDefinition table) {
        return table.collectingKinesis() != null;
    }

    @Override
    public void stage(WriteBatch batch, ChangeRecord change) {
        TableDefinition table = change.table();
        if (!wants(table)) return;
        Map<String, AttributeValue> any = change.newItem() != null ? change.newItem() : change.oldItem();
        Map<String, AttributeValue> keys = RowKeys.keyOf(table.keySchema(), any);
        byte[] keyBytes = ItemCodec.encode(keys);
        int bucket = Math.floorMod(Arrays.hashCode(keyBytes), BUCKETS);
        Instant now = clock.instant();
        long micros = Math.multiplyExact(now.getEpochSecond(), 1_000_000L) + now.getNano() / 1_000;
        ByteBuffer key = ByteBuffer.allocate(34).putLong(table.id()).putLong(0).putShort((short) bucket)
                .putLong(micros).putLong(ThreadLocalRandom.current().nextLong());
        batch.put(Keyspaces.KINESIS_OUTBOX, key.array(), encode(change, keyBytes));
        pending.add(batch);
    }

    @Override
    public void settle(WriteBatch batch, boolean committed) {
        if (pending.remove(batch) && committed) staged.run();
    }

    /** One kept change, as the delivery reads it back. */
    record Stored(byte[] key, long micros, ChangeRecord.EventName eventName, ChangeRecord.Origin origin, UUID eventId,
                  Map<String, AttributeValue> keys, Map<String, AttributeValue> newImage,
                  Map<String, AttributeValue> oldImage) {}

    /** Up to {@code limit} of the table's kept changes in one bucket, oldest first. */
    List<Stored> read(long tableId, int bucket, int limit) {
        List<Stored> out = new ArrayList<>();
        try (Cursor c = storage.range(null, Keyspaces.KINESIS_OUTBOX, bucketStart(tableId, bucket),
                bucketEnd(tableId, bucket), false)) {
            while (out.size() < limit && c.next()) out.add(decode(c.key(), c.value()));
        }
        return out;
    }

    /** Forgets delivered changes. */
    void delete(List<Stored> delivered) {
        if (delivered.isEmpty()) return;
        try (WriteBatch batch = storage.newBatch()) {
            for (Stored s : delivered) batch.delete(Keyspaces.KINESIS_OUTBOX, s.key());
            storage.commit(batch);
        }
    }

    /** Forgets every change kept for the table (its destination was disabled, or failed). */
    void drop(long tableId) {
        for (int b = 0; b < BUCKETS; b++) {
            storage.deleteRange(Keyspaces.KINESIS_OUTBOX, bucketStart(tableId, b), bucketEnd(tableId, b));
        }
    }

    private static byte[] bucketStart(long tableId, int bucket) {
        return ByteBuffer.allocate(18).putLong(tableId).putLong(0).putShort((short) bucket).array();
    }

    /** Past every row of the bucket, within its collection (a row's time is below 2^63 µs). */
    private static byte[] bucketEnd(long tableId, int bucket) {
        return ByteBuffer.allocate(34).putLong(tableId).putLong(0).putShort((short) bucket)
                .putLong(Long.MAX_VALUE).putLong(-1).array();
    }

    private static byte[] encode(ChangeRecord change, byte[] keys) {
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            DataOutputStream out = new DataOutputStream(bytes);
            out.writeByte(VERSION);
            out.writeByte(change.eventName().ordinal());
            out.writeByte(change.origin().ordinal());
            UUID id = UUID.randomUUID();
            out.writeLong(id.getMostSignificantBits());
            out.writeLong(id.getLeastSignificantBits());
            ChangeImages.writeEncoded(out, keys);
            ChangeImages.write(out, change.newItem());
            ChangeImages.write(out, change.oldItem());
            return bytes.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Stored decode(byte[] key, byte[] value) {
        ByteBuffer in = ByteBuffer.wrap(value);
        if (in.get() != VERSION) throw new IllegalStateException("unknown Kinesis outbox row format");
        ChangeRecord.EventName eventName = ChangeRecord.EventName.values()[in.get()];
        ChangeRecord.Origin origin = ChangeRecord.Origin.values()[in.get()];
        UUID eventId = new UUID(in.getLong(), in.getLong());
        return new Stored(key, ByteBuffer.wrap(key, 18, 8).getLong(), eventName, origin, eventId, ChangeImages.read(in),
                ChangeImages.read(in), ChangeImages.read(in));
    }
}
