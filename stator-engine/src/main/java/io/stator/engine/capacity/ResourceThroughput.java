package io.stator.engine.capacity;

import io.stator.engine.capacity.ThroughputExceededException.Reason;
import java.util.function.Consumer;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.DoubleAdder;
import java.util.concurrent.atomic.LongAdder;

/**
 * The throughput of one table or one global secondary index (the "resource" DynamoDB names in a
 * throttling reason): its read and write buckets, its partitions, and on demand its scaling.
 *
 * <p>Provisioned: each bucket refills at the provisioned units a second and holds 300 seconds of
 * them, DynamoDB's burst capacity ("up to five minutes (300 seconds) of unused read and write
 * capacity", developer guide, burst-adaptive-capacity). A new bucket starts full (a choice:
 * whether DynamoDB's does is not documented), so that a test suite's short bursts pass as they
 * would on DynamoDB. On demand: the buckets hold the table's maximum (its OnDemandThroughput,
 * else the per-table quota) for one second, and bank 300 seconds of it for requests larger than a
 * second (a maximum "is applied on a best-effort basis", a workload may briefly exceed it through
 * burst capacity: developer guide, on-demand-capacity-mode-max-throughput); the partitions follow
 * the {@link OnDemandScaling}.
 */
final class ResourceThroughput {

    /** What the limits come from; equal shapes mean nothing to change. */
    record Shape(boolean onDemand, long readUnits, long writeUnits, long maxRead, long maxWrite, long warmRead,
                 long warmWrite) {}

    final String arn;
    final boolean index;
    final Partitions partitions;
    private volatile Shape shape;
    private volatile TokenBucket read;
    private volatile TokenBucket write;
    private volatile OnDemandScaling readScaling;
    private volatile OnDemandScaling writeScaling;
    // Cumulative figures for operators (Throughput.snapshot, the /metrics endpoint).
    final DoubleAdder consumedRead = new DoubleAdder();
    final DoubleAdder consumedWrite = new DoubleAdder();
    final ConcurrentHashMap<String, LongAdder> throttleEvents = new ConcurrentHashMap<>();
    /** On demand: whether the buckets hold a user's maximum (else the per-table quota). */
    private volatile boolean readCapIsMaximum;
    private volatile boolean writeCapIsMaximum;

    /**
     * @param kept    the partitions' first hashes kept from before a restart, or empty
     * @param changed told the first hashes after every split, to keep them
     */
    ResourceThroughput(String arn, boolean index, Shape shape, long quota, long nowMillis, long[] kept,
                       Consumer<long[]> changed) {
        this.arn = arn;
        this.index = index;
        // A new table or index starts with as many partitions as its throughput needs, in equal
        // ranges; later growth doubles them (growFor). After a restart, they are the ones kept.
        int needed = shape.onDemand() ? needed(shape.warmRead(), shape.warmWrite())
                : needed(shape.readUnits(), shape.writeUnits());
        this.partitions = kept.length > 0 ? new Partitions(kept, nowMillis, changed)
                : new Partitions(needed, nowMillis, changed);
        if (kept.length == 0) changed.accept(partitions.starts());
        reshape(shape, quota, nowMillis);
    }

    Shape shape() { return shape; }

    /**
     * Its read and write units a second at most now, as its buckets admit them: provisioned
     * capacity, or on demand its maximum or the table quota.
     */
    double[] ceilings() { return new double[] {read.ratePerSecond(), write.ratePerSecond()}; }

    boolean onDemand() { return shape.onDemand(); }

