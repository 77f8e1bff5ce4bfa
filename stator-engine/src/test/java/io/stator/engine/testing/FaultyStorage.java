package io.stator.engine.testing;

import io.stator.storage.Cursor;
import io.stator.storage.Keyspace;
import io.stator.storage.Snapshot;
import io.stator.storage.Storage;
import io.stator.storage.StorageFaultException;
import io.stator.storage.WriteBatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

/**
 * A storage that fails writes as a full disk does, when told to: commits and range deletes
 * throw {@link StorageFaultException} and write nothing, reads go on. The fault can be limited
 * to some threads (the index propagator's, say) and start after a number of commits.
 */
public final class FaultyStorage implements Storage {

    private final Storage storage;
    private volatile Predicate<Thread> faulty = thread -> false;
    private final AtomicInteger commitsBeforeFault = new AtomicInteger();
    private final AtomicInteger refused = new AtomicInteger();

    public FaultyStorage(Storage storage) {
        this.storage = storage;
    }

    /** Writes from the threads {@code faulty} accepts fail, once {@code after} more commits went through. */
    public void fail(Predicate<Thread> faulty, int after) {
        commitsBeforeFault.set(after);
        this.faulty = faulty;
    }

    /** Every write fails from now on. */
    public void fail() {
        fail(thread -> true, 0);
    }

    /** The fault is over. */
    public void heal() {
        faulty = thread -> false;
    }

    /** How many writes failed so far. */
    public int refused() {
        return refused.get();
    }

    private void check() {
        if (faulty.test(Thread.currentThread()) && commitsBeforeFault.getAndUpdate(n -> Math.max(0, n - 1)) == 0) {
            refused.incrementAndGet();
            throw new StorageFaultException(StorageFaultException.Kind.OUT_OF_SPACE,
                    "injected: No space left on device", null);
        }
    }

    @Override
    public void commit(WriteBatch batch) {
        check();
        storage.commit(batch);
    }

    @Override
    public void deleteRange(Keyspace keyspace, byte[] fromInclusive, byte[] toExclusive) {
        check();
        storage.deleteRange(keyspace, fromInclusive, toExclusive);
    }

    @Override
    public byte[] get(Keyspace keyspace, byte[] key) {
        return storage.get(keyspace, key);
    }

    @Override
    public byte[] get(Snapshot snapshot, Keyspace keyspace, byte[] key) {
        return storage.get(snapshot, keyspace, key);
    }

    @Override
    public Snapshot snapshot() {
        return storage.snapshot();
    }

    @Override
    public Cursor range(Snapshot snapshot, Keyspace keyspace, byte[] fromInclusive, byte[] toExclusive,
                        boolean reverse) {
        return storage.range(snapshot, keyspace, fromInclusive, toExclusive, reverse);
    }

    @Override
    public WriteBatch newBatch() {
        return storage.newBatch();
    }

    @Override
    public void close() {
        storage.close();
    }
}
