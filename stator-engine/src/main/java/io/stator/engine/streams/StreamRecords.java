package io.stator.engine.streams;

import io.stator.core.item.ItemCodec;
import io.stator.core.key.PartitionHash;
import io.stator.core.model.AttributeValue;
import io.stator.engine.changes.ChangeLog;
import io.stator.engine.changes.ChangeRecord;
import io.stator.engine.cluster.Deployment;
import io.stator.engine.item.RowKeys;
import io.stator.engine.keyspace.Keyspaces;
import io.stator.engine.table.TableDefinition;
import io.stator.engine.table.TableDefinition.StreamViewType;
import io.stator.storage.Storage;
import io.stator.storage.WriteBatch;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.time.Clock;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The stream records of every table with a stream, staged as a {@link ChangeLog} consumer: each
 * change of an item of such a table writes its record in the batch that commits the change, so
 * no crash can keep one without the other.
 *
 * <p><b>Layout.</b> One row per record in the STREAM_RECORDS key space: key {@code [table id,
 * 8 bytes][stream creation, epoch ms, 8 bytes][slot, 2 bytes][sequence number, 8 bytes]}, all
 * big-endian, so that one shard's records (a slot's, within its generation's sequence range) are
 * contiguous and in order. The slot is the partition key's hash range ({@link Shards#slotOf}), so
 * every record of one item lands in one shard of each generation, in the order of its commits (the
 * pipeline stages a change with the item held). Value, format version 1: {@code u8 version; u8
 * eventName (INSERT, MODIFY, REMOVE); u8 origin (REQUEST, TIME_TO_LIVE); keys; newImage; oldImage},
 * each item as {@code i32 length (-1: absent) + ItemCodec bytes}; only the images the stream's
 * view type shows are kept.
 *
 * <p><b>Cost.</b> Registered only while some table has a stream ({@link Streams}); then a write
 * to a table without one pays one look at its definition.
 */
final class StreamRecords implements ChangeLog.Consumer {

    static final int KEY_BYTES = 26;
    private static final byte VERSION = 1;

    private final Storage storage;
    private final Deployment deployment;
    private final Clock clock;
    private final SequenceNumbers sequences;
    private final int shardCount;
    /** Stream labels to creation times, so that a write does not parse its table's label. */
    private final Map<String, Long> labelMillis = new ConcurrentHashMap<>();
    /** The sequence numbers each batch took, settled once it is committed (or abandoned). */
    private final Map<WriteBatch, List<Long>> taken = new ConcurrentHashMap<>();

    /** On shared storage, the head each batch has staged per shard (see {@link #nextInShard}). */
    private final Map<WriteBatch, Map<Shard, Long>> heads = new ConcurrentHashMap<>();

    private record Shard(long tableId, long created, int slot) {}

    StreamRecords(Storage storage, Deployment deployment, Clock clock, SequenceNumbers sequences, int shardCount) {
        this.storage = storage;
        this.deployment = deployment;
        this.clock = clock;
        this.sequences = sequences;
        this.shardCount = shardCount;
    }

    @Override
    public void stage(WriteBatch batch, ChangeRecord change) {
        TableDefinition table = change.table();
        if (table.stream() == null || !table.stream().enabled() || table.latestStreamLabel() == null) return;
        // "If you perform a PutItem or UpdateItem operation that does not change any data in an
        // item, DynamoDB Streams does not write a stream record" (developer guide, "Change data
        // capture for DynamoDB Streams").
        if (change.oldItem() != null && change.oldItem().equals(change.newItem())) return;
        long created = labelMillis.computeIfAbsent(table.latestStreamLabel(), StreamRecords::parseLabel);
        Map<String, AttributeValue> any = change.newItem() != null ? change.newItem() : change.oldItem();
        int slot = Shards.slotOf(PartitionHash.hash(RowKeys.partitionKey(table, any)), shardCount);
        long sequence;
        if (deployment.numbersShardsByHeadRow()) {
            sequence = nextInShard(batch, new Shard(table.id(), created, slot));
        } else {
            sequence = sequences.take(clock.millis());
            taken.computeIfAbsent(batch, b -> new ArrayList<>(1)).add(sequence);
        }
        batch.put(Keyspaces.STREAM_RECORDS, key(table.id(), created, slot, sequence),
                encode(change, table.stream().viewType(), RowKeys.keyOf(table.keySchema(), any)));
    }