    /** New limits (UpdateTable); balances are kept, partitions only grow. */
    synchronized void reshape(Shape next, long quota, long nowMillis) {
        Shape previous = shape;
        shape = next;
        if (next.onDemand()) {
            readCapIsMaximum = next.maxRead() > 0 && next.maxRead() < quota;
            writeCapIsMaximum = next.maxWrite() > 0 && next.maxWrite() < quota;
            double readCap = readCapIsMaximum ? next.maxRead() : quota;
            double writeCap = writeCapIsMaximum ? next.maxWrite() : quota;
            read = bucket(read, readCap, readCap, true, nowMillis);
            write = bucket(write, writeCap, writeCap, true, nowMillis);
            // Switching from provisioned keeps "the highest throughput ever provisioned" (developer
            // guide, bp-switching-capacity-modes): the warm values carry it.
            if (readScaling == null || previous == null || !previous.onDemand()) {
                readScaling = new OnDemandScaling(next.warmRead(), nowMillis);
                writeScaling = new OnDemandScaling(next.warmWrite(), nowMillis);
            } else {
                readScaling.warm(next.warmRead(), nowMillis);
                writeScaling.warm(next.warmWrite(), nowMillis);
            }
            growFor(readScaling.allowance(), writeScaling.allowance(), nowMillis);
        } else {
            // The bucket is the burst: no bank beside it.
            read = bucket(read, next.readUnits(), TokenBucket.BURST_SECONDS * (double) next.readUnits(), false, nowMillis);
            write = bucket(write, next.writeUnits(), TokenBucket.BURST_SECONDS * (double) next.writeUnits(), false,
                    nowMillis);
            readScaling = null;
            writeScaling = null;
            growFor(next.readUnits(), next.writeUnits(), nowMillis);
        }
    }

    private static TokenBucket bucket(TokenBucket existing, double rate, double capacity, boolean banks,
                                      long nowMillis) {
        if (existing == null) return new TokenBucket(rate, capacity, banks, nowMillis);
        existing.reshape(rate, capacity, banks, nowMillis);
        return existing;
    }

    /** Enough partitions for these rates: one per 3,000 read or 1,000 write units, whichever needs more. */
    private void growFor(double readUnits, double writeUnits, long nowMillis) {
        partitions.growTo(needed(readUnits, writeUnits), nowMillis);
    }

    /** Enough partitions for {@code bytes} of data, {@code partitionBytes} each. */
    void growForSize(long bytes, long partitionBytes, long nowMillis) {
        if (bytes <= partitionBytes) return;
        partitions.growTo((int) Math.min(Partitions.MAX_PARTITIONS, (bytes + partitionBytes - 1) / partitionBytes), nowMillis);
    }

    private static int needed(double readUnits, double writeUnits) {
        int needed = (int) Math.min(Partitions.MAX_PARTITIONS, Math.max(Math.ceil(readUnits / Partitions.READ_CEILING),
                Math.ceil(writeUnits / Partitions.WRITE_CEILING)));
        return Math.max(1, needed);
    }

    // ---- checks: each returns null when the units fit, else the reason ----------------------

    String refusesRead(Partitions.Partition partition, long nowMillis) {
        if (!read.canStart(nowMillis)) return reason(false, limit(readCapIsMaximum));
        if (partition != null && !partition.read.canStart(nowMillis)) return reason(false, "KeyRangeThroughputExceeded");
        return null;
    }

    String refusesWrite(Partitions.Partition partition, long nowMillis) {
        if (!write.canStart(nowMillis)) return reason(true, limit(writeCapIsMaximum));
        if (partition != null && !partition.write.canStart(nowMillis)) return reason(true, "KeyRangeThroughputExceeded");
        return null;
    }

    private String limit(boolean capIsMaximum) {
        if (!shape.onDemand()) return "ProvisionedThroughputExceeded";
        return capIsMaximum ? "MaxOnDemandThroughputExceeded" : "AccountLimitExceeded";
    }

    private String reason(boolean write, String limitType) {
        return (index ? "Index" : "Table") + (write ? "Write" : "Read") + limitType;
    }

    // ---- debits ------------------------------------------------------------------------------

    void takeRead(double units, Partitions.Partition partition, long nowMillis, long splitDelayMillis) {
        take(false, units, partition, nowMillis, splitDelayMillis);
    }

    void takeWrite(double units, Partitions.Partition partition, long nowMillis, long splitDelayMillis) {
        take(true, units, partition, nowMillis, splitDelayMillis);
    }

    /** Takes units from the bucket and the partition, counts them, and lets heat and peaks grow partitions. */
    private void take(boolean isWrite, double units, Partitions.Partition partition, long nowMillis, long splitDelayMillis) {
        takeFromResource(isWrite, units, nowMillis);
        if (partition != null) takeFromPartition(isWrite, units, partition, nowMillis, splitDelayMillis);
    }

    /**
     * One request's units from this table or index: its bucket (a request larger than a second
     * spends burst, so its units arrive here summed, not item by item), and on demand its peak.
     */
    void takeFromResource(boolean isWrite, double units, long nowMillis) {
        (isWrite ? write : read).take(units, nowMillis);
        (isWrite ? consumedWrite : consumedRead).add(units);
        recordPeak(isWrite, units, nowMillis);
    }

