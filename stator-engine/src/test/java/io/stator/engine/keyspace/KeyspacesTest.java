package io.stator.engine.keyspace;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.stator.storage.Keyspace;
import io.stator.storage.rocksdb.RocksStorage;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.DBOptions;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;

/**
 * The engine's key spaces are stored under the names the storage's enum of key spaces gave them
 * before the engine declared its own: a data directory written then opens unchanged.
 */
class KeyspacesTest {

    /** The column families a data directory of the former code holds (its Keyspace enum's names). */
    private static final List<String> FORMER_NAMES = List.of("catalog", "items", "counters", "index-queue",
            "transaction-tokens", "expiries", "stream-records", "streams", "backups", "recovery");

    /** Key spaces added since, at the end (a data directory without them gains them when opened). */
    private static final List<String> ADDED_NAMES = List.of("item-versions", "replication-log", "kinesis-outbox");

    @TempDir
    Path tmp;

    @Test
    void theKeyspacesKeepTheirStoredNamesAndOrder() {
        List<String> names = new java.util.ArrayList<>(FORMER_NAMES);
        names.addAll(ADDED_NAMES);
        assertEquals(names, Keyspaces.ALL.stream().map(Keyspace::storedName).toList());
    }

    @Test
    void aDataDirectoryWrittenUnderTheStoredNamesOpensWithItsRows() throws Exception {
        Path dir = tmp.resolve("data");
        // Written with RocksDB alone, under the former names: one row in each key space.
        List<ColumnFamilyDescriptor> descriptors = new ArrayList<>();
        descriptors.add(new ColumnFamilyDescriptor(RocksDB.DEFAULT_COLUMN_FAMILY));
        for (String name : FORMER_NAMES) descriptors.add(new ColumnFamilyDescriptor(bytes(name)));
        List<ColumnFamilyHandle> handles = new ArrayList<>();
        try (DBOptions options = new DBOptions().setCreateIfMissing(true).setCreateMissingColumnFamilies(true);
             RocksDB db = RocksDB.open(options, dir.toString(), descriptors, handles)) {
            for (int i = 0; i < FORMER_NAMES.size(); i++) {
                db.put(handles.get(i + 1), bytes("key"), bytes("row of " + FORMER_NAMES.get(i)));
            }
            handles.forEach(ColumnFamilyHandle::close);
        }

        try (RocksStorage storage = RocksStorage.open(dir, Keyspaces.ALL)) {
            for (Keyspace keyspace : Keyspaces.ALL) {
                if (ADDED_NAMES.contains(keyspace.storedName())) {
                    assertNull(storage.get(keyspace, bytes("key")), keyspace.storedName());
                    continue;
                }
                assertArrayEquals(bytes("row of " + keyspace.storedName()), storage.get(keyspace, bytes("key")),
                        keyspace.storedName());
            }
        }
        Set<String> families = new TreeSet<>();
        try (Options options = new Options()) {
            for (byte[] name : RocksDB.listColumnFamilies(options, dir.toString())) {
                families.add(new String(name, StandardCharsets.UTF_8));
            }
        }
        Set<String> expected = new TreeSet<>(FORMER_NAMES);
        expected.addAll(ADDED_NAMES);
        expected.add("default");
        assertEquals(expected, families, "no family renamed; the added ones made");
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
