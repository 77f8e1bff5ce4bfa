package io.stator.storage.rocksdb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stator.storage.StorageFaultException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.RocksDBException;
import org.rocksdb.Status;

/**
 * How a failed write is answered and reported, for the errors a small disk cannot produce (an
 * I/O error that is no full disk) and the races a test on a real disk cannot time: RocksDB's
 * errors are made here, and RocksDB's recovery is the listener's callback called by hand.
 */
class WriteFaultsTest {

    static {
        RocksStorage.builder(Path.of("unused"), TestKeyspaces.ALL); // loads RocksDB's native library (the listener is native)
    }

    @TempDir
    Path tmp;

    private final List<String> log = new ArrayList<>();
    private WriteFaults faults;

    @BeforeEach
    void create() {
        faults = new WriteFaults(tmp, 32L << 20, log::add);
    }

    @AfterEach
    void close() {
        faults.close();
    }

    @Test
    void aFullDiskIsOneFaultLoggedOnceWithWhatHealsIt() {
        Status noSpace = new Status(Status.Code.IOError, Status.SubCode.NoSpace,
                "While appending to file: /data/000004.log: No space left on device");
        for (int i = 0; i < 3; i++) {
            StorageFaultException e = fault(faults.writeFailed("commit", new RocksDBException(noSpace)));
            assertEquals(StorageFaultException.Kind.OUT_OF_SPACE, e.kind());
            assertTrue(e.getMessage().contains("No space left on device"), e.getMessage());
        }
        assertEquals(1, log.size(), () -> "logged: " + log);
        assertTrue(log.get(0).contains("IOError(NoSpace): While appending to file: /data/000004.log: No space left on device"),
                log.get(0));
        assertTrue(log.get(0).contains("once at least 32 MB are free"), log.get(0));
        assertTrue(faults.refusingWrites());

        faults.onErrorRecoveryCompleted(noSpace);
        assertFalse(faults.refusingWrites());
        assertEquals(2, log.size(), () -> "logged: " + log);
        assertTrue(log.get(1).contains("writes resumed"), log.get(1));

        // A write refused just before the recovery, whose caller sees it only now: no new fault.
        fault(faults.writeFailed("commit", new RocksDBException(noSpace)));
        assertEquals(2, log.size(), () -> "logged: " + log);
        assertFalse(faults.refusingWrites());
    }

    @Test
    void anotherIoErrorIsAFailedWriteThatMayNeedARestart() {
        Status io = new Status(Status.Code.IOError, Status.SubCode.None,
                "While appending to file: /data/000004.log: Input/output error");
        StorageFaultException e = fault(faults.writeFailed("commit", new RocksDBException(io)));
        assertEquals(StorageFaultException.Kind.WRITE_FAILED, e.kind());
        assertEquals(1, log.size(), () -> "logged: " + log);
        assertTrue(log.get(0).contains("Input/output error"), log.get(0));
        assertTrue(log.get(0).contains("restart the server"), log.get(0));
    }

    @Test
    void rocksDbsSpaceCapIsAFullDisk() {
        Status cap = new Status(Status.Code.IOError, Status.SubCode.Undefined, "Max allowed space was reached");
        assertEquals(StorageFaultException.Kind.OUT_OF_SPACE,
                fault(faults.writeFailed("commit", new RocksDBException(cap))).kind());
    }

    @Test
    void otherRocksDbErrorsAreNoFaults() {
        Status invalid = new Status(Status.Code.InvalidArgument, Status.SubCode.None, "Invalid column family");
        RuntimeException e = faults.writeFailed("commit", new RocksDBException(invalid));
        assertInstanceOf(StorageException.class, e);
        assertEquals(List.of(), log);
        assertFalse(faults.refusingWrites());
    }

    @Test
    void whatRocksDbReportsWhileClosingIsNoRecovery() {
        Status noSpace = new Status(Status.Code.IOError, Status.SubCode.NoSpace, "No space left on device");
        fault(faults.writeFailed("commit", new RocksDBException(noSpace)));
        faults.closing();
        faults.onErrorRecoveryCompleted(noSpace);
        assertEquals(1, log.size(), () -> "logged: " + log);
    }

    private static StorageFaultException fault(RuntimeException e) {
        return assertInstanceOf(StorageFaultException.class, e);
    }
}
