package io.stator.engine.capacity;

import io.stator.core.error.ErrorType;
import io.stator.engine.capacity.ThroughputExceededException.Reason;
import io.stator.engine.table.IndexDefinition;
import io.stator.engine.table.TableArns;
import io.stator.engine.table.TableDefinition;
import java.time.Clock;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.concurrent.ConcurrentHashMap;

/**
 * DynamoDB's admission control: whether a read or a write may run now, given the throughput of
 * its table, of the global secondary indexes it writes, and of the partitions it touches (see
 * docs/dynamodb/throughput.md for the model and every choice made where DynamoDB does not say).
 *
 * <p>A request is admitted while the buckets it draws on hold anything: its table (or the global
 * index it reads), each global index it writes, and the partition it reads or writes in each. It
 * then takes its units, possibly into debt, which throttles the requests that follow: one request
 * may cost more than a bucket holds (a 4 MB transaction, a 400 KB item on a table of 1 WCU) and
 * still run once, as a single large request does on DynamoDB (whether DynamoDB lets a request drive
 * a bucket negative is not documented: dynamodb-throughput.md, section 8). What a request costs a
 * partition (or an on-demand table) beyond one second of its rate comes from burst, its banked
 * unused capacity, while there is any ({@link TokenBucket}): a large transaction leaves no debt
 * that throttles what follows, and a transaction's writes are summed per bucket
 * ({@link #debitWrites}) so that it is seen as the one request it is. A write is priced before it
 * commits (the pipeline knows the item before and after), a read after it read. A refused request
 * takes nothing and changes nothing. Local indexes draw on the table, as on DynamoDB.
 *
 * <p>In {@link ThroughputSettings.Mode#REPORT} mode (the server's, or a table's through its
 * {@value ThroughputSettings#MODE_TAG} tag) the same accounting runs and nothing is refused.
 */
public final class Throughput implements CapacityMeter.Admission {

    private final Clock clock;
    private final ThroughputSettings settings;
    private final TableArns arns;
    private final ConcurrentHashMap<Long, TableThroughput> tables = new ConcurrentHashMap<>();
    private final Stored stored;
    /** Told of each split of a table's partitions (DynamoDB Streams' shards follow them). */
    private volatile BiConsumer<TableDefinition, long[]> tableSplits = (table, starts) -> { };

    /**
     * What the model reads from and keeps in storage: the size of a table (index null) or of one
     * of its global indexes, and their partitions (so that a restart does not merge them).
     */
    public interface Stored {
        long bytes(TableDefinition table, IndexDefinition index);

        default long[] partitionStarts(TableDefinition table, IndexDefinition index) {
            return new long[0];
        }

        default void savePartitionStarts(TableDefinition table, IndexDefinition index, long[] starts) {}

        Stored NOTHING = (table, index) -> 0;
    }

    /** Tells {@code listener} the table's partitions (their first hashes) after each split of them. */
    public void onTableSplit(BiConsumer<TableDefinition, long[]> listener) {
        this.tableSplits = listener;
    }

    public Throughput(Clock clock, ThroughputSettings settings, TableArns arns) {
        this(clock, settings, arns, Stored.NOTHING);
    }

    /** @param stored sizes (that split partitions past {@link ThroughputSettings#partitionBytes}) and kept partitions */
    public Throughput(Clock clock, ThroughputSettings settings, TableArns arns, Stored stored) {
        this.clock = clock;
        this.settings = settings;
        this.arns = arns;
        this.stored = stored;
    }

    /** One table's resources, as configured from the last definition seen. */
    private final class TableThroughput {
        volatile TableDefinition seen;
        volatile long sizeCheckedMillis;
        volatile boolean enforced;
        final ResourceThroughput table;
        final Map<Integer, ResourceThroughput> globalIndexes = new ConcurrentHashMap<>();

        TableThroughput(TableDefinition definition, long now) {
            table = new ResourceThroughput(arns.tableArn(definition.name()), false, shape(definition, null),
                    settings.tableQuotaUnits(), now, stored.partitionStarts(definition, null),
                    starts -> {
                        stored.savePartitionStarts(definition, null, starts);
                        tableSplits.accept(definition, starts);
                    });
            follow(definition, now);
        }

