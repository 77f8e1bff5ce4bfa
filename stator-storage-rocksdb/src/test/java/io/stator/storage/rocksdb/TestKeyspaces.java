package io.stator.storage.rocksdb;

import io.stator.storage.Keyspace;
import io.stator.storage.Keyspace.Kind;
import java.util.List;

/**
 * The key spaces these tests open the store with: the engine's names and kinds (its
 * {@code io.stator.engine.keyspace.Keyspaces}, which this module cannot see), so that the
 * tests exercise the column families a server has.
 */
final class TestKeyspaces {

    private TestKeyspaces() {}

    static final Keyspace CATALOG = Keyspace.of("catalog", Kind.ROWS);
    static final Keyspace ITEMS = Keyspace.of("items", Kind.BULK);
    static final Keyspace COUNTERS = Keyspace.of("counters", Kind.COUNTERS);
    static final Keyspace INDEX_QUEUE = Keyspace.of("index-queue", Kind.ROWS);
    static final Keyspace TRANSACTION_TOKENS = Keyspace.of("transaction-tokens", Kind.ROWS);
    static final Keyspace EXPIRIES = Keyspace.of("expiries", Kind.ROWS);
    static final Keyspace STREAM_RECORDS = Keyspace.of("stream-records", Kind.ROWS);
    static final Keyspace STREAMS = Keyspace.of("streams", Kind.ROWS);
    static final Keyspace BACKUPS = Keyspace.of("backups", Kind.ROWS);
    static final Keyspace RECOVERY = Keyspace.of("recovery", Kind.ROWS);

    static final List<Keyspace> ALL = List.of(CATALOG, ITEMS, COUNTERS, INDEX_QUEUE, TRANSACTION_TOKENS, EXPIRIES,
            STREAM_RECORDS, STREAMS, BACKUPS, RECOVERY);
}
