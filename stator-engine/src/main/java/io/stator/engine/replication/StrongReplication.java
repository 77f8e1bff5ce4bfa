package io.stator.engine.replication;

import io.stator.core.error.DynamoDbException;
import io.stator.core.error.ErrorType;
import io.stator.core.item.ItemCodec;
import io.stator.core.model.AttributeValue;
import io.stator.engine.changes.ItemVersion;
import io.stator.engine.item.RowKeys;
import io.stator.engine.keyspace.Keyspaces;
import io.stator.engine.replication.strong.Applier;
import io.stator.engine.replication.strong.Consensus;
import io.stator.engine.replication.strong.ConsensusGroups;
import io.stator.engine.replication.strong.GroupMember;
import io.stator.engine.replication.strong.NoQuorumException;
import io.stator.engine.replication.strong.ReplicatedWriteConflictException;
import io.stator.engine.replication.strong.StrongCommand;
import io.stator.engine.table.Catalog;
import io.stator.engine.table.TableDefinition;
import io.stator.engine.write.ItemWrite;
import io.stator.engine.write.OrderedCommits;
import io.stator.engine.write.ReturnValues;
import io.stator.engine.write.WritePipeline;
import io.stator.storage.Storage;
import io.stator.storage.WriteBatch;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.util.List;
import java.util.Map;

/**
 * Global tables with multi-Region strong consistency (MRSC): each table's writes ordered by its
 * Raft group ({@link ConsensusGroups}, Apache Ratis), three regions, a write committed once two
 * have it. A request's write is checked and computed in the region it reached, against its store
 * caught up with the group (Ratis' ReadIndex), and proposed with the version of the item it was
 * computed from; every region applies the group's log in order, and a proposal whose item has
 * changed since (another region's write committed first) is refused in every region alike, which
 * the proposer answers as ReplicatedWriteConflictException. An item's version is the log index of
 * its last write (ITEM_VERSIONS), so applying a command twice (after a restart) changes nothing.
 * Strongly consistent reads catch up first; eventually consistent reads read this region's store.
 * Where several servers share the region's store, one of them hosts the region's member and the
 * others hand it their proposals and catch-ups ({@link RelayedConsensus}).
 */
final class StrongReplication implements OrderedCommits {

    static final String CONFLICT_MESSAGE = "The request was rejected because one or more items in the request are being "
            + "modified by a request in another Region.";
    private static final byte APPLIED = 1;
    private static final byte REFUSED = 0;

    private final Storage storage;
    private final Catalog catalog;
    private final WritePipeline pipeline;
    private final ItemVersions versions;
    private final String region;
    /** This region's clock: a proposal's time, where its stream record's number starts. */
    private final Clock clock;
    /** This process's member of the groups, or the relay to the server of the region that hosts it. */
    private volatile Consensus consensus;

    StrongReplication(Storage storage, Catalog catalog, WritePipeline pipeline, ItemVersions versions, String region,
                      Clock clock) {
        this.clock = clock;
        this.storage = storage;
        this.catalog = catalog;
        this.pipeline = pipeline;
        this.versions = versions;
        this.region = region;
    }

    void connect(Consensus consensus) {
        this.consensus = consensus;
    }

    Consensus consensus() {
        return consensus;
    }

    /** This process's own member of the groups, or null (none, or one on another server of the region). */
    ConsensusGroups hosted() {
        return consensus instanceof ConsensusGroups g ? g : null;
    }

    @Override
    public boolean orders(TableDefinition table) {
        return table.stronglyReplicated();
    }

    private Consensus connected() {
        Consensus g = consensus;
        if (g == null) throw DynamoDbException.internal("Internal server error: this region has no consensus server");
        return g;
    }

    @Override
    public void catchUp(TableDefinition table) {
        try {
            connected().catchUp(table.name());
        } catch (NoQuorumException e) {
            System.err.println("stator: MRSC read of " + table.name() + ": " + e);
            throw noQuorum();
        }
    }

    @Override
    public long versionBeforeRead(TableDefinition table, byte[] rowKey) {
        catchUp(table);
        ItemVersions.Stored stored = versions.read(rowKey);
        return stored == null ? 0 : stored.version().clock();
    }

