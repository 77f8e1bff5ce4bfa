package io.stator.engine.cluster;

import io.stator.engine.keyspace.Keyspaces;
import io.stator.storage.CollectionStore;
import io.stator.storage.CollectionStore.Change;
import io.stator.storage.CollectionStore.Consistency;
import io.stator.storage.CollectionStore.Expected;
import io.stator.storage.CommitLostException;
import io.stator.storage.Cursor;
import io.stator.storage.Keyspace;
import io.stator.storage.RowHeldException;
import io.stator.storage.RowKeyFraming;
import io.stator.storage.Snapshot;
import io.stator.storage.Storage;
import io.stator.storage.WriteBatch;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * The storage contract on a {@link CollectionStore} that several servers share (Cassandra), so
 * that the engine runs on it unchanged: its item locks still order one server's writers, and
 * every read-modify-write states what it read ({@link WriteBatch#expect}), which this class
 * checks by compare-and-set. Design: docs/storage-contract.md.
 *
 * <ul>
 *   <li><b>Item rows</b> (ITEMS: items and local-index entries) are kept in
 *       {@link CasTransactions}' envelopes. A batch whose rows are all of one item collection
 *       commits as one compare-and-set ({@link CasTransactions#commit}); a batch over several
 *       (TransactWriteItems) as a transaction on compare-and-set ({@link CasTransactions#write}),
 *       its ClientRequestToken's row one more row of it. Strong reads settle the intents they
 *       meet; ranges and scans give the committed values (read-committed, as DynamoDB's Query and
 *       Scan are) and settle a row that a transaction holds.</li>
 *   <li><b>The catalog, the counters' plain rows and the transactions' tokens</b> are one item
 *       collection each, in a reserved table, keyed by their key as clustering bytes: ranges are
 *       ranges of that collection, and expectations a compare-and-set on it. Tokens are kept in
 *       envelopes like item rows, since they commit with their transaction's items.</li>
 *   <li><b>Time to Live's expiry index</b> is one more such collection; its rows are hints, so a
 *       new row is written before the item's commit and an old one dropped after it.</li>
 *   <li><b>Stream records</b> are kept like item rows, one collection per shard slot of a stream,
 *       so that a record commits in its item's transaction, with its shard's head row
 *       (StreamRecords numbers a shard's records through it); a range of them ends at a record
 *       still held undecided. The streams' catalog is one more reserved collection. Kinesis
 *       destinations' outbox rows are kept the same way, one collection per bucket of a table's
 *       ({@link ShardedRows}).</li>
 *   <li><b>Backups</b> (the BACKUPS key space: backups' descriptions, the jobs' records of
 *       {@code jobs/JobStore}, the jobs' leases, and the backups' copied items and before images)
 *       live in the key space's reserved table. The rows a backup has one of per item (its copy,
 *       {@code 'I' + id + row key}, and its before images, {@code 'P' + id + row key}) are spread
 *       over {@value #BACKUP_BUCKETS} collections per backup and kind, by the item's scan position
 *       (its top bits), so that a large backup is not one huge Cassandra partition (a 10 GB table
 *       makes collections of about 160 MB) and a copy walking the table in scan order fills one
 *       collection at a time (its commits stay one collection each). A range over one backup's
 *       rows reads the collections one after another: in key order within each, which is all the
 *       engine needs (a restore and a copy's second pass take the rows in any order). Every other
 *       row (descriptions, jobs, leases) is one more collection, its ranges in key order. A batch
 *       writing backup rows with items (a before image) commits them first, as the expiry
 *       index's hints are: an image left by a lost item commit is still the item as it is.</li>
 *   <li><b>Point-in-time recovery's rows</b> (RECOVERY: a table's base copy and its history) are
 *       kept like item rows, in their item's own collection under kinds of their own
 *       ({@link RecoveryRows}), so that a change's history row commits in the item's own
 *       compare-and-set; a batch of them alone (a base copy, a fold) commits collection by
 *       collection.</li>
 *   <li><b>Global tables' rows</b>, item versions and the replication log: {@link ReplicationRows}.</li>
 *   <li><b>Not yet on shared storage</b>: counters' additions (ItemCount, TableSizeBytes and the
 *       indexes' figures are counted again by a walk after writes, {@link #takeWrittenTables};
 *       an item collection's size is instead a row of the collection, written with its items:
 *       {@link Deployment#keepsCollectionSizesInCollections}), and the key space of global-index propagation
 *       (the pipeline writes global entries with their item there instead): reads find them
 *       empty and a batch that writes them is refused.</li>
 * </ul>
 * Snapshots are of the latest state, except {@link #snapshotOf}, which reads its rows as of one
 * moment ({@link CasTransactions#readAll}) for TransactGetItems.
 *
 * <p><b>Which reads are SERIAL</b> (a Paxos round on Cassandra) and which QUORUM (one round trip;
 * {@link Consistency#COMMITTED}). QUORUM where a stale value costs nothing: an eventually
 * consistent GetItem, BatchGetItem, Query and Scan ({@link #getCommitted},
 * {@link #eventualSnapshot}: DynamoDB lets them miss recent writes, and QUORUM misses only one in
 * flight); the write pipeline's read of the item it changes, and {@link CasTransactions}' reads
 * of the rows it then compares and sets (a stale value fails the compare-and-set, and the write
 * reads again); a Scan, strong or not (Cassandra has no SERIAL range read). SERIAL where the
 * read decides alone: a strong GetItem and Query (linearizable: no read after it sees an older
 * value, since it settles a commit in flight), TransactGetItems' two passes, the catalog's and
 * the other reserved collections' rows, a transaction's record (whether it committed), and a
 * commit's marker read back after a timeout.
 */
final class SharedStorage implements Storage {

    /** How long a transaction may stay undecided before whoever meets it may abort it. */
    static final long STALE_TRANSACTION_MILLIS = 10_000;
    private static final long LOG_TABLE = metaTable(Keyspaces.REPLICATION_LOG);

    private final CollectionStore store;
    private final CasTransactions transactions;
    private final AutoCloseable onClose;

    /**
     * @param onClose what closing the storage closes (the backend's session), or null
     */
    SharedStorage(CollectionStore store, Clock clock, AutoCloseable onClose) {
        this.store = store;
        this.onClose = onClose;
        this.transactions = new CasTransactions(store, clock, STALE_TRANSACTION_MILLIS);
        for (Keyspace k : META) store.createTable(metaTable(k));
        store.createTable(metaTable(Keyspaces.BACKUPS));
        store.createTable(metaTable(Keyspaces.STREAM_RECORDS));
        store.createTable(metaTable(Keyspaces.KINESIS_OUTBOX));
        store.createTable(LOG_TABLE);
    }

    /** The store itself, for what the servers exchange beside the storage contract ({@link SharedCapacity}). */
    CollectionStore store() { return store; }

    /** The transactions on compare-and-set that item rows are kept by (recovery runs through it). */
    public CasTransactions transactions() { return transactions; }

    @Override
    public long scanPosition(byte[] rowKey) {
        return store.position(rowKey);
    }

    @Override
    public void createTable(long tableId) {
        store.createTable(tableId);
    }

    // ---- where each key space lives -------------------------------------------------------------

    /** The key spaces kept as one collection each. */
    private static final List<Keyspace> META = List.of(Keyspaces.CATALOG, Keyspaces.COUNTERS, Keyspaces.TRANSACTION_TOKENS,
            Keyspaces.EXPIRIES, Keyspaces.STREAMS);

    private static boolean isMeta(Keyspace k) {
        return META.contains(k);
    }

    /** Not kept on shared storage yet: read as empty, never written. */
    private static boolean isAbsent(Keyspace k) {
        return !isMeta(k) && k != Keyspaces.ITEMS && !ShardedRows.isSharded(k) && k != Keyspaces.BACKUPS
                && k != Keyspaces.RECOVERY && k != Keyspaces.ITEM_VERSIONS && k != Keyspaces.REPLICATION_LOG;
    }

    /** Rows kept in CasTransactions' envelopes: they commit with items, in one transaction. */
    private static boolean isTransactional(Keyspace k) {
        return k == Keyspaces.ITEMS || k == Keyspaces.TRANSACTION_TOKENS || ShardedRows.isSharded(k)
                || k == Keyspaces.RECOVERY || k == Keyspaces.ITEM_VERSIONS;
    }

    /**
     * The reserved table of a key space kept as one collection (below CasTransactions.RECORDS).
     * Persisted: numbered by the key space's place in {@link Keyspaces#ALL}, the order of the
     * storage's former enum of key spaces.
     */
    static long metaTable(Keyspace k) {
        int place = Keyspaces.ALL.indexOf(k);
        if (place < 0) throw new IllegalArgumentException("not an engine key space: " + k);
        return CasTransactions.RECORDS - 1 - place;
    }

    private static byte[] metaRow(Keyspace k, byte[] key) {
        return RowKeyFraming.rowKey(metaTable(k), 0, 0, k.storedName().getBytes(StandardCharsets.UTF_8), key);
    }

    /** How many collections one backup's copied items (and its before images) are spread over. */
    static final int BACKUP_BUCKETS = 64;
    /** A bucketed backup row's key starts with its type ('I' or 'P') and the backup's 23-byte id. */
    private static final int BACKUP_PREFIX = 24;

    /** Whether a BACKUPS key is a copied item's or a before image's row (or the prefix of one backup's). */
    private static boolean isBucketed(byte[] key) {
        return key.length >= BACKUP_PREFIX && (key[0] == 'I' || key[0] == 'P');
    }

    /** A BACKUPS row: a bucketed one in its backup's bucket, any other in the key space's one collection. */
    private byte[] backupRow(byte[] key) {
        if (!isBucketed(key)) return metaRow(Keyspaces.BACKUPS, key);
        byte[] itemRowKey = Arrays.copyOfRange(key, BACKUP_PREFIX, key.length);
        int bucket = (int) (store.position(itemRowKey) >>> (64 - Integer.numberOfTrailingZeros(BACKUP_BUCKETS)));
        return bucketRow(key, bucket, itemRowKey);
    }

    private static byte[] bucketRow(byte[] key, int bucket, byte[] clustering) {
        byte[] collection = Arrays.copyOf(key, BACKUP_PREFIX + 1);
        collection[BACKUP_PREFIX] = (byte) bucket;
        return RowKeyFraming.rowKey(metaTable(Keyspaces.BACKUPS), 0, 0, collection, clustering);
    }

    private static byte[] backupKey(byte[] row) {
        byte[] collection = RowKeyFraming.partitionKey(row);
        if (collection.length != BACKUP_PREFIX + 1) return RowKeyFraming.clustering(row);
        byte[] clustering = RowKeyFraming.clustering(row);
        byte[] key = Arrays.copyOf(collection, BACKUP_PREFIX + clustering.length);
        System.arraycopy(clustering, 0, key, BACKUP_PREFIX, clustering.length);
        return key;
    }

    /** One backup's rows of one type ({@code prefix}: type and id), bucket after bucket. */
    private Cursor backupRows(byte[] prefix) {
        byte[] collection = Arrays.copyOf(prefix, BACKUP_PREFIX);
        return new Cursor() {
            private int bucket = -1;
            private Cursor rows = EMPTY;

            @Override
            public boolean next() {
                while (!rows.next()) {
                    rows.close();
                    if (++bucket == BACKUP_BUCKETS) {
                        rows = EMPTY;
                        return false;
                    }
                    rows = store.range(bucketRow(collection, bucket, new byte[0]), null, null, false, Consistency.STRONG);
                }
                return true;
            }

            @Override public byte[] key() { return backupKey(rows.key()); }
            @Override public byte[] value() { return rows.value(); }
            @Override public void close() { rows.close(); }
        };
    }

    // ---- reads ----------------------------------------------------------------------------------

    @Override
    public byte[] get(Keyspace keyspace, byte[] key) {
        if (keyspace == Keyspaces.ITEMS) return transactions.read(key);
        if (keyspace == Keyspaces.TRANSACTION_TOKENS) return transactions.read(metaRow(keyspace, key));
        if (ShardedRows.isSharded(keyspace)) return transactions.read(ShardedRows.row(keyspace, key));
        if (keyspace == Keyspaces.RECOVERY) return transactions.read(RecoveryRows.row(key));
        if (keyspace == Keyspaces.ITEM_VERSIONS) return transactions.read(ReplicationRows.versionRow(key));
        if (keyspace == Keyspaces.REPLICATION_LOG) return store.get(ReplicationRows.logRow(LOG_TABLE, key), Consistency.COMMITTED);
        if (isMeta(keyspace)) return store.get(metaRow(keyspace, key), Consistency.STRONG);
        if (keyspace == Keyspaces.BACKUPS) return store.get(backupRow(key), Consistency.STRONG);
        return null;
    }

    /**
     * An item as a quorum of replicas holds it (QUORUM, one round trip), rather than a SERIAL
     * read's Paxos round: for eventually consistent reads, and for a write's read of the item it
     * then expects, whose compare-and-set fails on a stale value (the write starts over). It sees
     * every commit that returned before it began. A row that a transaction holds is settled by
     * a strong read, as ranges settle it.
     */
    @Override
    public byte[] getCommitted(Keyspace keyspace, byte[] key) {
        boolean version = keyspace == Keyspaces.ITEM_VERSIONS; // a global table's write expects it as read
        if (keyspace != Keyspaces.ITEMS && !version) return get(keyspace, key);
        byte[] row = version ? ReplicationRows.versionRow(key) : key;
        byte[] stored = store.get(row, Consistency.COMMITTED);
        if (CasTransactions.claimed(stored)) {
            lastRead.remove();
            return transactions.read(row);
        }
        if (!version) lastRead.set(new CasTransactions.Read(key, stored));
        return CasTransactions.committedOf(stored);
    }

    /**
     * The envelope this thread read last ({@link #getCommitted}): the write pipeline reads its
     * item, then commits on this thread, and its commit compares and sets on this envelope
     * rather than reading the row a second time (a stale one only fails the commit).
     */
    private final ThreadLocal<CasTransactions.Read> lastRead = new ThreadLocal<>();

    /** Eventually consistent Query and Scan: their rows read at QUORUM ({@link #getCommitted}). */
    @Override
    public Snapshot eventualSnapshot() {
        return COMMITTED_READS;
    }

    private static final Snapshot COMMITTED_READS = () -> { };

    @Override
    public byte[] get(Snapshot snapshot, Keyspace keyspace, byte[] key) {
        if (snapshot == COMMITTED_READS) return getCommitted(keyspace, key);
        if (snapshot instanceof RowsRead read && keyspace == Keyspaces.ITEMS) {
            byte[] value = read.values.get(new Key(key));
            if (value != null || read.values.containsKey(new Key(key))) return value;
        }
        return get(keyspace, key);
    }

    @Override
    public Snapshot snapshot() {
        return LATEST;
    }

    private static final Snapshot LATEST = () -> { };

    @Override
    public Snapshot snapshotOf(Keyspace keyspace, List<byte[]> keys) {
        if (keyspace != Keyspaces.ITEMS) return LATEST;
        List<byte[]> values;
        try {
            values = transactions.readAll(keys);
        } catch (CasTransactions.ConflictException e) {
            throw new RowHeldException(keys.get(e.position()));
        }
        Map<Key, byte[]> read = new HashMap<>();
        for (int i = 0; i < keys.size(); i++) read.put(new Key(keys.get(i)), values.get(i));
        return new RowsRead(read);
    }

    /** Rows read together as of one moment. */
    private record RowsRead(Map<Key, byte[]> values) implements Snapshot {
        @Override
        public void close() { }
    }

    /**
     * Ranges of item rows are the engine's two shapes: within one item collection (a Query, whose
     * bounds carry the whole partition key) or a scan of hash-space positions (whose bounds are
     * at most {@code [table][kind][hash]} long, or start after a row key the scan gave).
     */
    @Override
    public Cursor range(Snapshot snapshot, Keyspace keyspace, byte[] from, byte[] to, boolean reverse) {
        return range(snapshot, keyspace, from, to, reverse, Integer.MAX_VALUE);
    }

    /** A Query's first page of rows fetched is its Limit ({@code rowsWanted}), not the backend's default. */
    @Override
    public Cursor range(Snapshot snapshot, Keyspace keyspace, byte[] from, byte[] to, boolean reverse, int rowsWanted) {
        if (isAbsent(keyspace)) return EMPTY;
        if (ShardedRows.isSharded(keyspace)) {
            // Within one shard (a range's end in another shard reads to the shard's end).
            byte[] first = ShardedRows.row(keyspace, from);
            byte[] last = ShardedRows.sameShard(from, to) ? ShardedRows.row(keyspace, to) : null;
            Cursor rows = store.range(first, first, last, reverse, Consistency.STRONG);
            return new Mapped(new Committed(rows, true), ShardedRows::key, v -> v);
        }
        if (keyspace == Keyspaces.BACKUPS) {
            if (from != null && isBucketed(from)) {
                // One backup's rows of one type: the engine's only ranges over them.
                if (reverse || to == null || to.length != BACKUP_PREFIX || from.length != BACKUP_PREFIX) {
                    throw new IllegalArgumentException("a backup's items are read whole, forward");
                }
                return backupRows(from);
            }
            byte[] within = metaRow(keyspace, new byte[0]);
            Cursor rows = store.range(within, from == null ? null : metaRow(keyspace, from),
                    to == null ? null : metaRow(keyspace, to), reverse, Consistency.STRONG);
            return new Mapped(rows, RowKeyFraming::clustering, v -> v);
        }
        if (keyspace == Keyspaces.RECOVERY) {
            // Point-in-time recovery's rows of one type, in their items' collections (RecoveryRows).
            int[] kinds = RecoveryRows.kindsBetween(from, to);
            if (kinds.length != 1) throw new IllegalArgumentException("a range of recovery rows is of one type");
            Cursor rows = store.scan(RecoveryRows.tableOf(from), kinds[0], 0, 0, null, Consistency.STRONG);
            return RecoveryRows.within(new Committed(rows, false), from, to);
        }
        if (keyspace == Keyspaces.ITEM_VERSIONS) return ReplicationRows.versionsWithin(new Committed(store.scan(
                RowKeyFraming.tableId(from), ReplicationRows.VERSION_KIND, 0, 0, null, Consistency.STRONG), false), from, to);
        if (keyspace == Keyspaces.REPLICATION_LOG) return ReplicationRows.logRange(store, LOG_TABLE, from, to, reverse);
        if (isMeta(keyspace)) {
            byte[] within = metaRow(keyspace, new byte[0]);
            Cursor rows = store.range(within, from == null ? null : metaRow(keyspace, from),
                    to == null ? null : metaRow(keyspace, to), reverse, Consistency.STRONG);
            if (keyspace == Keyspaces.TRANSACTION_TOKENS) rows = new Committed(rows, false);
            return new Mapped(rows, RowKeyFraming::clustering, v -> v);
        }
        Cursor rows;
        if (to.length > RowKeyFraming.LENGTH_OFFSET) {
            // A strong Query is a SERIAL read of its partition (linearizable, as a strong
            // GetItem); an eventually consistent one reads it at QUORUM.
            byte[] upper = RowKeyFraming.sameCollection(from, to) ? to : null;
            rows = store.range(from, from, upper, reverse, snapshot == COMMITTED_READS ? Consistency.COMMITTED : Consistency.STRONG,
                    rowsWanted);
        } else {
            if (reverse) throw new IllegalArgumentException("scans run forward");
            long table = RowKeyFraming.tableId(from);
            int kind = RowKeyFraming.kind(from);
            byte[] startAfter = from.length > RowKeyFraming.LENGTH_OFFSET ? Arrays.copyOf(from, from.length - 1) : null;
            long fromHash = from.length == RowKeyFraming.LENGTH_OFFSET ? RowKeyFraming.hash(from) : 0;
            long toHash = to.length == RowKeyFraming.LENGTH_OFFSET ? RowKeyFraming.hash(to) : 0;
            rows = store.scan(table, kind, fromHash, toHash, startAfter, Consistency.STRONG);
        }
        return new Committed(rows, false);
    }

    private static final Cursor EMPTY = new Cursor() {
        @Override public boolean next() { return false; }
        @Override public byte[] key() { throw new IllegalStateException(); }
        @Override public byte[] value() { throw new IllegalStateException(); }
        @Override public void close() { }
    };

    /**
     * Item rows as their committed values; a row a transaction holds is settled by a strong read.
     * With {@code stopAtUndecided} (stream records), the cursor ends at a row that a transaction
     * still holds undecided: the records after it may be committed already (they wait only for
     * its shard's head row), and a reader that skipped it would never come back for it.
     */
    private final class Committed implements Cursor {
        private final Cursor rows;
        private final boolean stopAtUndecided;
        private byte[] value;
        private boolean stopped;

        Committed(Cursor rows, boolean stopAtUndecided) {
            this.rows = rows;
            this.stopAtUndecided = stopAtUndecided;
        }

        @Override
        public boolean next() {
            while (!stopped && rows.next()) {
                byte[] stored = rows.value();
                if (!CasTransactions.claimed(stored)) {
                    value = CasTransactions.committedOf(stored);
                } else {
                    value = transactions.read(rows.key());
                    if (value == null && stopAtUndecided && CasTransactions.claimed(store.get(rows.key(), Consistency.STRONG))) {
                        stopped = true;
                        return false;
                    }
                }
                if (value != null) return true;
            }
            return false;
        }

        @Override public byte[] key() { return rows.key(); }
        @Override public byte[] value() { return value; }
        @Override public void close() { rows.close(); }
    }

    private record Mapped(Cursor rows, Function<byte[], byte[]> keys, Function<byte[], byte[]> values) implements Cursor {
        @Override public boolean next() { return rows.next(); }
        @Override public byte[] key() { return keys.apply(rows.key()); }
        @Override public byte[] value() { return values.apply(rows.value()); }
        @Override public void close() { rows.close(); }
    }

    // ---- writes ---------------------------------------------------------------------------------

    @Override
    public WriteBatch newBatch() {
        return new Batch();
    }

    /** What a batch writes and expects, kept until its commit. */
    private final class Batch implements WriteBatch {
        final Map<Key, byte[]> expected = new LinkedHashMap<>();
        final Map<Key, Keyspace> expectedIn = new HashMap<>();
        final Map<Key, Write> writes = new LinkedHashMap<>();
        int size;

        @Override
        public void put(Keyspace keyspace, byte[] key, byte[] value) {
            write(keyspace, key, value);
        }

        @Override
        public void delete(Keyspace keyspace, byte[] key) {
            write(keyspace, key, null);
        }

        private void write(Keyspace keyspace, byte[] key, byte[] value) {
            if (isAbsent(keyspace)) {
                throw new IllegalStateException(keyspace.storedName() + " is not kept on shared storage yet");
            }
            writes.put(new Key(rowKey(keyspace, key)), new Write(keyspace, value));
            size++;
        }

        /** Counters' additions are not kept on shared storage yet (see the class comment). */
        @Override
        public void addToCounter(Keyspace keyspace, byte[] key, long delta) { }

        @Override
        public void expect(Keyspace keyspace, byte[] key, byte[] value) {
            if (isAbsent(keyspace) || keyspace == Keyspaces.REPLICATION_LOG) {
                throw new IllegalStateException(keyspace.storedName() + " is not compared and set on shared storage");
            }
            Key k = new Key(rowKey(keyspace, key));
            expected.put(k, value);
            expectedIn.put(k, keyspace);
        }

        @Override public int size() { return size; }
        @Override public void close() { }

        /** What the batch expects of these rows and writes to them. */
        Rows rows(List<byte[]> rows) {
            List<Expected> expects = new ArrayList<>();
            List<Change> changes = new ArrayList<>();
            for (byte[] r : rows) {
                Key k = new Key(r);
                if (expected.containsKey(k)) expects.add(new Expected(r, expected.get(k)));
                Write w = writes.get(k);
                if (w != null) changes.add(new Change(r, w.value()));
            }
            return new Rows(expects, changes);
        }
    }

    private record Rows(List<Expected> expected, List<Change> changes) {}

    private record Write(Keyspace keyspace, byte[] value) {}

    private byte[] rowKey(Keyspace keyspace, byte[] key) {
        if (keyspace == Keyspaces.BACKUPS) return backupRow(key);
        if (keyspace == Keyspaces.RECOVERY) return RecoveryRows.row(key);
        if (keyspace == Keyspaces.ITEM_VERSIONS) return ReplicationRows.versionRow(key);
        if (keyspace == Keyspaces.REPLICATION_LOG) return ReplicationRows.logRow(LOG_TABLE, key);
        return keyspace == Keyspaces.ITEMS ? key : ShardedRows.isSharded(keyspace) ? ShardedRows.row(keyspace, key) : metaRow(keyspace, key);
    }

    /** The tables whose rows (items, index entries) batches wrote, since {@link #takeWrittenTables}. */
    private final Set<Long> writtenTables = ConcurrentHashMap.newKeySet();

    /**
     * The tables whose items or index entries were written (or tried) since the last call, each
     * once its commit has ended (see {@link #commit}): their counters are counted again
     * (SharedUpkeep), as commits here cannot add to them.
     */
    public Set<Long> takeWrittenTables() {
        Set<Long> taken = new HashSet<>();
        for (Long id : writtenTables) {
            if (writtenTables.remove(id)) taken.add(id);
        }
        return taken;
    }

    @Override
    public void commit(WriteBatch writeBatch) {
        Batch batch = (Batch) writeBatch;
        List<byte[]> items = new ArrayList<>();
        List<byte[]> meta = new ArrayList<>();
        List<Long> tables = new ArrayList<>(1);
        for (Map.Entry<Key, Write> w : batch.writes.entrySet()) {
            Keyspace k = w.getValue().keyspace();
            (isTransactional(k) ? items : meta).add(w.getKey().bytes());
            if (k == Keyspaces.ITEMS) {
                long table = RowKeyFraming.tableId(w.getKey().bytes());
                if (!tables.contains(table)) tables.add(table);
            }
        }
        try {
            commitRows(batch, items, meta);
        } finally {
            // Marked once the commit has landed (or failed, or its outcome is unknown), never
            // before: a recount takes the mark and then walks the table, so its walk starts after
            // the commit and sees it. A mark made before the commit could be taken by a recount
            // whose walk passed the item before the commit landed, leaving the counters stale
            // until the table's next write.
            writtenTables.addAll(tables);
        }
    }

    private void commitRows(Batch batch, List<byte[]> items, List<byte[]> meta) {
        // Expectations of rows the batch does not write (a ConditionCheck's item) join its rows.
        for (Key k : batch.expected.keySet()) {
            if (!batch.writes.containsKey(k)) (isTransactional(batch.expectedIn.get(k)) ? items : meta).add(k.bytes());
        }
        // Time to Live's rows are hints (ExpiryIndex): a new one is written before the item, an
        // old one dropped after it, so that no crash leaves an expiring item without its row.
        // A backup's before image too: written before the change it keeps the item from.
        List<byte[]> hints = new ArrayList<>();
        for (byte[] r : meta) {
            Write w = batch.writes.get(new Key(r));
            boolean hint = w != null && (w.keyspace() == Keyspaces.EXPIRIES || w.keyspace() == Keyspaces.BACKUPS);
            if (hint && w.value() != null) hints.add(r);
        }
        if (!hints.isEmpty() && !items.isEmpty()) {
            meta.removeAll(hints);
            commitMeta(batch, hints);
        }
        // The replication log's rows: plain writes, before the items they log (ReplicationRows).
        List<Change> logged = new ArrayList<>();
        meta.removeIf(r -> batch.writes.get(new Key(r)) instanceof Write w && w.keyspace() == Keyspaces.REPLICATION_LOG
                && logged.add(new Change(r, w.value())));
        ReplicationRows.writeLog(store, logged);
        if (!items.isEmpty()) {
            if (oneCollection(items)) commitCollection(batch, items);
            else if (onlyRecovery(batch, items)) commitEachCollection(batch, items);
            else commitTransaction(batch, items);
        }
        if (!meta.isEmpty()) commitMeta(batch, meta);
    }

    private static boolean oneCollection(List<byte[]> rows) {
        for (byte[] r : rows) if (!RowKeyFraming.sameCollection(rows.get(0), r)) return false;
        return true;
    }

    /** True when every row is point-in-time recovery's (a base copy's, a fold's): no item of the batch. */
    private static boolean onlyRecovery(Batch batch, List<byte[]> rows) {
        for (byte[] r : rows) {
            Key k = new Key(r);
            Write w = batch.writes.get(k);
            if ((w != null ? w.keyspace() : batch.expectedIn.get(k)) != Keyspaces.RECOVERY) return false;
        }
        return true;
    }

    /**
     * A batch of item rows of one collection that expects nothing (a put or delete written without
     * reading the item: the write isolation only_rmw_uses_lwt) as the store's plain write
     * ({@link CollectionStore#write}), each row a fresh envelope ({@link CasTransactions#plainEnvelope});
     * any other batch commits as {@link #commit} does.
     */
    @Override
    public void commitPlainly(WriteBatch writeBatch) {
        Batch batch = (Batch) writeBatch;
        List<byte[]> rows = new ArrayList<>(batch.writes.size());
        for (Map.Entry<Key, Write> w : batch.writes.entrySet()) {
            if (w.getValue().keyspace() != Keyspaces.ITEMS) {
                commit(batch);
                return;
            }
            rows.add(w.getKey().bytes());
        }
        if (!batch.expected.isEmpty() || rows.isEmpty() || !oneCollection(rows)) {
            commit(batch);
            return;
        }
        List<Change> changes = new ArrayList<>(rows.size());
        for (byte[] r : rows) changes.add(new Change(r, CasTransactions.plainEnvelope(batch.writes.get(new Key(r)).value())));
        writtenTables.add(RowKeyFraming.tableId(rows.get(0)));
        store.write(changes);
    }

    /**
     * Point-in-time recovery's own batches (its base copied, its history folded into the base) hold
     * rows of many items, but what must be atomic is each item's part (its base row with the history
     * rows folded into it), which shares the item's collection: one compare-and-set per collection,
     * in order; a lost one throws after the ones before it committed.
     */
    private void commitEachCollection(Batch batch, List<byte[]> rows) {
        Map<Key, List<byte[]>> byCollection = new LinkedHashMap<>();
        for (byte[] r : rows) byCollection.computeIfAbsent(new Key(RowKeyFraming.collection(r)), c -> new ArrayList<>()).add(r);
        for (List<byte[]> collection : byCollection.values()) commitCollection(batch, collection);
    }

    private void commitCollection(Batch batch, List<byte[]> rows) {
        Rows r = batch.rows(rows);
        CasTransactions.Read read = lastRead.get();
        lastRead.remove();
        if (!transactions.commit(r.expected(), r.changes(), read)) throw new CommitLostException();
    }

    private void commitTransaction(Batch batch, List<byte[]> rows) {
        List<CasTransactions.Action> actions = new ArrayList<>(rows.size());
        for (byte[] r : rows) {
            Key k = new Key(r);
            boolean checked = batch.expected.containsKey(k);
            byte[] expectedValue = batch.expected.get(k);
            Write w = batch.writes.get(k);
            actions.add(new CasTransactions.Action() {
                @Override
                public byte[] rowKey() { return r; }

                @Override
                public byte[] apply(byte[] committed) {
                    if (checked && !Arrays.equals(committed, expectedValue)) throw new CommitLostException();
                    return w == null ? committed : w.value();
                }
            });
        }
        try {
            transactions.write(actions);
        } catch (CasTransactions.RefusedException e) {
            if (e.getCause() instanceof CommitLostException lost) throw lost;
            throw e;
        } catch (CasTransactions.ConflictException e) {
            throw new RowHeldException(rows.get(e.position()));
        }
    }

    /**
     * Rows of the reserved collections: one compare-and-set per collection written. Their batches
     * come alone (the catalog's, the expirer's) or after the items they go with (counters' rows,
     * Time to Live's rows dropped).
     */
    private void commitMeta(Batch batch, List<byte[]> rows) {
        Map<Key, List<byte[]>> byCollection = new LinkedHashMap<>();
        for (byte[] r : rows) byCollection.computeIfAbsent(new Key(RowKeyFraming.collection(r)), c -> new ArrayList<>()).add(r);
        for (List<byte[]> collection : byCollection.values()) {
            Rows r = batch.rows(collection);
            if (r.expected().isEmpty()) {
                // Nothing expected: a round lost to another writer of the collection wrote
                // nothing, and is simply tried again.
                while (!store.commit(List.of(), r.changes())) Thread.onSpinWait();
            } else if (!store.commit(r.expected(), r.changes())) {
                throw new CommitLostException();
            }
        }
    }

    @Override
    public void deleteRange(Keyspace keyspace, byte[] from, byte[] to) {
        if (keyspace == Keyspaces.ITEMS && from.length == RowKeyFraming.KIND_OFFSET) {
            // The engine drops a whole table's rows (Catalog.delete): the backend's table goes.
            store.dropTable(RowKeyFraming.tableId(from));
        } else if (keyspace == Keyspaces.ITEMS) {
            // One index's rows (IndexBuilds' drop), over every collection: each row deleted, its
            // envelope too, since no one reads a dropped index's rows again (index ids are never
            // reused).
            deleteIndexRows(RowKeyFraming.tableId(from), RowKeyFraming.kind(from));
        } else if (ShardedRows.isSharded(keyspace)) {
            if (!ShardedRows.sameShard(from, to)) throw new IllegalArgumentException("stream records are deleted shard by shard");
            deleteRows(ShardedRows.row(keyspace, from), ShardedRows.row(keyspace, from), ShardedRows.row(keyspace, to));
        } else if (keyspace == Keyspaces.BACKUPS && isBucketed(from)) {
            // One backup's rows of one type (BackupCatalog's and BeforeImages' drops): bucket by bucket.
            for (int b = 0; b < BACKUP_BUCKETS; b++) deleteRows(bucketRow(from, b, new byte[0]), null, null);
        } else if (keyspace == Keyspaces.RECOVERY) {
            // Point-in-time recovery's rows of one table (a base, or all of them), found by a scan of
            // their kinds; a dropped table's are gone with it, and scan as none.
            for (int kind : RecoveryRows.kindsBetween(from, to)) {
                try (Cursor c = store.scan(RecoveryRows.tableOf(from), kind, 0, 0, null, Consistency.STRONG)) {
                    while (c.next()) {
                        if (!RecoveryRows.within(RecoveryRows.key(c.key()), from, to)) continue;
                        while (!store.commit(List.of(), List.of(new Change(c.key(), null)))) Thread.onSpinWait();
                    }
                }
            }
        } else if (keyspace == Keyspaces.REPLICATION_LOG) {
            ReplicationRows.deleteLogRange(store, LOG_TABLE, from, to);
        } else if (keyspace == Keyspaces.ITEM_VERSIONS && !ReplicationRows.wholeTable(from, to)) {
            throw new IllegalArgumentException("item versions are deleted with their table"); // dropped with its items
        } else if (isMeta(keyspace) || keyspace == Keyspaces.BACKUPS) {
            deleteRows(metaRow(keyspace, new byte[0]), metaRow(keyspace, from), metaRow(keyspace, to));
        }
    }

    private void deleteIndexRows(long tableId, int kind) {
        try (Cursor c = store.scan(tableId, kind, 0, 0, null, Consistency.STRONG)) {
            while (c.next()) {
                while (!store.commit(List.of(), List.of(new Change(c.key(), null)))) Thread.onSpinWait();
            }
        }
    }

    /** Deletes the rows of one collection in a range, a hundred per commit. */
    private void deleteRows(byte[] within, byte[] from, byte[] to) {
        List<Change> deletes = new ArrayList<>();
        try (Cursor c = store.range(within, from, to, false, Consistency.STRONG)) {
            while (c.next()) deletes.add(new Change(c.key(), null));
        }
        for (int i = 0; i < deletes.size(); i += 100) {
            List<Change> some = deletes.subList(i, Math.min(deletes.size(), i + 100));
            while (!store.commit(List.of(), some)) Thread.onSpinWait();
        }
    }

    @Override
    public void close() {
        if (onClose == null) return;
        try {
            onClose.close();
        } catch (Exception e) {
            throw new IllegalStateException("closing the shared storage's backend", e);
        }
    }

    /** A key as a map key. */
    private record Key(byte[] bytes) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && Arrays.equals(k.bytes, bytes);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(bytes);
        }
    }
}