        /** Brings the limits up to a definition (a new instance after every UpdateTable). */
        synchronized void follow(TableDefinition definition, long now) {
            if (seen == definition) return;
            String tag = definition.tags() == null ? null : definition.tags().get(ThroughputSettings.MODE_TAG);
            ThroughputSettings.Mode mode = settings.mode();
            if (tag != null) {
                try {
                    mode = ThroughputSettings.Mode.parse(tag);
                } catch (IllegalArgumentException ignored) {
                    // another value leaves the server's mode
                }
            }
            enforced = mode == ThroughputSettings.Mode.ENFORCE;
            ResourceThroughput.Shape s = shape(definition, null);
            if (!s.equals(table.shape())) table.reshape(s, settings.tableQuotaUnits(), now);
            for (IndexDefinition index : definition.globalIndexes()) {
                ResourceThroughput.Shape is = shape(definition, index);
                ResourceThroughput r = globalIndexes.get(index.id());
                if (r == null) {
                    globalIndexes.put(index.id(), new ResourceThroughput(
                            arns.tableArn(definition.name()) + "/index/" + index.name(), true, is,
                            settings.tableQuotaUnits(), now, stored.partitionStarts(definition, index),
                            starts -> stored.savePartitionStarts(definition, index, starts)));
                } else if (!is.equals(r.shape())) {
                    r.reshape(is, settings.tableQuotaUnits(), now);
                }
            }
            if (globalIndexes.size() > definition.globalIndexes().size()) {
                globalIndexes.keySet().removeIf(id -> definition.indexById(id) == null);
            }
            seen = definition;
        }
    }

    private static ResourceThroughput.Shape shape(TableDefinition table, IndexDefinition index) {
        boolean onDemand = table.billingMode() == TableDefinition.BillingMode.PAY_PER_REQUEST;
        TableDefinition.ProvisionedThroughput p = index == null ? table.throughput() : index.throughput();
        TableDefinition.OnDemandThroughput max = index == null ? table.onDemandThroughput() : index.onDemandThroughput();
        TableDefinition.WarmThroughput warm = TableDefinition.WarmThroughput.ON_DEMAND_BASELINE;
        TableDefinition.WarmThroughput set = index == null ? table.warmThroughput() : index.warmThroughput();
        if (set != null) warm = warm.max(set);
        if (p != null) warm = warm.max(new TableDefinition.WarmThroughput(p.readCapacityUnits(), p.writeCapacityUnits()));
        return new ResourceThroughput.Shape(onDemand, p == null ? 0 : p.readCapacityUnits(),
                p == null ? 0 : p.writeCapacityUnits(), max == null ? -1 : max.maxReadRequestUnits(),
                max == null ? -1 : max.maxWriteRequestUnits(), warm.readUnitsPerSecond(), warm.writeUnitsPerSecond());
    }

    private TableThroughput of(TableDefinition definition, long now) {
        TableThroughput t = tables.get(definition.id());
        // Made from the first definition met; later ones come from the catalog (tableChanged),
        // never from requests, whose definitions may be older than the one already followed
        // (a request that looked its table up before a backfill finished).
        if (t == null) t = tables.computeIfAbsent(definition.id(), id -> new TableThroughput(definition, now));
        if (now - t.sizeCheckedMillis >= ThroughputSettings.SIZE_CHECK_INTERVAL_MILLIS) splitForSize(t, now);
        return t;
    }

    /**
     * Splits the partitions of a table or index whose data outgrew them (about 10 GB each): read
     * from the stored counters about once a minute, not per request. The hash spreads a table's
     * items evenly over equal ranges, so all partitions fill together and double together.
     */
    private void splitForSize(TableThroughput t, long now) {
        t.sizeCheckedMillis = now;
        TableDefinition d = t.seen;
        t.table.growForSize(stored.bytes(d, null), settings.partitionBytes(), now);
        for (IndexDefinition index : d.globalIndexes()) {
            ResourceThroughput r = t.globalIndexes.get(index.id());
            if (r != null) r.growForSize(stored.bytes(d, index), settings.partitionBytes(), now);
        }
    }

    private ResourceThroughput readResource(TableThroughput t, IndexDefinition index) {
        if (index == null || !index.global()) return t.table;
        ResourceThroughput r = t.globalIndexes.get(index.id());
        return r != null ? r : t.table;
    }

    // ---- reads -------------------------------------------------------------------------------

    @Override
    public void beforeRead(TableDefinition table, IndexDefinition index, boolean onePartition, long partitionHash) {
        long now = clock.millis();
        TableThroughput t = of(table, now);
        ResourceThroughput r = readResource(t, index);
        Partitions.Partition partition = onePartition ? r.partitions.of(partitionHash) : null;
        String refused = r.refusesRead(partition, now);
        if (refused == null) return;
        r.throttleEvent(refused, partition);
        r.refused(false, 0, partition, now, settings.splitDelayMillis());
        if (t.enforced) throw exception(r.onDemand(), List.of(r.reasonFor(refused)));
    }

