package io.stator.engine.replication;

import io.stator.core.error.DynamoDbException;
import io.stator.core.model.AttributeValue;
import io.stator.engine.changes.ItemVersion;
import io.stator.engine.item.RowKeys;
import io.stator.engine.keyspace.Keyspaces;
import io.stator.engine.table.Catalog;
import io.stator.engine.table.Catalog.NotFoundMessage;
import io.stator.engine.table.TableDefinition;
import io.stator.engine.write.ItemWrite;
import io.stator.engine.write.ReturnValues;
import io.stator.engine.write.WritePipeline;
import io.stator.storage.Storage;
import io.stator.storage.WriteBatch;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.LongSupplier;

/**
 * Another region's changes arriving here (an APPLY message): each applied through the write
 * pipeline only if newer than the item's stored version (last writer wins, per item), so that its
 * indexes, stream and write units follow; a delete of an item not here leaves its tombstone.
 */
final class ReplicatedChanges {

    /** How many changes of a batch are applied at once where several servers share the store. */
    private static final int APPLY_LANES = 16;

    private final Storage storage;
    private final Catalog catalog;
    private final WritePipeline pipeline;
    private final ItemVersions versions;
    private final HybridClock hybridClock;
    private final ReplicationLatencies latencies;
    private final Clock clock;
    private final LongSupplier tombstoneRetention;
    private final boolean severalServers;

    ReplicatedChanges(Storage storage, Catalog catalog, WritePipeline pipeline, ItemVersions versions, HybridClock hybridClock,
                      ReplicationLatencies latencies, Clock clock, LongSupplier tombstoneRetention, boolean severalServers) {
        this.storage = storage;
        this.catalog = catalog;
        this.pipeline = pipeline;
        this.versions = versions;
        this.hybridClock = hybridClock;
        this.latencies = latencies;
        this.clock = clock;
        this.tombstoneRetention = tombstoneRetention;
        this.severalServers = severalServers;
    }

    /** Applies another region's changes of a table, each only if newer than the item here. */
    int apply(String from, String name, List<ReplicatedChange> changes) {
        TableDefinition t = catalog.find(name);
        if (t == null || t.globalTable() == null) {
            throw DynamoDbException.resourceNotFound(NotFoundMessage.WITH_TABLE_NAME.text(name));
        }
        long now = clock.millis();
        for (ReplicatedChange c : changes) {
            hybridClock.observe(c.version().clock());
            latencies.record(name, from, now - c.writtenAtMillis());
        }
        if (!severalServers || changes.size() < 2) {
            int applied = 0;
            for (ReplicatedChange c : changes) if (applyOne(t, c, now)) applied++;
            return applied;
        }
        // Several servers: each change a few round trips to the store (its version read, a Paxos
        // round), so the batch is applied in lanes at once, each item's changes in order in one
        // lane (last writer wins makes the order between items irrelevant).
        List<List<ReplicatedChange>> lanes = new ArrayList<>();
        for (int i = 0; i < Math.min(APPLY_LANES, changes.size()); i++) lanes.add(new ArrayList<>());
        for (ReplicatedChange c : changes) {
            lanes.get(Math.floorMod(Arrays.hashCode(RowKeys.of(t, c.key())), lanes.size())).add(c);
        }
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<Integer>> done = new ArrayList<>();
            for (List<ReplicatedChange> lane : lanes) {
                done.add(pool.submit(() -> {
                    int applied = 0;
                    for (ReplicatedChange c : lane) if (applyOne(t, c, now)) applied++;
                    return applied;
                }));
            }
            int applied = 0;
            for (Future<Integer> f : done) applied += f.get();
            return applied;
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException r) throw r;
            throw new IllegalStateException(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while applying changes", e);
        }
    }

    private boolean applyOne(TableDefinition table, ReplicatedChange c, long now) {
        byte[] rowKey = RowKeys.of(table, c.key());
        ItemVersion version = c.version();
        // Older than the tombstones kept: the item may have been deleted since, its tombstone
        // collected. (Version 0 is an item that was there before its table turned global: a copy.)
        boolean beyondRetention = version.clock() != 0 && version.millis() < now - tombstoneRetention.getAsLong();
        Map<String, AttributeValue> image = c.newImage();
        ItemWrite write = image == null
                ? ItemWrite.delete(table, c.key(), null, ReturnValues.NONE, false)
                : ItemWrite.put(table, image, null, ReturnValues.NONE, false, false);
        return pipeline.replicate(write, version, () -> {
            byte[] storedRow = storage.get(Keyspaces.ITEM_VERSIONS, rowKey);
            ItemVersions.Stored stored = ItemVersions.decode(storedRow);
            boolean newer = stored == null ? !beyondRetention : version.newerThan(stored.version());
            if (newer && image == null && storage.get(Keyspaces.ITEMS, rowKey) == null) {
                // A delete of an item not here: nothing to write but its tombstone, so that an
                // older put arriving later does not bring it back. Expected as read: another
                // server of this region may write the item meanwhile.
                try (WriteBatch batch = storage.newBatch()) {
                    batch.expect(Keyspaces.ITEMS, rowKey, null);
                    batch.expect(Keyspaces.ITEM_VERSIONS, rowKey, storedRow);
                    ItemVersions.stage(batch, rowKey, version, true, now);
                    storage.commit(batch);
                }
                return false;
            }
            return newer;
        });
    }
}
