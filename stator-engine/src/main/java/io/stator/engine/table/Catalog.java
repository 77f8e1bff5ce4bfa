package io.stator.engine.table;

import io.stator.core.error.DynamoDbException;
import io.stator.core.key.KeyLayout;
import io.stator.engine.cluster.Deployment;
import io.stator.engine.keyspace.Keyspaces;
import io.stator.storage.CommitLostException;
import io.stator.storage.Cursor;
import io.stator.storage.Keyspace;
import io.stator.storage.Storage;
import io.stator.storage.WriteBatch;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.function.UnaryOperator;

/**
 * The tables that exist, persisted in the CATALOG key space and cached in memory.
 *
 * <p>Item operations look tables up on every request, so lookups are lock-free map reads. Table
 * changes (create, update, delete, tagging) are rare and serialized by one lock, which keeps
 * "check the name is free, then write" simple and correct. On storage that several servers share,
 * each change also expects the rows it replaces as this server last read them, and starts over
 * from the stored rows when another server changed them first; {@link #refresh} and the reading
 * of unknown names bring other servers' changes in.
 *
 * <p>Catalog rows: {@code 'T' + table name (UTF-8)} holds the {@link TableCodec} form of a
 * table; {@code 'N'} holds the next table id (8 bytes, big-endian); {@code 'D' + table id}
 * marks a deleted table whose rows are still to be dropped (written with the deletion, so a crash
 * between deleting the table and dropping its rows is finished at the next start). Table ids are
 * never reused, so rows of a dropped table can never reappear in a new one.
 */
public final class Catalog {

    private static final byte TABLE_ROW = 'T';
    private static final byte NEXT_ID_ROW = 'N';
    private static final byte DROPPED_ROW = 'D';

    private final Storage storage;
    private final Deployment deployment;
    private final Clock clock;
    private final TableArns arns;
    private final TableCounters counters;
    private final ConcurrentSkipListMap<String, TableDefinition> tables = new ConcurrentSkipListMap<>();
    private final java.util.concurrent.ConcurrentHashMap<Long, TableDefinition> byId =
            new java.util.concurrent.ConcurrentHashMap<>();
    /** Each table's row as stored: what a change on shared storage expects to replace. */
    private final java.util.concurrent.ConcurrentHashMap<String, byte[]> storedRows = new java.util.concurrent.ConcurrentHashMap<>();
    private final Object changeLock = new Object();
    private long nextId;
    /** The next-id row as stored (null before the first table). */
    private byte[] storedNextId;

    public Catalog(Storage storage, Deployment deployment, TableArns arns, Clock clock) {
        this.storage = storage;
        this.deployment = deployment;
        this.clock = clock;
        this.arns = arns;
        this.counters = new TableCounters(storage, deployment);
        load();
    }

    public TableArns arns() { return arns; }

    /** One server or several: how this catalog, and the work that follows it, learns of changes. */
    public Deployment deployment() { return deployment; }

    /** The tables' item counts and sizes. */
    public TableCounters counters() { return counters; }

    private void load() {
        for (byte[] key : refresh()) dropRows(key);
    }

    private void readNextId() {
        storedNextId = storage.get(Keyspaces.CATALOG, new byte[] {NEXT_ID_ROW});
        nextId = storedNextId == null ? 1 : ByteBuffer.wrap(storedNextId).getLong();
    }

    /** Caches a stored table row; returns its definition. Called under the change lock (or while loading). */
    private TableDefinition cache(byte[] stored) {
        TableDefinition t = TableCodec.decode(stored);
        tables.put(t.name(), t);
        byId.put(t.id(), t);
        storedRows.put(t.name(), stored);
        return t;
    }

    private void uncache(TableDefinition t) {
        tables.remove(t.name());
        byId.remove(t.id());
        storedRows.remove(t.name());
    }