    @Override
    public void afterRead(TableDefinition table, IndexDefinition index, boolean onePartition, long partitionHash,
                          ConsumedCapacity consumed) {
        long now = clock.millis();
        TableThroughput t = of(table, now);
        ResourceThroughput r = readResource(t, index);
        Partitions.Partition partition = onePartition ? r.partitions.of(partitionHash) : null;
        r.takeRead(consumed.total(), partition, now, settings.splitDelayMillis());
    }

    // ---- writes ------------------------------------------------------------------------------

    /** Where one write takes its units: its table and partition, and each global index it changes and its partition. */
    private record WriteTargets(TableThroughput throughput, double tableUnits, Partitions.Partition partition,
                                List<ResourceThroughput> indexes, List<Partitions.Partition> indexPartitions,
                                double[] indexUnits, long now) {}

    private WriteTargets targets(TableDefinition table, Usage.Write usage, ConsumedCapacity consumed) {
        long now = clock.millis();
        TableThroughput t = of(table, now);
        double tableUnits = consumed.tableUnits();
        for (double u : consumed.localIndexUnits().values()) tableUnits += u; // local indexes draw on the table
        Partitions.Partition partition = t.table.partitions.of(usage.partitionHash());
        List<ResourceThroughput> indexes = List.of();
        List<Partitions.Partition> indexPartitions = List.of();
        double[] indexUnits = null;
        if (!usage.indexes().isEmpty() && !t.globalIndexes.isEmpty()) {
            int n = usage.indexes().size();
            indexes = new ArrayList<>(n);
            indexPartitions = new ArrayList<>(n);
            indexUnits = new double[n];
            for (Usage.IndexWrite w : usage.indexes()) {
                if (!w.global() || w.vector()) continue;
                ResourceThroughput r = t.globalIndexes.get(w.indexId());
                if (r == null) continue;
                indexUnits[indexes.size()] = CapacityUnits.indexWrite(w.removedBytes(), w.writtenBytes());
                indexes.add(r);
                indexPartitions.add(r.partitions.of(w.partitionHash()));
            }
        }
        return new WriteTargets(t, tableUnits, partition, indexes, indexPartitions, indexUnits, now);
    }

    @Override
    public ThroughputExceededException refusal(TableDefinition table, Usage.Write usage, ConsumedCapacity consumed) {
        return refusal(targets(table, usage, consumed));
    }

    @Override
    public void debitWrite(TableDefinition table, Usage.Write usage, ConsumedCapacity consumed) {
        debit(targets(table, usage, consumed));
    }

    /**
     * A transaction's writes as one request: each table, index and partition takes the sum of
     * what the writes cost it, so that a transaction whose items cost a partition more than a
     * second of its ceiling spends burst (see {@link TokenBucket}) instead of leaving a debt that
     * throttles what follows, as DynamoDB serves a 4 MB transaction.
     */
    @Override
    public void debitWrites(List<TableDefinition> tables, List<Usage.Write> usages, ConsumedCapacity[] consumed) {
        Map<ResourceThroughput, double[]> resources = new IdentityHashMap<>();
        Map<Partitions.Partition, PartitionShare> partitions = new IdentityHashMap<>();
        long now = clock.millis();
        for (int i = 0; i < usages.size(); i++) {
            WriteTargets w = targets(tables.get(i), usages.get(i), consumed[i]);
            share(resources, partitions, w.throughput().table, w.partition(), w.tableUnits());
            for (int j = 0; j < w.indexes().size(); j++) {
                share(resources, partitions, w.indexes().get(j), w.indexPartitions().get(j), w.indexUnits()[j]);
            }
        }
        resources.forEach((r, units) -> r.takeFromResource(true, units[0], now));
        long split = settings.splitDelayMillis();
        partitions.forEach((p, share) -> share.resource.takeFromPartition(true, share.units, p, now, split));
    }

    /** What one request costs one partition, and whose partition it is. */
    private static final class PartitionShare {
        final ResourceThroughput resource;
        double units;

        PartitionShare(ResourceThroughput resource) {
            this.resource = resource;
        }
    }

    private static void share(Map<ResourceThroughput, double[]> resources, Map<Partitions.Partition, PartitionShare> partitions,
                              ResourceThroughput resource, Partitions.Partition partition, double units) {
        resources.computeIfAbsent(resource, r -> new double[1])[0] += units;
        partitions.computeIfAbsent(partition, p -> new PartitionShare(resource)).units += units;
    }

