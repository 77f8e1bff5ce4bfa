package io.stator.storage.rocksdb;

import org.rocksdb.RocksDBException;
import org.rocksdb.Status;

/**
 * A failure of the storage backend: a data directory that cannot be opened or is locked, an
 * error reading, a RocksDB error that is no storage fault, or use of a store that was closed.
 * (A write that fails because the storage cannot write, a full disk above all, throws the
 * contract's {@link io.stator.storage.StorageFaultException} instead.) The message is one line,
 * fit to be printed as the reason a command failed; for errors reported by RocksDB it carries
 * RocksDB's status message, and the original {@link org.rocksdb.RocksDBException} is the cause.
 */
public class StorageException extends RuntimeException {

    public StorageException(String message) {
        super(message);
    }

    public StorageException(String message, Throwable cause) {
        super(message, cause);
    }

    static StorageException failure(String what, RocksDBException e) {
        return new StorageException("RocksDB " + what + " failed: " + describe(e), e);
    }

    /** RocksDB's status, e.g. "IOError: While open a file for appending: ...: No space left on device". */
    static String describe(RocksDBException e) {
        Status status = e.getStatus();
        String message = e.getMessage() == null ? "" : e.getMessage();
        if (status == null || status.getCode() == null) {
            return message;
        }
        return status.getCode() + ": " + message;
    }
}
