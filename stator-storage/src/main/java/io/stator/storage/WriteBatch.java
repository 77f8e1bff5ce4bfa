package io.stator.storage;

/** Puts and deletes to be committed together by {@link Storage#commit}. Not thread-safe. */
public interface WriteBatch extends AutoCloseable {

    void put(Keyspace keyspace, byte[] key, byte[] value);

    void delete(Keyspace keyspace, byte[] key);

    /**
     * Adds {@code delta} to the counter stored under the key (an absent counter counts as 0).
     * Adds commute: concurrent batches adding to one counter never lose an add, and no lock is
     * needed. A counter's value reads back through {@link Storage#get} as 8 bytes, little-endian,
     * two's complement ({@link Counters#decode}).
     */
    void addToCounter(Keyspace keyspace, byte[] key, long delta);

    /**
     * Makes the commit conditional on the row still holding {@code value} (null: the row is
     * absent), as the engine read it: the commit then applies nothing and throws
     * {@link CommitLostException} if some expectation does not hold. A backend that only one
     * server uses may leave expectations unchecked, since the engine's item locks already hold
     * every row it expects.
     */
    void expect(Keyspace keyspace, byte[] key, byte[] value);

    /** Number of operations added so far. */
    int size();

    /** Releases the batch's resources; a batch is closed after it was committed or abandoned. */
    @Override
    void close();
}
