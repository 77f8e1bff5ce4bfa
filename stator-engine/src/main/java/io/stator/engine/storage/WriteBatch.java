package io.stator.engine.storage;

/** Puts and deletes to be committed together by {@link Storage#commit}. Not thread-safe. */
public interface WriteBatch extends AutoCloseable {

    void put(Keyspace keyspace, byte[] key, byte[] value);

    void delete(Keyspace keyspace, byte[] key);

    /** Number of operations added so far. */
    int size();

    /** Releases the batch's resources; a batch is closed after it was committed or abandoned. */
    @Override
    void close();
}
