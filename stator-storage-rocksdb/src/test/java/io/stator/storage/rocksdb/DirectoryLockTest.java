package io.stator.storage.rocksdb;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stator.storage.Keyspace;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** A data directory held by another process gives a one-line reason; a dead holder does not. */
class DirectoryLockTest {

    @TempDir
    Path tmp;

    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void directoryHeldByAnotherProcessIsAClearError() throws Exception {
        Path data = tmp.resolve("data");
        try (ChildProcess child = ChildProcess.start(tmp.resolve("child-stderr.txt"), "hold", data.toString())) {
            child.awaitLine("ready;", 60);

            StorageException e = assertThrows(StorageException.class, () -> RocksStorage.open(data, TestKeyspaces.ALL));
            String message = e.getMessage();
            assertTrue(message.startsWith("data directory " + data.toAbsolutePath() + " is in use by another process"),
                    message);
            assertFalse(message.contains("\n"), "one line: " + message);

            child.killHard();
        }
        // The OS drops the lock with the process: a kill -9 leaves no stale lock behind.
        try (RocksStorage storage = RocksStorage.open(data, TestKeyspaces.ALL)) {
            assertArrayEquals(StorageChild.bytes("by child"), storage.get(TestKeyspaces.ITEMS, StorageChild.bytes("held")));
        }
    }

    @Test
    void directoryOpenTwiceInThisProcessIsAClearError() {
        Path data = tmp.resolve("data");
        try (RocksStorage first = RocksStorage.open(data, TestKeyspaces.ALL)) {
            StorageException e = assertThrows(StorageException.class, () -> RocksStorage.open(data, TestKeyspaces.ALL));
            assertTrue(e.getMessage().startsWith("data directory " + data.toAbsolutePath() + " is already open in this process"),
                    e.getMessage());
            first.get(TestKeyspaces.ITEMS, new byte[] {1}); // the first one is unharmed
        }
        RocksStorage.open(data, TestKeyspaces.ALL).close(); // and the failed attempt left nothing locked
    }
}