    /** On demand, the peak that scales the partitions. */
    private void recordPeak(boolean isWrite, double units, long nowMillis) {
        OnDemandScaling scaling = isWrite ? writeScaling : readScaling;
        if (scaling != null) {
            double before = scaling.allowance();
            double after = scaling.record(units, nowMillis);
            if (after > before) growFor(isWrite ? 0 : after, isWrite ? after : 0, nowMillis);
        }
    }

    /** One request's units from one of this resource's partitions, summed over its items there. */
    void takeFromPartition(boolean isWrite, double units, Partitions.Partition partition, long nowMillis,
                           long splitDelayMillis) {
        (isWrite ? partition.write : partition.read).take(units, nowMillis);
        (isWrite ? partition.consumedWrite : partition.consumedRead).add(units);
        heat(isWrite, units, partition, nowMillis, splitDelayMillis);
    }

    private void heat(boolean isWrite, double units, Partitions.Partition partition, long nowMillis,
                      long splitDelayMillis) {
        boolean hot = isWrite ? partition.record(0, units, nowMillis, splitDelayMillis)
                : partition.record(units, 0, nowMillis, splitDelayMillis);
        if (hot) partitions.split(partition, nowMillis);
    }

    /**
     * Units other servers sharing the store took from this table or index since the last exchange
     * ({@link Throughput#consumedElsewhere}): drawn from the buckets (never from burst: they are
     * many requests summed, not one large one), the on-demand peak and the partitions' heat as
     * this server's own are, so that every server's buckets drain at the cluster's rate; not
     * counted in this server's figures. {@code starts} are the other server's
     * partitions (its units by partition in {@code reads} and {@code writes}): splits it made are
     * made here too, and each of its partitions' units go to the partition here holding its first
     * hash.
     */
    void takenElsewhere(double readUnits, double writeUnits, long[] starts, double[] reads, double[] writes,
                        long nowMillis, long splitDelayMillis) {
        partitions.adopt(starts, nowMillis);
        if (readUnits > 0) {
            read.takeElsewhere(readUnits, nowMillis);
            recordPeak(false, readUnits, nowMillis);
        }
        if (writeUnits > 0) {
            write.takeElsewhere(writeUnits, nowMillis);
            recordPeak(true, writeUnits, nowMillis);
        }
        for (int i = 0; i < starts.length; i++) {
            if (reads[i] <= 0 && writes[i] <= 0) continue;
            Partitions.Partition p = partitions.of(starts[i]);
            if (reads[i] > 0) {
                p.read.takeElsewhere(reads[i], nowMillis);
                heat(false, reads[i], p, nowMillis, splitDelayMillis);
            }
            if (writes[i] > 0) {
                p.write.takeElsewhere(writes[i], nowMillis);
                heat(true, writes[i], p, nowMillis, splitDelayMillis);
            }
        }
    }

    /**
     * A backfill's entry: takes its units while the write bucket holds any (partitions aside: a
     * backfill walks the table in hash order, its writes spread over the index's partitions);
     * false, taking nothing, when it is empty and throughput is enforced.
     */
    boolean takeBackfill(double units, long nowMillis, boolean enforced) {
        if (enforced && !write.canStart(nowMillis)) return false;
        write.take(units, nowMillis);
        return true;
    }

    /** Counts a throttle event of this resource (one per reason it gave). */
    void throttleEvent(String reason, Partitions.Partition partition) {
        throttleEvents.computeIfAbsent(reason, r -> new LongAdder()).increment();
        if (partition != null && reason.endsWith("KeyRangeThroughputExceeded")) {
            (reason.contains("Write") ? partition.writeThrottleEvents : partition.readThrottleEvents).increment();
        }
    }

    /** A refused request still shows its partition's heat. */
    void refused(boolean write, double units, Partitions.Partition partition, long nowMillis, long splitDelayMillis) {
        if (partition != null && partition.record(write ? 0 : units, write ? units : 0, nowMillis, splitDelayMillis)) {
            partitions.split(partition, nowMillis);
        }
    }

    double provisionedRead() { return shape.onDemand() ? 0 : shape.readUnits(); }

    double provisionedWrite() { return shape.onDemand() ? 0 : shape.writeUnits(); }

    Reason reasonFor(String reason) {
        return new Reason(reason, arn);
    }
}
