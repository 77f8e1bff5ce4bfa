package io.stator.storage.rocksdb;

import org.rocksdb.RocksDBException;
import org.rocksdb.Status;

/**
 * A failure of the storage backend: an I/O error, corruption, a locked data directory, or use of
 * a store that was closed. The message is one line, fit to be printed as the reason a command
 * failed; for errors reported by RocksDB it carries RocksDB's status message, and the original
 * {@link org.rocksdb.RocksDBException} is the cause.
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
