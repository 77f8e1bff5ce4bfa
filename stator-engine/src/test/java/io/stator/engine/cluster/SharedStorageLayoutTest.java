package io.stator.engine.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.stator.engine.keyspace.Keyspaces;
import org.junit.jupiter.api.Test;

/**
 * The shared store's reserved tables are numbered as they were when the storage enumerated the
 * key spaces (by the enum's ordinal): a keyspace of Cassandra written then reads the same tables.
 */
class SharedStorageLayoutTest {

    @Test
    void eachKeyspacesReservedTableKeepsItsNumber() {
        long below = CasTransactions.RECORDS - 1;
        assertEquals(below, SharedStorage.metaTable(Keyspaces.CATALOG));
        assertEquals(below - 2, SharedStorage.metaTable(Keyspaces.COUNTERS));
        assertEquals(below - 4, SharedStorage.metaTable(Keyspaces.TRANSACTION_TOKENS));
        assertEquals(below - 5, SharedStorage.metaTable(Keyspaces.EXPIRIES));
        assertEquals(below - 6, SharedStorage.metaTable(Keyspaces.STREAM_RECORDS));
        assertEquals(below - 7, SharedStorage.metaTable(Keyspaces.STREAMS));
    }
}
