package io.stator.engine.keyspace;

import io.stator.storage.Keyspace;
import io.stator.storage.Keyspace.Kind;
import java.util.List;

/**
 * The engine's key spaces: each kind of row it stores in a key space of its own (RocksDB: one
 * column family each), so that item rows never share a key space with metadata and a range over
 * items can never run into a catalog row. The engine's storage is opened with {@link #ALL}.
 *
 * <p>Persisted: the names are stored by backends (existing data directories open by them), and
 * the order of {@link #ALL} numbers the shared store's tables of them. Do not rename or reorder;
 * a new key space goes at the end.
 */
public final class Keyspaces {

    private Keyspaces() {}

    /** Table descriptions, keyed by table id. */
    public static final Keyspace CATALOG = Keyspace.of("catalog", Kind.ROWS);
    /** Base-table items and index entries, keyed as {@code io.stator.core.key.KeyLayout} says. */
    public static final Keyspace ITEMS = Keyspace.of("items", Kind.BULK);
    /**
     * 64-bit counters changed only by {@code WriteBatch#addToCounter} (a table's item count and
     * size), so that concurrent writers never lose each other's changes.
     */
    public static final Keyspace COUNTERS = Keyspace.of("counters", Kind.COUNTERS);
    /**
     * Changes to global secondary indexes waiting to be applied, in commit order (see
     * {@code io.stator.engine.index.IndexPropagator}); written in the same batch as the item.
     */
    public static final Keyspace INDEX_QUEUE = Keyspace.of("index-queue", Kind.ROWS);
    /**
     * The ClientRequestTokens of committed transactions, for DynamoDB's ten minutes of
     * idempotency; written in the transaction's own batch.
     */
    public static final Keyspace TRANSACTION_TOKENS = Keyspace.of("transaction-tokens", Kind.ROWS);
    /**
     * Time to Live's expiry index: one row per item of a table with TTL that is due to be
     * deleted, in the order of its due time (see {@code io.stator.engine.ttl.ExpiryIndex});
     * written in the same batch as the item.
     */
    public static final Keyspace EXPIRIES = Keyspace.of("expiries", Kind.ROWS);
    /**
     * DynamoDB Streams' records: one row per change of an item of a table with a stream, in
     * sequence order per shard (see {@code io.stator.engine.streams.StreamRecords}); written in the
     * same batch as the item.
     */
    public static final Keyspace STREAM_RECORDS = Keyspace.of("stream-records", Kind.ROWS);
    /**
     * The streams of every table, current and past (until they expire), keyed by table name and
     * creation time (see {@code io.stator.engine.streams.StreamCatalog}).
     */
    public static final Keyspace STREAMS = Keyspace.of("streams", Kind.ROWS);
    /**
     * On-demand backups: each backup's description, and a copy of its table's items as they were
     * when it was requested (see {@code io.stator.engine.backup.BackupCatalog}).
     */
    public static final Keyspace BACKUPS = Keyspace.of("backups", Kind.ROWS);
    /**
     * Point-in-time recovery: for each table with it, a base copy of its items and every change
     * since, by commit time (see {@code io.stator.engine.backup.RecoveryLog}); the changes written
     * in the same batch as the item.
     */
    public static final Keyspace RECOVERY = Keyspace.of("recovery", Kind.ROWS);

    /**
     * Global tables: each item's version (a hybrid logical clock and the region that wrote it),
     * by the item's row key, kept after a delete as its tombstone (see
     * {@code io.stator.engine.replication.ItemVersions}); written in the same batch as the item.
     */
    public static final Keyspace ITEM_VERSIONS = Keyspace.of("item-versions", Kind.ROWS);
    /**
     * Global tables: the changes of each replica's items to ship to the other regions, in
     * sequence order per table, and each peer region's place in them (see
     * {@code io.stator.engine.replication.ReplicationLog}); a change written in the same batch as the item.
     */
    public static final Keyspace REPLICATION_LOG = Keyspace.of("replication-log", Kind.ROWS);

    /**
     * Kinesis Data Streams destinations: each change of a table streaming to Kinesis, until the
     * delivery has put it (see {@code io.stator.engine.kinesis.KinesisOutbox}); written in the same
     * batch as the item.
     */
    public static final Keyspace KINESIS_OUTBOX = Keyspace.of("kinesis-outbox", Kind.ROWS);

    /** Every key space of the engine, in their persisted order. */
    public static final List<Keyspace> ALL = List.of(CATALOG, ITEMS, COUNTERS, INDEX_QUEUE, TRANSACTION_TOKENS,
            EXPIRIES, STREAM_RECORDS, STREAMS, BACKUPS, RECOVERY, ITEM_VERSIONS, REPLICATION_LOG, KINESIS_OUTBOX);
}
