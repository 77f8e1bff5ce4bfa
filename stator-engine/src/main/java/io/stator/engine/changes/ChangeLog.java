package io.stator.engine.changes;

import io.stator.engine.table.TableDefinition;
import io.stator.storage.WriteBatch;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Where the write pipeline hands every item change, inside the change's own atomic batch: each
 * {@link Consumer} may add rows of its own to the batch (a stream's records, a point-in-time
 * recovery log), so that nothing is committed without its records and no record without its
 * change, whatever crashes when.
 *
 * <p>Consumers register rarely (staging reads the list without a lock), and only while they
 * need changes: with none registered, the pipeline builds no records at all. Time to Live's
 * expiry index is one, registered while some table has Time to Live; DynamoDB Streams' records
 * ({@code io.stator.engine.streams}) another, registered while some table has a stream.
 */
public final class ChangeLog {

    /** Takes the changes it keeps, in the batch that commits them. Called with the item held. */
    @FunctionalInterface
    public interface Consumer {
        void stage(WriteBatch batch, ChangeRecord change);

        /**
         * The batch it staged into is committed, or abandoned: called once per batch, after
         * the commit, whether it succeeded or threw (a stream's sequence numbers stop being in
         * flight).
         *
         * @param committed whether the commit returned; false when it threw (on shared storage,
         *                  its outcome may then be unknown to this server)
         */
        default void settle(WriteBatch batch, boolean committed) { }

        /**
         * Whether it keeps changes of this table (a stream's, a backup's being made): a write
         * that reads nothing before writing (write isolation only_rmw_uses_lwt) is a plain write
         * only where no consumer needs its old item or its place among the item's changes.
         */
        default boolean wants(TableDefinition table) {
            return true;
        }
    }

    private final List<Consumer> consumers = new CopyOnWriteArrayList<>();

    public void register(Consumer consumer) {
        consumers.add(consumer);
    }

    public void unregister(Consumer consumer) {
        consumers.remove(consumer);
    }

    /** True when some consumer wants changes: the pipeline builds no records otherwise. */
    public boolean wanted() {
        return !consumers.isEmpty();
    }

    /** True when some consumer keeps changes of this table ({@link Consumer#wants}). */
    public boolean wants(TableDefinition table) {
        for (Consumer c : consumers) if (c.wants(table)) return true;
        return false;
    }

    /** Tells every consumer that the batch is committed or abandoned (see {@link Consumer#settle}). */
    public void settle(WriteBatch batch, boolean committed) {
        for (Consumer c : consumers) c.settle(batch, committed);
    }

    /** Hands one change to every consumer, in the batch that will commit it. */
    public void stage(WriteBatch batch, ChangeRecord change) {
        for (Consumer c : consumers) c.stage(batch, change);
    }
}
