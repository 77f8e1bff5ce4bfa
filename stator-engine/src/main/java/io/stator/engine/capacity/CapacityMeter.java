package io.stator.engine.capacity;

import io.stator.engine.table.TableDefinition;

/**
 * The one place that decides what operations cost and whether they may run.
 *
 * <p>Every operation meets the meter twice. Before its work, {@link #admit}: may it run now?
 * After, {@link #charge}: what it consumed, computed from its {@link Usage} by DynamoDB's rules
 * ({@link CapacityUnits}), which is what ReturnConsumedCapacity reports. Reporting is the same
 * whether or not throughput is enforced.
 *
 * <p>Today every operation is admitted: Stator does not throttle yet. Admission control (token
 * buckets per table, index and partition, burst and adaptive capacity, on-demand limits; see
 * ../shared/reference/dynamodb-throughput.md) goes into {@link #admit}, and debiting the buckets
 * into {@link #charge}, without touching any operation.
 */
public final class CapacityMeter {

    /** What an operation is about to do to a table. */
    public enum Access { READ, WRITE }

    /**
     * Decides whether an operation may run. Returns normally when it may; refusing throws
     * DynamoDB's error (ProvisionedThroughputExceededException, ThrottlingException, ...).
     */
    @FunctionalInterface
    public interface Admission {
        void admit(TableDefinition table, Access access);

        /** Every operation runs: no throughput is enforced. */
        Admission ALL = (table, access) -> { };
    }

    private final Admission admission;

    /** A meter that admits every operation (today's Stator: nothing is throttled). */
    public CapacityMeter() {
        this(Admission.ALL);
    }

    public CapacityMeter(Admission admission) {
        this.admission = admission;
    }

    /**
     * Called before an operation's work on a table: returns normally when it may run, or throws
     * the refusal before anything was read or written.
     */
    public void admit(TableDefinition table, Access access) {
        admission.admit(table, access);
    }

    /** What the work described consumed, by table and index. */
    public ConsumedCapacity charge(Usage usage) {
        return switch (usage) {
            case Usage.Write w -> write(w);
            case Usage.Read r -> read(r);
        };
    }

    private static ConsumedCapacity write(Usage.Write w) {
        double tableUnits = CapacityUnits.write(w.oldItemBytes(), w.newItemBytes());
        if (w.transactional()) tableUnits *= 2;
        if (w.indexes().isEmpty()) return ConsumedCapacity.ofTable(tableUnits);
        ConsumedCapacity.Builder consumed = new ConsumedCapacity.Builder().table(tableUnits);
        for (Usage.IndexWrite i : w.indexes()) {
            consumed.index(i.indexName(), i.global(), CapacityUnits.indexWrite(i.removedBytes(), i.writtenBytes()));
        }
        return consumed.build();
    }

    private static ConsumedCapacity read(Usage.Read r) {
        double multiplier = r.transactional() ? 2 : 1;
        if (r.index() == null) {
            return ConsumedCapacity.ofTable(multiplier * CapacityUnits.read(r.bytesRead(), r.consistentRead()));
        }
        // Entries are billed to the index; items fetched for them, to the table (summed).
        return new ConsumedCapacity.Builder()
                .table(r.bytesFetched() > 0 ? multiplier * CapacityUnits.read(r.bytesFetched(), r.consistentRead()) : 0)
                .index(r.index().name(), r.index().global(), multiplier * CapacityUnits.read(r.bytesRead(), r.consistentRead()))
                .build();
    }
}