    /**
     * Reads every table's definition again, publishing those that changed and forgetting those
     * gone: how a server sharing its storage with others learns of their table changes (the
     * engine calls it every second on shared storage), and how the catalog loads. Returns the
     * rows of deleted tables whose items are still to be dropped.
     */
    public List<byte[]> refresh() {
        List<byte[]> dropped = new ArrayList<>();
        synchronized (changeLock) {
            readNextId();
            Set<String> seen = new HashSet<>();
            try (Cursor c = storage.range(null, Keyspaces.CATALOG, null, null, false)) {
                while (c.next()) {
                    byte[] key = c.key();
                    if (key[0] == DROPPED_ROW) dropped.add(key);
                    if (key[0] != TABLE_ROW) continue;
                    TableDefinition t = TableCodec.decode(c.value());
                    seen.add(t.name());
                    if (!Arrays.equals(storedRows.get(t.name()), c.value())) published(cache(c.value()));
                }
            }
            for (TableDefinition t : new ArrayList<>(tables.values())) if (!seen.contains(t.name())) uncache(t);
        }
        return dropped;
    }

    /**
     * On shared storage, a table this server does not know yet may have been created by another:
     * its row is read before the name is called unknown.
     */
    private TableDefinition findStored(String name) {
        return deployment.catalogChangesElsewhere() ? reread(name) : null;
    }

    /**
     * Reads one table's row again (another server may have created, changed or deleted it),
     * publishing a change; returns the definition, or null when there is none.
     */
    private TableDefinition reread(String name) {
        byte[] stored = storage.get(Keyspaces.CATALOG, tableRow(name));
        synchronized (changeLock) {
            TableDefinition known = tables.get(name);
            if (stored == null) {
                if (known != null) uncache(known);
                return null;
            }
            if (Arrays.equals(storedRows.get(name), stored)) return known;
            TableDefinition t = cache(stored);
            published(t);
            return t;
        }
    }

    /**
     * The table as stored now (another server sharing the store may have changed it since this
     * one last read the catalog), or null; on one server, as known. For a job about to run on a
     * table's state (a restore resumed by another server).
     */
    public TableDefinition current(String name) {
        return deployment.catalogChangesElsewhere() ? reread(name) : tables.get(name);
    }

    /** The table with that storage id, or null (index propagation looks tables up by id). */
    public TableDefinition findById(long id) {
        return byId.get(id);
    }

    /** The table of that name, or null. */
    public TableDefinition find(String name) {
        TableDefinition t = tables.get(name);
        return t != null ? t : findStored(name);
    }

    /**
     * The table a request names (by name or ARN), or DynamoDB's ResourceNotFoundException with
     * the message the calling action uses (or its error for an ARN that is not one of this
     * server's table ARNs, see {@link TableArns#tableName}).
     */
    public TableDefinition require(String nameOrArn, NotFoundMessage message) {
        TableDefinition t = find(arns.tableName(nameOrArn));
        if (t == null) throw DynamoDbException.resourceNotFound(message.text(nameOrArn));
        return settled(t);
    }

    /**
     * The table, ACTIVE once its transition's time has come ({@link TableDefinition.Transition},
     * --table-creation-delay): settled when it is next named, by this clock, so that a test clock
     * moves it as it moves everything else, and a restart in between changes nothing.
     */
    private TableDefinition settled(TableDefinition t) {
        if (t.transition() == null || clock.instant().isBefore(t.transition().until())) return t;
        TableDefinition done = updateIfPresent(t.name(), current -> current.transition() == null
                || clock.instant().isBefore(current.transition().until()) ? current : current.settled());
        return done == null ? t : done;
    }

    /** How an action words "no such table". */
    public enum NotFoundMessage {
        /** Item operations, ListTagsOfResource, ...: "Requested resource not found". */
        PLAIN,
        /** Table operations: "Requested resource not found: Table: X not found". */
        WITH_TABLE_NAME;

        public String text(String table) {
            return this == PLAIN ? "Requested resource not found"
                    : "Requested resource not found: Table: " + table + " not found";
        }
    }

    /**
     * Table names in DynamoDB's order (ascending by name). On shared storage the catalog is read
     * again first, so that the tables other servers created or deleted are listed at once.
     */
    public List<String> names(String exclusiveStartName, int limit) {
        if (deployment.catalogChangesElsewhere()) refresh();
        Map<String, TableDefinition> view = exclusiveStartName == null ? tables : tables.tailMap(exclusiveStartName, false);
        List<String> names = new ArrayList<>(Math.min(limit, view.size()));
        for (String name : view.keySet()) {
            if (names.size() >= limit) break;
            names.add(name);
        }
        return names;
    }