    /** A single write: its targets found once, then refused or debited. */
    @Override
    public ThroughputExceededException admitWrite(TableDefinition table, Usage.Write usage, ConsumedCapacity consumed) {
        WriteTargets w = targets(table, usage, consumed);
        ThroughputExceededException refused = refusal(w);
        if (refused == null) debit(w);
        return refused;
    }

    private ThroughputExceededException refusal(WriteTargets w) {
        TableThroughput t = w.throughput();
        List<Reason> reasons = null;
        String refused = t.table.refusesWrite(w.partition(), w.now());
        if (refused != null) {
            (reasons = new ArrayList<>(2)).add(t.table.reasonFor(refused));
            t.table.throttleEvent(refused, w.partition());
        }
        for (int i = 0; i < w.indexes().size(); i++) {
            ResourceThroughput index = w.indexes().get(i);
            String r = index.refusesWrite(w.indexPartitions().get(i), w.now());
            if (r == null) continue;
            if (reasons == null) reasons = new ArrayList<>(2);
            reasons.add(index.reasonFor(r));
            index.throttleEvent(r, w.indexPartitions().get(i));
        }
        if (reasons == null) return null;
        t.table.refused(true, w.tableUnits(), w.partition(), w.now(), settings.splitDelayMillis());
        return t.enforced ? exception(t.table.onDemand(), reasons) : null;
    }

    private void debit(WriteTargets w) {
        long split = settings.splitDelayMillis();
        w.throughput().table.takeWrite(w.tableUnits(), w.partition(), w.now(), split);
        for (int i = 0; i < w.indexes().size(); i++) {
            w.indexes().get(i).takeWrite(w.indexUnits()[i], w.indexPartitions().get(i), w.now(), split);
        }
    }

    /**
     * The exception for these reasons: ProvisionedThroughputExceededException on a provisioned
     * table (key-range limits included: the developer guide's example shows
     * TableWriteKeyRangeThroughputExceeded on one), RequestLimitExceeded for the per-table quota on
     * demand (developer guide, Programming.Errors; its gsi-throttling page says
     * ThrottlingException: the guide contradicts itself, dynamodb-throughput.md section 9),
     * ThrottlingException otherwise. The message is the first reason's.
     */
    private static ThroughputExceededException exception(boolean onDemand, List<Reason> reasons) {
        Reason first = reasons.get(0);
        boolean index = first.reason().startsWith("Index");
        if (!onDemand) {
            return new ThroughputExceededException(ErrorType.PROVISIONED_THROUGHPUT_EXCEEDED,
                    index ? ThroughputExceededException.INDEX_PROVISIONED : ThroughputExceededException.TABLE_PROVISIONED,
                    reasons);
        }
        if (first.reason().endsWith("AccountLimitExceeded")) {
            return new ThroughputExceededException(ErrorType.REQUEST_LIMIT_EXCEEDED,
                    ThroughputExceededException.ACCOUNT_LIMIT, reasons);
        }
        String message = first.reason().endsWith("MaxOnDemandThroughputExceeded") ? ThroughputExceededException.MAX_ON_DEMAND
                : index ? ThroughputExceededException.INDEX_ON_DEMAND : ThroughputExceededException.TABLE_ON_DEMAND;
        return new ThroughputExceededException(ErrorType.THROTTLING, message, reasons);
    }

    // ---- several servers on one store ------------------------------------------------------------

    /**
     * What this server took from each table (index id 0) and global index since it started:
     * units read and written, and by partition (its partitions' first hashes, in order, and the
     * units of each). Throttled requests take nothing.
     */
    public interface Taken {
        void resource(long tableId, int indexId, double read, double write, long[] partitionStarts,
                      double[] partitionReads, double[] partitionWrites);
    }

    /**
     * This server's totals, for the cluster's exchange (docs/dynamodb/throughput.md, "Several
     * servers"): read off the counters the metrics read, nothing on the request path.
     */
    public void consumedHere(Taken out) {
        for (TableThroughput t : tables.values()) {
            long id = t.seen.id();
            consumption(id, 0, t.table, out);
            t.globalIndexes.forEach((indexId, r) -> consumption(id, indexId, r, out));
        }
    }

    private static void consumption(long tableId, int indexId, ResourceThroughput r, Taken out) {
        Partitions.Partition[] all = r.partitions.all();
        long[] starts = new long[all.length];
        double[] reads = new double[all.length];
        double[] writes = new double[all.length];
        for (int i = 0; i < all.length; i++) {
            starts[i] = all[i].start;
            reads[i] = all[i].consumedRead.sum();
            writes[i] = all[i].consumedWrite.sum();
        }
        out.resource(tableId, indexId, r.consumedRead.sum(), r.consumedWrite.sum(), starts, reads, writes);
    }