    @Override
    public void propose(TableDefinition table, byte[] rowKey, Map<String, AttributeValue> key,
                        Map<String, AttributeValue> newItem, long expectedVersion) {
        byte[] result;
        try {
            // Conflicts are found on the item's key, the same bytes in every region (row keys are not).
            result = connected().propose(table.name(), new StrongCommand(region, clock.millis(),
                    List.of(ItemCodec.encode(key)), payload(key, expectedVersion, newItem)));
        } catch (ReplicatedWriteConflictException e) {
            throw conflict();
        } catch (NoQuorumException e) {
            System.err.println("stator: MRSC write of " + table.name() + ": " + e);
            throw noQuorum();
        }
        if (result.length == 0 || result[0] != APPLIED) throw conflict();
    }

    private static DynamoDbException conflict() {
        return new DynamoDbException(ErrorType.REPLICATED_WRITE_CONFLICT, CONFLICT_MESSAGE);
    }

    /** No two regions answered in time: DynamoDB's error for an isolated MRSC replica is not documented. */
    private static DynamoDbException noQuorum() {
        return DynamoDbException.internal("Internal server error");
    }

    /** The applier of a table's committed commands, in this region (see {@link Applier}'s contract). */
    Applier applier(String tableName) {
        return (index, sequence, command) -> {
            Decoded d = decode(command.payload());
            TableDefinition table = catalog.find(tableName);
            if (table == null || !table.stronglyReplicated()) {
                // Several servers: another one made it STRONG, and this one's copy is older.
                catalog.refresh();
                table = catalog.find(tableName);
            }
            if (table == null) return new byte[] {REFUSED};
            byte[] rowKey = RowKeys.of(table, d.key());
            ItemVersions.Stored stored = versions.read(rowKey);
            long current = stored == null ? 0 : stored.version().clock();
            if (current >= index) return new byte[] {APPLIED}; // applied before a restart
            if (current != d.expected()) return new byte[] {REFUSED};
            ItemVersion version = new ItemVersion(index, command.originRegion());
            if (d.newItem() == null && storage.get(Keyspaces.ITEMS, rowKey) == null) {
                try (WriteBatch batch = storage.newBatch()) {
                    ItemVersions.stage(batch, rowKey, version, true, System.currentTimeMillis());
                    storage.commit(batch);
                }
                return new byte[] {APPLIED};
            }
            ItemWrite write = d.newItem() == null
                    ? ItemWrite.delete(table, d.key(), null, ReturnValues.NONE, false)
                    : ItemWrite.put(table, d.newItem(), null, ReturnValues.NONE, false, false);
            pipeline.applyCommitted(write, version, sequence, !command.originRegion().equals(region));
            return new byte[] {APPLIED};
        };
    }

    /** Makes this region a member of the table's group. */
    void join(String table, List<GroupMember> members) {
        try {
            connected().join(table, members);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Leaves the table's group (a witness's or a replica's, at the table's teardown). */
    void leave(String table) {
        try {
            connected().leave(table);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private record Decoded(Map<String, AttributeValue> key, long expected, Map<String, AttributeValue> newItem) {}

    /** u8 1; i32 n, key (ItemCodec); i64 expected version; i32 n (-1: deleted), new item. */
    private static byte[] payload(Map<String, AttributeValue> key, long expected, Map<String, AttributeValue> newItem) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeByte(1);
            byte[] k = ItemCodec.encode(key);
            out.writeInt(k.length);
            out.write(k);
            out.writeLong(expected);
            if (newItem == null) {
                out.writeInt(-1);
            } else {
                byte[] item = ItemCodec.encode(newItem);
                out.writeInt(item.length);
                out.write(item);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    private static Decoded decode(byte[] payload) {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(payload))) {
            if (in.readUnsignedByte() != 1) throw new IOException("unknown payload format");
            Map<String, AttributeValue> key = ItemCodec.decode(in.readNBytes(in.readInt()));
            long expected = in.readLong();
            int n = in.readInt();
            return new Decoded(key, expected, n < 0 ? null : ItemCodec.decode(in.readNBytes(n)));
        } catch (IOException e) {
            throw new UncheckedIOException("corrupt MRSC command", e);
        }
    }
}
