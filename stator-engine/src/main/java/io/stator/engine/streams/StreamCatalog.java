package io.stator.engine.streams;

import io.stator.core.model.AttributeValue;
import io.stator.engine.keyspace.Keyspaces;
import io.stator.engine.table.KeySchema;
import io.stator.engine.table.TableDefinition.StreamViewType;
import io.stator.storage.CommitLostException;
import io.stator.storage.Cursor;
import io.stator.storage.Snapshot;
import io.stator.storage.Storage;
import io.stator.storage.WriteBatch;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * Every table's streams, current and past, until they expire: in memory, and in the STREAMS key
 * space. Key {@code [table name, UTF-8][0x00][creation, epoch ms, 8 bytes big-endian]} (a table
 * name never holds a 0 byte); value, format version 2, written with DataOutputStream: {@code u8
 * version; i64 tableId; utf label; utf viewType; utf partitionKey; utf partitionKeyType; utf
 * sortKey (empty: none); utf sortKeyType; i32 nodes; per node (its number its place) i32 parent,
 * i64 start, i64 end, i64 openedMillis, i64 closedMillis; i64 shardPeriodMillis; i64
 * disabledMillis (-1: enabled)}. Version 1 had {@code i32 shardCount} in place of the nodes: that
 * many equal slots ({@link ShardLineage#slots}).
 *
 * <p>A stream's lineage changes as its table's partitions split, on any server: it is changed by
 * compare-and-set of its row ({@link #update}), so that two servers never record two lineages.
 */
final class StreamCatalog {

    private static final byte VERSION = 2;

    private final Storage storage;
    /** By stored key: table name, then creation time. */
    private final ConcurrentSkipListMap<String, StreamInfo> streams = new ConcurrentSkipListMap<>();
    /** The enabled stream of each table that has one, by table id: what a write looks up. */
    private final Map<Long, StreamInfo> enabled = new ConcurrentHashMap<>();

    StreamCatalog(Storage storage) {
        this.storage = storage;
        reload();
    }

    /** Reads every stream from the storage again (on shared storage, other servers write them too). */
    synchronized void reload() {
        Map<String, StreamInfo> stored = new HashMap<>();
        try (Snapshot snapshot = storage.snapshot();
             Cursor c = storage.range(snapshot, Keyspaces.STREAMS, ShardIterators.afterKeyRow(), null, false)) {
            while (c.next()) {
                StreamInfo s = decode(c.key(), c.value());
                stored.put(mapKey(s.tableName(), s.createdMillis()), s);
            }
        }
        streams.putAll(stored);
        streams.keySet().retainAll(stored.keySet());
        Map<Long, StreamInfo> now = new HashMap<>();
        for (StreamInfo s : stored.values()) if (s.enabled()) now.put(s.tableId(), s);
        enabled.putAll(now);
        enabled.keySet().retainAll(now.keySet());
    }

    /** The table's enabled stream, or null. */
    StreamInfo enabledOf(long tableId) {
        return enabled.get(tableId);
    }

    private void cache(StreamInfo s) {
        streams.put(mapKey(s.tableName(), s.createdMillis()), s);
        if (s.enabled()) {
            enabled.put(s.tableId(), s);
        } else {
            StreamInfo current = enabled.get(s.tableId());
            if (current != null && current.createdMillis() == s.createdMillis()) enabled.remove(s.tableId());
        }
    }

    private static String mapKey(String table, long created) {
        return table + '\u0000' + String.format("%020d", created);
    }

    /** Streams in ListStreams' order: by table name, the newest of a table first. */
    List<StreamInfo> all() {
        List<StreamInfo> all = new ArrayList<>(streams.values());
        all.sort(Comparator.comparing(StreamInfo::tableName).thenComparing(StreamInfo::createdMillis,
                Comparator.reverseOrder()));
        return all;
    }

    StreamInfo find(String tableName, long created) {
        return streams.get(mapKey(tableName, created));
    }

    List<StreamInfo> ofTable(String tableName) {
        return new ArrayList<>(streams.subMap(tableName + '\u0000', tableName + '\u0001').values());
    }

    boolean anyEnabled() {
        for (StreamInfo s : streams.values()) if (s.enabled()) return true;
        return false;
    }

    synchronized void put(StreamInfo stream) {
        try (WriteBatch batch = storage.newBatch()) {
            batch.put(Keyspaces.STREAMS, key(stream.tableName(), stream.createdMillis()), encode(stream));
            storage.commit(batch);
        }
        cache(stream);
    }

    /**
     * Replaces a stream if it is still as this server knows it (another server may have changed
     * it): false, with the stream read again, when it was not.
     */
    synchronized boolean update(StreamInfo known, StreamInfo next) {
        byte[] key = key(known.tableName(), known.createdMillis());
        try (WriteBatch batch = storage.newBatch()) {
            batch.expect(Keyspaces.STREAMS, key, encode(known));
            batch.put(Keyspaces.STREAMS, key, encode(next));
            storage.commit(batch);
        } catch (CommitLostException e) {
            byte[] stored = storage.get(Keyspaces.STREAMS, key);
            if (stored != null) cache(decode(key, stored));
            return false;
        }
        cache(next);
        return true;
    }

    /**
     * Adds a new stream unless another server added it first: the stream as stored either way.
     */
    synchronized StreamInfo create(StreamInfo stream) {
        byte[] key = key(stream.tableName(), stream.createdMillis());
        try (WriteBatch batch = storage.newBatch()) {
            batch.expect(Keyspaces.STREAMS, key, null);
            batch.put(Keyspaces.STREAMS, key, encode(stream));
            storage.commit(batch);
        } catch (CommitLostException e) {
            StreamInfo stored = decode(key, storage.get(Keyspaces.STREAMS, key));
            cache(stored);
            return stored;
        }
        cache(stream);
        return stream;
    }

    synchronized void remove(StreamInfo stream) {
        try (WriteBatch batch = storage.newBatch()) {
            batch.delete(Keyspaces.STREAMS, key(stream.tableName(), stream.createdMillis()));
            storage.commit(batch);
        }
        streams.remove(mapKey(stream.tableName(), stream.createdMillis()));
        StreamInfo current = enabled.get(stream.tableId());
        if (current != null && current.createdMillis() == stream.createdMillis()) enabled.remove(stream.tableId());
    }

    private static byte[] key(String table, long created) {
        byte[] name = table.getBytes(StandardCharsets.UTF_8);
        return ByteBuffer.allocate(name.length + 9).put(name).put((byte) 0).putLong(created).array();
    }

    private static byte[] encode(StreamInfo s) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(128);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeByte(VERSION);
            out.writeLong(s.tableId());
            out.writeUTF(s.label());
            out.writeUTF(s.viewType().name());
            KeySchema k = s.keySchema();
            out.writeUTF(k.partitionKey());
            out.writeUTF(k.partitionKeyType().name());
            out.writeUTF(k.hasSortKey() ? k.sortKey() : "");
            out.writeUTF(k.hasSortKey() ? k.sortKeyType().name() : "");
            out.writeInt(s.lineage().nodes().size());
            for (ShardLineage.Node n : s.lineage().nodes()) {
                out.writeInt(n.parent());
                out.writeLong(n.start());
                out.writeLong(n.end());
                out.writeLong(n.openedMillis());
                out.writeLong(n.closedMillis());
            }
            out.writeLong(s.shardPeriodMillis());
            out.writeLong(s.disabledMillis());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    private static StreamInfo decode(byte[] key, byte[] value) {
        String table = new String(key, 0, key.length - 9, StandardCharsets.UTF_8);
        long created = ByteBuffer.wrap(key, key.length - 8, 8).getLong();
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(value))) {
            byte version = in.readByte();
            if (version != 1 && version != VERSION) throw new IllegalStateException("unknown stream format");
            long tableId = in.readLong();
            String label = in.readUTF();
            StreamViewType view = StreamViewType.valueOf(in.readUTF());
            String pk = in.readUTF();
            AttributeValue.Type pkType = AttributeValue.Type.valueOf(in.readUTF());
            String sk = in.readUTF();
            String skType = in.readUTF();
            KeySchema schema = new KeySchema(pk, pkType, sk.isEmpty() ? null : sk,
                    sk.isEmpty() ? null : AttributeValue.Type.valueOf(skType));
            int count = in.readInt();
            ShardLineage lineage;
            if (version == 1) {
                lineage = ShardLineage.slots(count, created);
            } else {
                List<ShardLineage.Node> nodes = new ArrayList<>(count);
                for (int i = 0; i < count; i++) {
                    nodes.add(new ShardLineage.Node(i, in.readInt(), in.readLong(), in.readLong(), in.readLong(),
                            in.readLong()));
                }
                lineage = new ShardLineage(nodes);
            }
            return new StreamInfo(table, tableId, label, created, view, schema, lineage, in.readLong(), in.readLong());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
