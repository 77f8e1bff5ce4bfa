package io.stator.storage.rocksdb;

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
}