    /** True when a table sorts after the given name (for ListTables' LastEvaluatedTableName). */
    public boolean hasTablesAfter(String name) {
        return tables.higherKey(name) != null;
    }

    public int size() { return tables.size(); }

    /**
     * Creates a table from a validated definition (id, TableId and creation time are assigned
     * here). ResourceInUseException when the name is taken.
     */
    public TableDefinition create(TableDefinition.Builder draft) {
        return create(draft, NOTHING_MORE);
    }

    /**
     * Rows a change commits beside the table's own, in the same batch: the record of the job a
     * table is created, filled or dropped for (an import's), so that a crash never leaves one
     * without the other. Given the definition as it will be committed.
     */
    @FunctionalInterface
    public interface AlsoStaged {
        void stage(WriteBatch batch, TableDefinition table);
    }

    private static final AlsoStaged NOTHING_MORE = (batch, table) -> { };

    /** As {@link #create(TableDefinition.Builder)}, committing {@code also}'s rows with the table's. */
    public TableDefinition create(TableDefinition.Builder draft, AlsoStaged also) {
        synchronized (changeLock) {
            while (true) {
                if (tables.containsKey(draft.name) || findStored(draft.name) != null) {
                    throw DynamoDbException.resourceInUse("Table already exists: " + draft.name);
                }
                draft.id = nextId;
                draft.tableId = UUID.randomUUID().toString();
                draft.creationDateTime = clock.instant();
                if (draft.billingMode == TableDefinition.BillingMode.PAY_PER_REQUEST) {
                    // DynamoDB dates an on-demand table's billing mode from its creation.
                    draft.lastUpdateToPayPerRequestDateTime = draft.creationDateTime;
                }
                TableDefinition table = draft.build();
                byte[] row = TableCodec.encode(table);
                byte[] next = ByteBuffer.allocate(8).putLong(nextId + 1).array();
                storage.createTable(table.id());
                try (WriteBatch batch = storage.newBatch()) {
                    // On shared storage another server may have taken the id or the name meanwhile.
                    batch.expect(Keyspaces.CATALOG, new byte[] {NEXT_ID_ROW}, storedNextId);
                    batch.expect(Keyspaces.CATALOG, tableRow(table.name()), null);
                    batch.put(Keyspaces.CATALOG, new byte[] {NEXT_ID_ROW}, next);
                    batch.put(Keyspaces.CATALOG, tableRow(table.name()), row);
                    also.stage(batch, table);
                    storage.commit(batch);
                } catch (CommitLostException e) {
                    readNextId();
                    continue;
                }
                nextId++;
                storedNextId = next;
                cache(row);
                published(table);
                return table;
            }
        }
    }

    /**
     * Replaces a table's definition with {@code change} applied to the current one, and returns
     * the result. The change runs under the catalog lock, so it sees the latest definition and
     * concurrent updates cannot lose each other's changes; it may throw to refuse the update.
     */
    public TableDefinition update(String name, UnaryOperator<TableDefinition> change) {
        return update(name, change, NOTHING_MORE);
    }

    /**
     * As {@link #update(String, UnaryOperator)}, committing {@code also}'s rows with the new
     * definition (and only when the change changes it).
     */
    public TableDefinition update(String name, UnaryOperator<TableDefinition> change, AlsoStaged also) {
        TableDefinition updated = change(name, also, change);
        if (updated == null) throw DynamoDbException.resourceNotFound(NotFoundMessage.WITH_TABLE_NAME.text(name));
        return updated;
    }

    /**
     * As {@link #update}, for background work that may outlive the table: does nothing, and
     * returns null, when there is no table of that name.
     */
    public TableDefinition updateIfPresent(String name, UnaryOperator<TableDefinition> change) {
        return change(name, NOTHING_MORE, change);
    }

    /** Changes one index's definition, if the table and index still exist. */
    public void updateIndexIfPresent(String tableName, String indexName, UnaryOperator<IndexDefinition> change) {
        change(tableName, NOTHING_MORE, table -> {
            if (table.index(indexName) == null) return table;
            TableDefinition.Builder b = table.toBuilder();
            b.globalIndexes = replace(table.globalIndexes(), indexName, change);
            b.localIndexes = replace(table.localIndexes(), indexName, change);
            b.vectorIndexes = replace(table.vectorIndexes(), indexName, change);
            return b.build();
        });
    }

