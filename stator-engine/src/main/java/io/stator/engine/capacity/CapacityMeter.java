package io.stator.engine.capacity;

import io.stator.engine.table.IndexDefinition;
import io.stator.engine.table.TableDefinition;
import java.util.List;

/**
 * The one place that decides what operations cost and whether they may run.
 *
 * <p>Prices come from {@link Usage}, by DynamoDB's rules ({@link CapacityUnits}): that is what
 * ReturnConsumedCapacity reports, whether or not throughput is enforced. Admission is the
 * {@link Admission}'s ({@link Throughput}: DynamoDB's buckets per table, index and partition):
 * a read is admitted before its work and debited after (its price is known only then); a write is
 * priced and admitted in one step once the pipeline knows the item before and after, before it
 * commits, so that a refused write changes nothing.
 */
public final class CapacityMeter {

    /**
     * Admission control: refuses by throwing DynamoDB's throttling error. Every method has a
     * default that admits and counts nothing, so that an implementation (a test's) says only
     * what it changes.
     */
    public interface Admission {
        /**
         * Before a read of a table or index ({@code index} null for the table).
         *
         * @param onePartition   the read stays in one partition key (GetItem, Query), whose hash follows
         */
        default void beforeRead(TableDefinition table, IndexDefinition index, boolean onePartition,
                                long partitionHash) {}

        /** After the read: what it consumed. */
        default void afterRead(TableDefinition table, IndexDefinition index, boolean onePartition, long partitionHash,
                               ConsumedCapacity consumed) {}

        /**
         * A write priced, before it commits: the error to throw if it may not run now, else null.
         * Nothing is debited.
         */
        default ThroughputExceededException refusal(TableDefinition table, Usage.Write usage,
                                                    ConsumedCapacity consumed) {
            return null;
        }

        /** A write's units taken (admitted, or refused by its condition, which consumes all the same). */
        default void debitWrite(TableDefinition table, Usage.Write usage, ConsumedCapacity consumed) {}

        /**
         * The writes of one transaction taken as one request (admitted, or cancelled, which consumes
         * all the same): an implementation may sum what they cost each table, index and partition,
         * so that a transaction larger than a second of a partition's ceiling is seen as one
         * request. {@link #debitWrite} for each by default.
         */
        default void debitWrites(List<TableDefinition> tables, List<Usage.Write> usages, ConsumedCapacity[] consumed) {
            for (int i = 0; i < usages.size(); i++) debitWrite(tables.get(i), usages.get(i), consumed[i]);
        }

        /**
         * A single write priced: its refusal returned (nothing debited), or its units debited and
         * null returned; {@link #refusal} then {@link #debitWrite}, which an implementation may do
         * in one pass.
         */
        default ThroughputExceededException admitWrite(TableDefinition table, Usage.Write usage,
                                                       ConsumedCapacity consumed) {
            ThroughputExceededException refused = refusal(table, usage, consumed);
            if (refused == null) debitWrite(table, usage, consumed);
            return refused;
        }

        /**
         * A table created or changed (CreateTable, UpdateTable): its partitions follow its
         * throughput now, not at its next request, so that a decrease does not merge them.
         */
        default void tableChanged(TableDefinition table) {}

        /** A table deleted. */
        default void tableDeleted(TableDefinition table) {}

        /**
         * How many partitions of the table (index null, or a local index) or global index hold
         * hashes in {@code [firstHash, lastHash]} (unsigned): a Scan page pays the minimum for each.
         */
        default int partitionsBetween(TableDefinition table, IndexDefinition index, long firstHash, long lastHash) {
            return 1;
        }

        /**
         * One entry of a global index's backfill: true when its units were taken from the
         * index's write capacity, false when the index has none left now (the backfill waits).
         */
        default boolean backfill(TableDefinition table, IndexDefinition index, double units) {
            return true;
        }

        /** Every operation runs and nothing is counted. */
        Admission ALL = new Admission() {};
    }

    private final Admission admission;
    private final VectorBytes vectorBytes = new VectorBytes();

    /** A meter that admits every operation. */
    public CapacityMeter() {
        this(Admission.ALL);
    }

    public CapacityMeter(Admission admission) {
        this.admission = admission;
    }

    public Admission admission() { return admission; }

    /** The bytes vector indexes were metered (searches and writes). */
    public VectorBytes vectorBytes() { return vectorBytes; }

    public void tableChanged(TableDefinition table) {
        admission.tableChanged(table);
    }

    public void tableDeleted(TableDefinition table) {
        admission.tableDeleted(table);
        vectorBytes.tableDeleted(table.name());
    }

    /** Before a read: returns normally when it may run, else throws the refusal. */
    public void admitRead(TableDefinition table, IndexDefinition index, boolean onePartition, long partitionHash) {
        admission.beforeRead(table, index, onePartition, partitionHash);
    }

    /**
     * After a read: its price, debited. A Scan page is billed at least the minimum (a unit, half
     * when eventually consistent) for every partition its range visited: a Scan of a new table
     * holding one tiny item reports 4.0 and 2.0 on DynamoDB, its 4 partitions' minimums
     * (dynamodb-throughput.md, section 3; an inference from that observation and the developer
     * guide's "and the number of partitions searched").
     */
    public ConsumedCapacity chargeRead(TableDefinition table, IndexDefinition index, boolean onePartition,
                                       long partitionHash, Usage.Read usage) {
        ConsumedCapacity consumed = read(usage);
        if (!onePartition) {
            int visited = admission.partitionsBetween(table, index, usage.firstHash(), usage.lastHash());
            double minimum = visited * CapacityUnits.read(0, usage.consistentRead());
            if (visited > 1) consumed = atLeast(consumed, index, minimum);
        }
        admission.afterRead(table, index, onePartition, partitionHash, consumed);
        return consumed;
    }

