package io.stator.storage.rocksdb;

import io.stator.storage.Keyspace;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.DBOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;

/**
 * A RocksDB database as opened, with the handles of its column families: read-write, or
 * read-only when its disk was full at start (see {@link ReadOnlyStart}).
 *
 * @param byKeyspace the handles of the keyspaces opened, by {@link Keyspace#index()} (null: not opened)
 * @param all        every open column family handle, including families this version does not know
 */
record OpenDatabase(RocksDB db, ColumnFamilyHandle[] byKeyspace, List<ColumnFamilyHandle> all, boolean readOnly) {

    /** How to open one data directory's database: its path, options and column families. */
    record Opener(String path, DBOptions options, List<ColumnFamilyDescriptor> descriptors, List<Keyspace> keyspaces) {

        /**
         * Opens the database read-write: creates it and its missing families, replays its
         * write-ahead log and writes what recovery writes (a manifest, table files, a new log).
         */
        OpenDatabase readWrite() throws RocksDBException {
            List<ColumnFamilyHandle> handles = new ArrayList<>();
            RocksDB db = RocksDB.open(options, path, descriptors, handles);
            return new OpenDatabase(db, byKeyspace(handles), List.copyOf(handles), false);
        }

        /**
         * Opens the database read-only: it replays its write-ahead log into memory and writes
         * nothing, so it opens on a full disk; every family must already exist.
         */
        OpenDatabase readOnly() throws RocksDBException {
            List<ColumnFamilyHandle> handles = new ArrayList<>();
            RocksDB db = RocksDB.openReadOnly(options, path, descriptors, handles);
            return new OpenDatabase(db, byKeyspace(handles), List.copyOf(handles), true);
        }

        private ColumnFamilyHandle[] byKeyspace(List<ColumnFamilyHandle> handles) {
            int size = 0;
            for (Keyspace keyspace : keyspaces) size = Math.max(size, keyspace.index() + 1);
            ColumnFamilyHandle[] byKeyspace = new ColumnFamilyHandle[size];
            for (Keyspace keyspace : keyspaces) {
                byte[] name = keyspace.storedName().getBytes(StandardCharsets.UTF_8);
                for (int i = 0; i < descriptors.size(); i++) {
                    if (Arrays.equals(descriptors.get(i).getName(), name)) {
                        byKeyspace[keyspace.index()] = handles.get(i);
                    }
                }
            }
            return byKeyspace;
        }
    }

    ColumnFamilyHandle handle(Keyspace keyspace) {
        int index = Objects.requireNonNull(keyspace, "keyspace").index();
        ColumnFamilyHandle handle = index < byKeyspace.length ? byKeyspace[index] : null;
        if (handle == null) {
            throw new IllegalArgumentException("key space " + keyspace + " was not opened with this store");
        }
        return handle;
    }

    /** Closes the handles, then the database; RocksDB's error at close is thrown. */
    void close() throws RocksDBException {
        for (ColumnFamilyHandle handle : all) {
            handle.close();
        }
        db.closeE();
    }

    /** As {@link #close}, for a failure path: an error at close is added to {@code into}. */
    void closeQuietly(Throwable into) {
        try {
            close();
        } catch (RocksDBException | RuntimeException e) {
            into.addSuppressed(e);
        }
    }
}