    /**
     * Removes a dropped index from its table, and the attribute definitions that only its key
     * used (DynamoDB prunes them when the index is gone).
     */
    public void removeIndex(String tableName, String indexName) {
        change(tableName, NOTHING_MORE, table -> {
            TableDefinition.Builder b = table.toBuilder();
            b.globalIndexes = table.globalIndexes().stream().filter(i -> !i.name().equals(indexName)).toList();
            b.vectorIndexes = table.vectorIndexes().stream().filter(i -> !i.name().equals(indexName)).toList();
            Set<String> used = new HashSet<>();
            used.add(table.keySchema().partitionKey());
            if (table.keySchema().hasSortKey()) used.add(table.keySchema().sortKey());
            for (IndexDefinition i : b.globalIndexes) i.keyAttributes().forEach(k -> used.add(k.name()));
            for (IndexDefinition i : table.localIndexes()) i.keyAttributes().forEach(k -> used.add(k.name()));
            for (IndexDefinition i : b.vectorIndexes) {
                i.keyAttributes().forEach(k -> used.add(k.name()));
                i.vector().inlineFilters().forEach(k -> used.add(k.name()));
            }
            b.attributeDefinitions = table.attributeDefinitions().stream().filter(d -> used.contains(d.name())).toList();
            return b.build();
        });
    }

    /**
     * Replaces the table's definition with the change applied to the current one, under the
     * change lock (so it sees the latest definition and concurrent updates cannot lose each
     * other's changes), and returns the result; null when there is no such table. On shared
     * storage, when another server changed the row meanwhile, the change is applied again to
     * the row it wrote.
     */
    private TableDefinition change(String name, AlsoStaged also, UnaryOperator<TableDefinition> change) {
        synchronized (changeLock) {
            while (true) {
                TableDefinition current = tables.get(name);
                if (current == null) current = findStored(name);
                if (current == null) return null;
                TableDefinition updated = change.apply(current);
                if (updated == current) return current;
                byte[] row = TableCodec.encode(updated);
                try (WriteBatch batch = storage.newBatch()) {
                    batch.expect(Keyspaces.CATALOG, tableRow(name), storedRows.get(name));
                    batch.put(Keyspaces.CATALOG, tableRow(name), row);
                    also.stage(batch, updated);
                    storage.commit(batch);
                } catch (CommitLostException e) {
                    reread(name);
                    continue;
                }
                cache(row);
                published(updated);
                return updated;
            }
        }
    }

    private static List<IndexDefinition> replace(List<IndexDefinition> indexes, String name,
                                                 UnaryOperator<IndexDefinition> change) {
        List<IndexDefinition> result = new ArrayList<>(indexes.size());
        for (IndexDefinition i : indexes) result.add(i.name().equals(name) ? change.apply(i) : i);
        return result;
    }

    private final List<Consumer<TableDefinition>> listeners = new CopyOnWriteArrayList<>();

    /**
     * Calls {@code listener} with every definition the catalog publishes (a created table, each
     * change), in the order published, under the catalog's change lock: quick work only. Those
     * who keep state per definition (the capacity meter) follow these rather than the
     * definitions requests carry, which may be older than the latest.
     */
    public void onChange(Consumer<TableDefinition> listener) {
        listeners.add(listener);
    }

    private void published(TableDefinition table) {
        for (Consumer<TableDefinition> l : listeners) l.accept(table);
    }

    private final List<java.util.function.LongConsumer> droppers = new CopyOnWriteArrayList<>();

    /**
     * Has {@code dropper} drop rows of its own of every deleted table (by its id), with the table's
     * items: rows whose layout only their owner knows (the Kinesis outbox's buckets).
     */
    public void onDrop(java.util.function.LongConsumer dropper) {
        droppers.add(dropper);
    }

    private final List<Consumer<TableDefinition>> deletionChecks = new CopyOnWriteArrayList<>();
    private final List<AlsoStaged> deletionRows = new CopyOnWriteArrayList<>();