    /**
     * Another server's units since the last exchange on a table (as its definition now is), or
     * on one of its global indexes, in the form of {@link Taken}: drawn from this server's
     * buckets, so that each server admits what the cluster has left; the other server's
     * partition splits are made here too. An index this server does not know (yet, or any more)
     * is left.
     */
    public void consumedElsewhere(TableDefinition table, int indexId, double read, double write, long[] partitionStarts,
                                  double[] partitionReads, double[] partitionWrites) {
        long now = clock.millis();
        TableThroughput t = of(table, now);
        ResourceThroughput r = indexId == 0 ? t.table : t.globalIndexes.get(indexId);
        if (r == null) return;
        r.takenElsewhere(read, write, partitionStarts, partitionReads, partitionWrites, now, settings.splitDelayMillis());
    }

    // ---- for operators and tests ----------------------------------------------------------------

    /**
     * One partition's figures since the server started (or since the split that made it): its
     * first hash (unsigned), units taken, and the reads and writes it refused
     * (KeyRangeThroughputExceeded).
     */
    public record PartitionFigures(long firstHash, double consumedReadUnits, double consumedWriteUnits,
                                   long readKeyRangeThrottleEvents, long writeKeyRangeThrottleEvents) {}

    /**
     * One table's (index null) or global index's figures since the server started: units taken,
     * provisioned units (0 on demand), throttle events by reason, and its partitions.
     */
    public record ResourceFigures(String tableName, String indexName, String arn, boolean onDemand,
                                  double provisionedReadUnits, double provisionedWriteUnits,
                                  double consumedReadUnits, double consumedWriteUnits,
                                  Map<String, Long> throttleEventsByReason, List<PartitionFigures> partitions) {}

    /** Every table's and index's figures, for the metrics endpoint (read when scraped). */
    public List<ResourceFigures> snapshot() {
        List<ResourceFigures> out = new ArrayList<>();
        for (TableThroughput t : tables.values()) {
            TableDefinition d = t.seen;
            out.add(figures(d.name(), null, t.table));
            for (IndexDefinition index : d.globalIndexes()) {
                ResourceThroughput r = t.globalIndexes.get(index.id());
                if (r != null) out.add(figures(d.name(), index.name(), r));
            }
        }
        return out;
    }

    private static ResourceFigures figures(String table, String index, ResourceThroughput r) {
        Map<String, Long> events = new java.util.TreeMap<>();
        r.throttleEvents.forEach((reason, n) -> events.put(reason, n.sum()));
        List<PartitionFigures> partitions = new ArrayList<>();
        for (Partitions.Partition p : r.partitions.all()) {
            partitions.add(new PartitionFigures(p.start, p.consumedRead.sum(), p.consumedWrite.sum(),
                    p.readThrottleEvents.sum(), p.writeThrottleEvents.sum()));
        }
        return new ResourceFigures(table, index, r.arn, r.onDemand(), r.provisionedRead(), r.provisionedWrite(),
                r.consumedRead.sum(), r.consumedWrite.sum(), events, partitions);
    }

    /** A table's read and write units a second at most now (see {@code ResourceThroughput.ceilings}). */
    public double[] ceilings(TableDefinition table) {
        return of(table, clock.millis()).table.ceilings();
    }

    /**
     * The partitions of a table (index null) or of one of its global indexes: the first hash of
     * each, unsigned, in order.
     */
    public long[] partitionStarts(TableDefinition table, String indexName) {
        TableThroughput t = of(table, clock.millis());
        if (indexName == null) return t.table.partitions.starts();
        IndexDefinition index = table.index(indexName);
        ResourceThroughput r = index == null ? null : t.globalIndexes.get(index.id());
        return r == null ? new long[0] : r.partitions.starts();
    }

    @Override
    public void tableChanged(TableDefinition table) {
        long now = clock.millis();
        of(table, now).follow(table, now);
    }

    @Override
    public int partitionsBetween(TableDefinition table, IndexDefinition index, long firstHash, long lastHash) {
        return readResource(of(table, clock.millis()), index).partitions.countBetween(firstHash, lastHash);
    }

    @Override
    public boolean backfill(TableDefinition table, IndexDefinition index, double units) {
        long now = clock.millis();
        TableThroughput t = of(table, now);
        ResourceThroughput r = t.globalIndexes.get(index.id());
        if (r == null) return true;
        return r.takeBackfill(units, now, t.enforced);
    }

    @Override
    public void tableDeleted(TableDefinition table) {
        tables.remove(table.id());
    }
}