    /** A write about to commit: its price, admitted and debited, or the refusal thrown. */
    public ConsumedCapacity admitWrite(TableDefinition table, Usage.Write usage) {
        ConsumedCapacity consumed = write(usage);
        ThroughputExceededException refused = admission.admitWrite(table, usage, consumed);
        if (refused != null) throw refused;
        if (!consumed.vectorIndexBytes().isEmpty()) vectorBytes.written(table.name(), consumed.vectorIndexBytes());
        return consumed;
    }

    /**
     * The writes of a transaction about to commit, admitted together against the throughput as
     * it is before any of them: their prices, or (nothing debited) per write its refusal or null.
     */
    public TransactionAdmission admitWrites(List<TableDefinition> tables, List<Usage.Write> usages) {
        int n = usages.size();
        ConsumedCapacity[] consumed = new ConsumedCapacity[n];
        ThroughputExceededException[] refusals = null;
        for (int i = 0; i < n; i++) {
            consumed[i] = write(usages.get(i));
            ThroughputExceededException refused = admission.refusal(tables.get(i), usages.get(i), consumed[i]);
            if (refused != null) {
                if (refusals == null) refusals = new ThroughputExceededException[n];
                refusals[i] = refused;
            }
        }
        if (refusals == null) {
            admission.debitWrites(tables, usages, consumed);
            for (int i = 0; i < n; i++) {
                if (!consumed[i].vectorIndexBytes().isEmpty()) {
                    vectorBytes.written(tables.get(i).name(), consumed[i].vectorIndexBytes());
                }
            }
        }
        return new TransactionAdmission(consumed, refusals);
    }

    /** @param refusals null when every write was admitted (and debited), else per write its refusal or null */
    public record TransactionAdmission(ConsumedCapacity[] consumed, ThroughputExceededException[] refusals) {}

    /** A write that did not commit but consumed all the same (its condition failed): debited. */
    public void chargeUncommitted(TableDefinition table, Usage.Write usage) {
        admission.debitWrite(table, usage, write(usage));
    }

    /**
     * A change another region made to a global table, applied here: debited as replicated write
     * units (DynamoDB charges every write again in every replica's region), never refused.
     */
    public void chargeReplicated(TableDefinition table, Usage.Write usage) {
        admission.debitWrite(table, usage, write(usage));
    }

    /** The writes of a cancelled transaction, which consume all the same: debited as one request. */
    public void chargeUncommitted(List<TableDefinition> tables, List<Usage.Write> usages) {
        ConsumedCapacity[] consumed = new ConsumedCapacity[usages.size()];
        for (int i = 0; i < consumed.length; i++) consumed[i] = write(usages.get(i));
        admission.debitWrites(tables, usages, consumed);
    }

    /** The read's units raised to a minimum on the arm it read (the table's, or the index's). */
    private static ConsumedCapacity atLeast(ConsumedCapacity consumed, IndexDefinition index, double minimum) {
        if (index == null) {
            return consumed.tableUnits() >= minimum ? consumed
                    : new ConsumedCapacity(minimum, consumed.globalIndexUnits(), consumed.localIndexUnits(),
                            consumed.vectorIndexBytes());
        }
        Double read = (index.global() ? consumed.globalIndexUnits() : consumed.localIndexUnits()).get(index.name());
        if (read != null && read >= minimum) return consumed;
        ConsumedCapacity.Builder b = new ConsumedCapacity.Builder().table(consumed.tableUnits());
        consumed.globalIndexUnits().forEach((n, u) -> b.index(n, true, n.equals(index.name()) && index.global() ? minimum : u));
        consumed.localIndexUnits().forEach((n, u) -> b.index(n, false, n.equals(index.name()) && !index.global() ? minimum : u));
        if (read == null) b.index(index.name(), index.global(), minimum);
        return b.build();
    }

    /**
     * One entry copied by a global index's backfill, which consumes the index's write capacity
     * (OnlineIndexConsumedWriteCapacity, developer guide) and is throttled by it: false when the
     * index has none left now.
     */
    public boolean backfill(TableDefinition table, IndexDefinition index, long entryBytes) {
        return admission.backfill(table, index, CapacityUnits.indexWrite(-1, entryBytes));
    }

    /** What the work described costs, by table and index (nothing is debited). */
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
        long vectorBytes = 0;
        String firstVector = null;
        for (Usage.IndexWrite i : w.indexes()) {
            if (i.vector()) {
                long bytes = Math.max(i.writtenBytes(), i.removedBytes());
                consumed.vectorIndex(i.indexName(), bytes);
                vectorBytes += bytes;
                if (firstVector == null || i.indexName().compareTo(firstVector) < 0) firstVector = i.indexName();
            } else {
                consumed.index(i.indexName(), i.global(), CapacityUnits.indexWrite(i.removedBytes(), i.writtenBytes()));
            }
        }
        // Vector writes are metered at 1 KB at least per request, not per index (developer guide,
        // VectorSearchMonitoring); the shortfall is shown on the index named first
        // (docs/dynamodb/vector-search.md §11 U20).
        if (firstVector != null && vectorBytes < CapacityUnits.VECTOR_MINIMUM_BYTES) {
            consumed.vectorIndex(firstVector, CapacityUnits.VECTOR_MINIMUM_BYTES - vectorBytes);
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