    /**
     * Shared storage: servers cannot see each other's numbers in flight, so a shard's numbers are
     * drawn from its head row, read, expected unchanged and rewritten in the batch of the record:
     * a shard's records then commit one after another, in their numbers' order, whichever server
     * writes them (two that drew the same head: one commit is lost and its write starts over). A
     * reader stops at a record still held undecided (SharedStorage), so it never passes one that
     * is yet to commit.
     */
    private long nextInShard(WriteBatch batch, Shard shard) {
        Map<Shard, Long> staged = heads.computeIfAbsent(batch, b -> new HashMap<>(2));
        byte[] headKey = headKey(shard.tableId(), shard.created(), shard.slot());
        Long last = staged.get(shard);
        if (last == null) {
            byte[] stored = storage.get(Keyspaces.STREAM_RECORDS, headKey);
            batch.expect(Keyspaces.STREAM_RECORDS, headKey, stored);
            last = headValue(stored);
        }
        long next = Math.max(last + 1, clock.millis() * 1_000_000L);
        staged.put(shard, next);
        batch.put(Keyspaces.STREAM_RECORDS, headKey, ByteBuffer.allocate(8).putLong(next).array());
        return next;
    }

    /**
     * Every number below this is committed or, on shared storage, held by a write that readers
     * stop at (SharedStorage): a reader may read up to it. On shared storage no server sees
     * another's numbers in flight, so that is every number drawn by now.
     */
    long visibleBelow(long nowMillis) {
        return deployment.numbersShardsByHeadRow() ? (nowMillis + 1) * 1_000_000L : sequences.visibleBelow(nowMillis);
    }

    /**
     * Where LATEST starts in a shard: just after the last number taken. On shared storage the
     * shard's head row holds it; in one process every number below {@link #visibleBelow} is taken.
     */
    long afterLast(long tableId, long created, int slot, long nowMillis) {
        if (!deployment.numbersShardsByHeadRow()) return visibleBelow(nowMillis);
        return headValue(storage.get(Keyspaces.STREAM_RECORDS, headKey(tableId, created, slot))) + 1;
    }

    /** The last number a head row holds, 0 before the shard's first record. */
    private static long headValue(byte[] stored) {
        return stored == null ? 0 : ByteBuffer.wrap(stored).getLong();
    }

    /**
     * A shard's head row (shared storage): the shard's prefix and one zero byte, which sorts
     * before every record's eight-byte number, so that no range of records reads it.
     */
    static byte[] headKey(long tableId, long created, int slot) {
        return ByteBuffer.allocate(KEY_BYTES - 7).putLong(tableId).putLong(created).putShort((short) slot).put((byte) 0)
                .array();
    }

    @Override
    public void settle(WriteBatch batch) {
        heads.remove(batch);
        List<Long> numbers = taken.remove(batch);
        if (numbers != null) for (long n : numbers) sequences.settle(n);
    }

    /** The creation time a stream label (yyyy-MM-ddTHH:mm:ss.SSS, UTC) says. */
    static long parseLabel(String label) {
        return LocalDateTime.parse(label).toInstant(ZoneOffset.UTC).toEpochMilli();
    }

    static byte[] key(long tableId, long created, int slot, long sequence) {
        return ByteBuffer.allocate(KEY_BYTES).putLong(tableId).putLong(created).putShort((short) slot)
                .putLong(sequence).array();
    }

    static long sequenceOf(byte[] key) {
        return ByteBuffer.wrap(key, 18, 8).getLong();
    }

    private static byte[] encode(ChangeRecord change, StreamViewType view, Map<String, AttributeValue> keys) {
        boolean newImage = view == StreamViewType.NEW_IMAGE || view == StreamViewType.NEW_AND_OLD_IMAGES;
        boolean oldImage = view == StreamViewType.OLD_IMAGE || view == StreamViewType.NEW_AND_OLD_IMAGES;
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(64);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeByte(VERSION);
            out.writeByte(change.eventName().ordinal());
            out.writeByte(change.origin().ordinal());
            writeItem(out, keys);
            writeItem(out, newImage ? change.newItem() : null);
            writeItem(out, oldImage ? change.oldItem() : null);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    private static void writeItem(DataOutputStream out, Map<String, AttributeValue> item) throws IOException {
        if (item == null) {
            out.writeInt(-1);
            return;
        }
        byte[] encoded = ItemCodec.encode(item);
        out.writeInt(encoded.length);
        out.write(encoded);
    }

    /** One stored record, decoded. */
    record Stored(long sequence, ChangeRecord.EventName eventName, ChangeRecord.Origin origin,
                  Map<String, AttributeValue> keys, Map<String, AttributeValue> newImage,
                  Map<String, AttributeValue> oldImage) {}

    static Stored decode(byte[] key, byte[] value) {
        ByteBuffer in = ByteBuffer.wrap(value);
        if (in.get() != VERSION) throw new IllegalStateException("unknown stream record format");
        ChangeRecord.EventName name = ChangeRecord.EventName.values()[in.get()];
        ChangeRecord.Origin origin = ChangeRecord.Origin.values()[in.get()];
        return new Stored(sequenceOf(key), name, origin, readItem(in), readItem(in), readItem(in));
    }

    private static Map<String, AttributeValue> readItem(ByteBuffer in) {
        int length = in.getInt();
        if (length < 0) return null;
        byte[] bytes = new byte[length];
        in.get(bytes);
        return ItemCodec.decode(bytes);
    }
}
