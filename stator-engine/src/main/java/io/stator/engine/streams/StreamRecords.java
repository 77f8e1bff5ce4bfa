package io.stator.engine.streams;

import io.stator.core.model.AttributeValue;
import io.stator.engine.changes.ChangeImages;
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
import java.util.function.Function;

/**
 * The stream records of every table with a stream, staged as a {@link ChangeLog} consumer: each
 * change of an item of such a table writes its record in the batch that commits the change, so
 * no crash can keep one without the other.
 *
 * <p><b>Layout.</b> One row per record in the STREAM_RECORDS key space: key {@code [table id,
 * 8 bytes][stream creation, epoch ms, 8 bytes][node, 2 bytes][sequence number, 8 bytes]}, all
 * big-endian, so that one shard's records (a node's, within its generation's sequence range) are
 * contiguous and in order. The node is the one of the stream's lineage that holds the partition
 * key's hash at the record's sequence number's time ({@link ShardLineage#at}), so every record of
 * one item lands in one shard at a time, in the order of its commits (the pipeline stages a change
 * with the item held), and after a split in a child of the shard before it. Value, format version 1: {@code u8 version; u8
 * eventName (INSERT, MODIFY, REMOVE); u8 origin (REQUEST, TIME_TO_LIVE); keys; newImage; oldImage},
 * each item as {@link ChangeImages} writes it; only the images the stream's
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
    /** The enabled stream of a table, made if this server has not seen it yet (Streams). */
    private final Function<TableDefinition, StreamInfo> streamOf;
    /** The sequence numbers each batch took, settled once it is committed (or abandoned). */
    private final Map<WriteBatch, List<Long>> taken = new ConcurrentHashMap<>();

    /** On shared storage, the heads each batch has read and staged per shard (see {@link #nextInShard}). */
    private final Map<WriteBatch, Map<Shard, Head>> heads = new ConcurrentHashMap<>();

    /** A shard's head row as a batch read it, and the last number the batch has drawn from it (or -1). */
    private static final class Head {
        final byte[] stored;
        long staged = -1;

        Head(byte[] stored) {
            this.stored = stored;
        }
    }

    private record Shard(long tableId, long created, int slot) {}

    StreamRecords(Storage storage, Deployment deployment, Clock clock, SequenceNumbers sequences,
                  Function<TableDefinition, StreamInfo> streamOf) {
        this.storage = storage;
        this.deployment = deployment;
        this.clock = clock;
        this.sequences = sequences;
        this.streamOf = streamOf;
    }

    /**
     * Runs a change of a lineage with no number being drawn on this server, given a time after
     * now and after every number drawn so far: a split taking effect then routes no record
     * already numbered, and every record numbered later reads the changed lineage (see
     * {@link #stage}).
     */
    <T> T withNumbersHeld(java.util.function.LongFunction<T> change) {
        return sequences.holding(clock.millis(), change);
    }

    /** A table with a stream: its records carry old images and their place in the shard. */
    @Override
    public boolean wants(TableDefinition table) {
        return table.stream() != null && table.stream().enabled();
    }

    @Override
    public void stage(WriteBatch batch, ChangeRecord change) {
        TableDefinition table = change.table();
        if (table.stream() == null || !table.stream().enabled() || table.latestStreamLabel() == null) return;
        // "If you perform a PutItem or UpdateItem operation that does not change any data in an
        // item, DynamoDB Streams does not write a stream record" (developer guide, "Change data
        // capture for DynamoDB Streams").
        if (change.oldItem() != null && change.oldItem().equals(change.newItem())) return;
        Map<String, AttributeValue> any = change.newItem() != null ? change.newItem() : change.oldItem();
        long hash = table.partitionHash().of(any.get(table.keySchema().partitionKey()));
        long sequence;
        StreamInfo stream;
        ShardLineage.Node node;
        if (change.streamSequence() > 0) {
            // Numbered by the table's Raft log (multi-Region strong consistency), the same in every
            // region: strictly increasing in the log's order, which its one apply thread commits in.
            sequence = change.streamSequence();
            stream = streamOf(table);
            node = stream.lineage().at(hash, SequenceNumbers.millisOf(sequence));
            if (deployment.numbersShardsByHeadRow()) {
                // Shared storage: the shard's head row moves to it, where LATEST starts (one server
                // of the region applies the group's log, in its order).
                Shard shard = new Shard(table.id(), stream.createdMillis(), node.number());
                if (nextInShard(batch, shard, 0) <= sequence) takeInShard(batch, shard, sequence);
            }
        } else if (deployment.numbersShardsByHeadRow()) {
            // The node by the clock, then by the number its head row gives, should that be past
            // the node's end (a split taking effect meanwhile).
            stream = streamOf(table);
            long millis = clock.millis();
            node = stream.lineage().at(hash, millis);
            while (true) {
                Shard shard = new Shard(table.id(), stream.createdMillis(), node.number());
                sequence = nextInShard(batch, shard, millis);
                long at = SequenceNumbers.millisOf(sequence);
                if (node.closedMillis() < 0 || at < node.closedMillis()) {
                    takeInShard(batch, shard, sequence);
                    break;
                }
                millis = at;
                node = stream.lineage().at(hash, millis);
            }
        } else {
            // The number first, then the lineage: a split changes the lineage with no number
            // being drawn (withNumbersHeld), so the lineage read is the one for the number's time.
            sequence = sequences.take(clock.millis());
            taken.computeIfAbsent(batch, b -> new ArrayList<>(1)).add(sequence);
            stream = streamOf(table);
            node = stream.lineage().at(hash, SequenceNumbers.millisOf(sequence));
        }
        batch.put(Keyspaces.STREAM_RECORDS, key(table.id(), stream.createdMillis(), node.number(), sequence),
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
    private long nextInShard(WriteBatch batch, Shard shard, long nowMillis) {
        Head head = heads.computeIfAbsent(batch, b -> new HashMap<>(2)).computeIfAbsent(shard,
                s -> new Head(storage.get(Keyspaces.STREAM_RECORDS, headKey(s.tableId(), s.created(), s.slot()))));
        long last = head.staged >= 0 ? head.staged : headValue(head.stored);
        return Math.max(last + 1, nowMillis * 1_000_000L);
    }

    /** Stages a number drawn by {@link #nextInShard}: the head row as read expected, and rewritten. */
    private void takeInShard(WriteBatch batch, Shard shard, long next) {
        Head head = heads.get(batch).get(shard);
        byte[] headKey = headKey(shard.tableId(), shard.created(), shard.slot());
        if (head.staged < 0) batch.expect(Keyspaces.STREAM_RECORDS, headKey, head.stored);
        head.staged = next;
        batch.put(Keyspaces.STREAM_RECORDS, headKey, ByteBuffer.allocate(8).putLong(next).array());
    }

    private StreamInfo streamOf(TableDefinition table) {
        return streamOf.apply(table);
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
    public void settle(WriteBatch batch, boolean committed) {
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
            ChangeImages.write(out, keys);
            ChangeImages.write(out, newImage ? change.newItem() : null);
            ChangeImages.write(out, oldImage ? change.oldItem() : null);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
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
        return new Stored(sequenceOf(key), name, origin, ChangeImages.read(in), ChangeImages.read(in), ChangeImages.read(in));
    }
}