    /**
     * Has {@code also} stage its rows in every deletion's batch (given the deleted definition):
     * what must be known after a table is gone, durably, as its deletion commits.
     */
    public void stageWithDeletions(AlsoStaged also) {
        deletionRows.add(also);
    }

    /**
     * Has {@code check} consulted before each deletion, under the catalog's change lock: it
     * throws to refuse it (a table whose backup is being created cannot be deleted). What it
     * checks must be set under {@link #holding} too, so that no deletion slips between.
     */
    public void checkDeletions(Consumer<TableDefinition> check) {
        deletionChecks.add(check);
    }

    /**
     * Runs {@code action} with the table of that name (null when there is none) while no change
     * or deletion of any table can interleave: what it registers is seen by every later
     * deletion's checks.
     */
    public <T> T holding(String name, java.util.function.Function<TableDefinition, T> action) {
        synchronized (changeLock) {
            TableDefinition t = tables.get(name);
            return action.apply(t != null ? t : findStored(name));
        }
    }

    /** Deletes a table and drops its items. Returns the definition it had. */
    public TableDefinition delete(String name) {
        return delete(name, NOTHING_MORE);
    }

    /** As {@link #delete(String)}, committing {@code also}'s rows with the deletion (given the deleted definition). */
    public TableDefinition delete(String name, AlsoStaged also) {
        TableDefinition table;
        byte[] droppedRow;
        synchronized (changeLock) {
            while (true) {
                table = find(name);
                if (table == null) {
                    throw DynamoDbException.resourceNotFound(NotFoundMessage.WITH_TABLE_NAME.text(name));
                }
                if (table.deletionProtectionEnabled()) {
                    throw DynamoDbException.validation(
                            "Resource cannot be deleted as it is currently protected against deletion. Disable deletion protection first.");
                }
                for (Consumer<TableDefinition> check : deletionChecks) check.accept(table);
                droppedRow = ByteBuffer.allocate(9).put(DROPPED_ROW).putLong(table.id()).array();
                try (WriteBatch batch = storage.newBatch()) {
                    batch.expect(Keyspaces.CATALOG, tableRow(name), storedRows.get(name));
                    batch.delete(Keyspaces.CATALOG, tableRow(name));
                    batch.put(Keyspaces.CATALOG, droppedRow, new byte[0]);
                    also.stage(batch, table);
                    for (AlsoStaged rows : deletionRows) rows.stage(batch, table);
                    storage.commit(batch);
                } catch (CommitLostException e) {
                    reread(name);
                    continue;
                }
                uncache(table);
                break;
            }
        }
        dropRows(droppedRow);
        return table;
    }

    private void dropRows(byte[] droppedRow) {
        long id = ByteBuffer.wrap(droppedRow, 1, 8).getLong();
        storage.deleteRange(Keyspaces.ITEMS, KeyLayout.tablePrefix(id), KeyLayout.tableUpperBound(id));
        // Time to Live's expiry rows, point-in-time recovery's rows and global tables' item versions
        // and replication log start with the table id (io.stator.engine.ttl.ExpiryIndex,
        // io.stator.engine.backup.RecoveryLog, io.stator.engine.replication).
        for (Keyspace byTable : List.of(Keyspaces.EXPIRIES, Keyspaces.RECOVERY, Keyspaces.ITEM_VERSIONS,
                Keyspaces.REPLICATION_LOG)) {
            storage.deleteRange(byTable, ByteBuffer.allocate(8).putLong(id).array(),
                    ByteBuffer.allocate(8).putLong(id + 1).array());
        }
        counters.drop(id);
        for (java.util.function.LongConsumer d : droppers) d.accept(id);
        try (WriteBatch batch = storage.newBatch()) {
            batch.delete(Keyspaces.CATALOG, droppedRow);
            storage.commit(batch);
        }
    }

    private static byte[] tableRow(String name) {
        byte[] utf8 = name.getBytes(StandardCharsets.UTF_8);
        byte[] key = new byte[utf8.length + 1];
        key[0] = TABLE_ROW;
        System.arraycopy(utf8, 0, key, 1, utf8.length);
        return key;
    }

    /** All table definitions (a snapshot of the cache), in name order. */
    public List<TableDefinition> all() {
        return new ArrayList<>(tables.values());
    }
}
