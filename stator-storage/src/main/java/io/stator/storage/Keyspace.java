package io.stator.storage;

/**
 * The separate key spaces a backend keeps (RocksDB: one column family each). Item rows never
 * share a key space with metadata, so a range over items can never run into a catalog row.
 *
 * <p>Persisted: the names are stored by backends. Do not rename or reorder.
 */
public enum Keyspace {
    /** Table descriptions, keyed by table id. */
    CATALOG("catalog"),
    /** Base-table items and index entries, keyed as {@code io.stator.core.key.KeyLayout} says. */
    ITEMS("items"),
    /**
     * 64-bit counters changed only by {@link WriteBatch#addToCounter} (a table's item count and
     * size), so that concurrent writers never lose each other's changes.
     */
    COUNTERS("counters"),
    /**
     * Changes to global secondary indexes waiting to be applied, in commit order (see
     * {@code io.stator.engine.index.IndexPropagator}); written in the same batch as the item.
     */
    INDEX_QUEUE("index-queue"),
    /**
     * The ClientRequestTokens of committed transactions, for DynamoDB's ten minutes of
     * idempotency; written in the transaction's own batch.
     */
    TRANSACTION_TOKENS("transaction-tokens"),
    /**
     * Time to Live's expiry index: one row per item of a table with TTL that is due to be
     * deleted, in the order of its due time (see {@code io.stator.engine.ttl.ExpiryIndex});
     * written in the same batch as the item.
     */
    EXPIRIES("expiries"),
    /**
     * DynamoDB Streams' records: one row per change of an item of a table with a stream, in
     * sequence order per shard (see {@code io.stator.engine.streams.StreamRecords}); written in the
     * same batch as the item.
     */
    STREAM_RECORDS("stream-records"),
    /**
     * The streams of every table, current and past (until they expire), keyed by table name and
     * creation time (see {@code io.stator.engine.streams.StreamCatalog}).
     */
    STREAMS("streams"),
    /**
     * On-demand backups: each backup's description, and a copy of its table's items as they were
     * when it was requested (see {@code io.stator.engine.backup.BackupCatalog}).
     */
    BACKUPS("backups"),
    /**
     * Point-in-time recovery: for each table with it, a base copy of its items and every change
     * since, by commit time (see {@code io.stator.engine.backup.RecoveryLog}); the changes written
     * in the same batch as the item.
     */
    RECOVERY("recovery");

    private final String storedName;

    Keyspace(String storedName) {
        this.storedName = storedName;
    }

    /** The name under which a backend stores this key space. */
    public String storedName() { return storedName; }
}
