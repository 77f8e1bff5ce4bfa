package io.stator.engine.cluster;

import io.stator.storage.CollectionStore;
import io.stator.storage.RowKeyFraming;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

/**
 * Loses the next {@code toLose} commits of the rows it is told, as if another server had won
 * them, or a timeout had been decided as not applied.
 */
final class LosingStore extends ForwardingStore {
    final AtomicInteger toLose = new AtomicInteger();
    private final Predicate<byte[]> losing;

    /** @param losing which commits may be lost, by the row key of one of their rows */
    LosingStore(CollectionStore store, Predicate<byte[]> losing) {
        super(store);
        this.losing = losing;
    }

    /** Item rows: the tables the catalog made (the reserved collections' tables are far above). */
    static boolean itemRow(byte[] rowKey) {
        return RowKeyFraming.tableId(rowKey) < 1_000;
    }

    @Override
    public boolean commit(List<Expected> expected, List<Change> changes) {
        byte[] any = !changes.isEmpty() ? changes.get(0).rowKey() : expected.get(0).rowKey();
        if (losing.test(any) && toLose.getAndUpdate(n -> Math.max(0, n - 1)) > 0) return false;
        return store.commit(expected, changes);
    }
}
