package io.stator.engine.advisor;

import io.stator.core.expression.Path;
import io.stator.core.model.AttributeValue;
import io.stator.engine.capacity.CapacityUnits;
import io.stator.engine.capacity.ConsumedCapacity;
import io.stator.engine.capacity.ThroughputExceededException;
import io.stator.engine.read.KeyConditions.KeyCondition;
import io.stator.engine.read.Page;
import io.stator.engine.read.ReadPlan;
import io.stator.engine.table.IndexDefinition;
import io.stator.engine.table.TableDefinition;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * What the advisor sees of the traffic: every read and write the capacity meter admitted or
 * refused, recorded where the operations meet the meter ({@code Items} for reads,
 * {@code WritePipeline} for writes), per table and per global index, per key, per modelled
 * partition and per access pattern, in one-second and one-minute windows of the injected clock.
 * Contributor Insights (its four graphs), the read API and the findings read only what this
 * exposes.
 *
 * <p><b>The hot path.</b> Recording is a few map lookups and atomic adds per request, with no lock
 * that all requests share (see {@link KeyTable}, {@link ResourceWindow}, {@link SignatureCounters}),
 * and in bounded memory whatever the number of keys (exact counts up to {@link #KEY_CAP} keys per
 * window, sketches past it; {@link SignatureWindow#MAX_SIGNATURES} patterns per table and window;
 * a fixed number of closed windows' summaries). It never fails a request: a fault in it is
 * reported once and the request goes on.
 *
 * <p><b>What is counted where.</b> A key's units are the units the meter charged for it: a read's
 * (a Query's to its partition key, a Scan's to no key), a write's on the table (with its local
 * indexes', which draw on the table) to the item, and each global index entry's to the entry's
 * key in that index. Contributor Insights' figures leave PartiQL out (the developer guide: PartiQL
 * requests are not supported) and count as throttled what the table's (or the index's, for its
 * reads) own limits refused, not a write a global index's refused ("not measured").
 */
public final class Observations {

    /** Keys counted exactly per table or index, per kind (partition keys, items) and per window. */
    public static final int KEY_CAP = 4_096;

    private final Clock clock;
    private final PartitionMap partitionMap;
    private final int keyCap;
    private final ConcurrentHashMap<Long, TableObservations> tables = new ConcurrentHashMap<>();
    private final AtomicBoolean faultReported = new AtomicBoolean();
    /** The other servers' observations, on a store several servers share; null on one server. */
    private volatile ObservedElsewhere elsewhere;
    /** What {@link #publishable} gave last, by table and row ({@link #row}); the upkeep's thread only. */
    private final Map<Long, Map<Long, byte[]>> published = new java.util.HashMap<>();
    /** By table, the first minute the next {@link #publishable} may change (the last one it gave). */
    private final Map<Long, Long> publishedFrom = new java.util.HashMap<>();

    public Observations(Clock clock, PartitionMap partitionMap) {
        this(clock, partitionMap, KEY_CAP);
    }

    /** @param keyCap keys counted exactly per window before the sketches take over */
    public Observations(Clock clock, PartitionMap partitionMap, int keyCap) {
        this.clock = clock;
        this.partitionMap = partitionMap;
        this.keyCap = keyCap;
    }

    public Clock clock() { return clock; }

    // ---- across the servers of a cluster ----------------------------------------------------------

    /**
     * One row of a server's observations (see {@link ObservationRows}): one table's minute
     * (part 0) or one second of it (part 1 + the second of the minute).
     */
    public record Published(long tableId, long minute, int part, byte[] figures) {}

    /** Where the other servers' rows are read (the deployment's shared store). */
    @FunctionalInterface
    public interface Elsewhere {
        /** The other servers' rows of the table from {@code fromMinute} on (minutes since the epoch). */
        List<Published> rows(long tableId, long fromMinute);
    }

    /**
     * Reports merge the other servers' observations, read from {@code source}, with this server's
     * ({@link ObservedElsewhere}); without it (one server) they read this server's alone.
     */
    public void shareWith(Elsewhere source) {
        this.elsewhere = new ObservedElsewhere(source);
    }

    /**
     * This server's rows that changed since the last call, for the others to read: each table's
     * minutes and seconds from the last minute given on (the one open then, since grown, and
     * those that opened since). Called by the deployment's upkeep, on one thread; never on a
     * request's path.
     */
    public synchronized List<Published> publishable() {
        long now = clock.millis();
        long nowMinute = Math.floorDiv(now, 60_000);
        List<Published> out = new ArrayList<>();
        for (Map.Entry<Long, TableObservations> e : tables.entrySet()) {
            long tableId = e.getKey();
            TableObservations t = e.getValue();
            long from = publishedFrom.getOrDefault(tableId, Long.MIN_VALUE);
            Map<Long, Map<Integer, ResourceSummary>> minutes = new TreeMap<>();
            Map<Long, Map<Integer, long[]>> units = new TreeMap<>();
            Map<Long, Map<Integer, ResourceSummary>> seconds = new TreeMap<>();
            t.resources().forEach((indexId, r) -> {
                List<ResourceSummary> secondsKept = r.seconds(now);
                for (ResourceSummary m : r.minutes(now)) {
                    if (m.period() < from || m.requests() == 0) continue; // an idle window: nothing to add
                    minutes.computeIfAbsent(m.period(), x -> new TreeMap<>()).put(indexId, m);
                    units.computeIfAbsent(m.period(), x -> new TreeMap<>())
                            .put(indexId, ObservedElsewhere.secondUnits(m, secondsKept));
                }
                for (ResourceSummary s : secondsKept) {
                    if (Math.floorDiv(s.period(), 60) < from || s.requests() == 0) continue;
                    seconds.computeIfAbsent(s.period(), x -> new TreeMap<>()).put(indexId, s);
                }
            });
            Map<Long, Map<Signature, PatternFigures>> patterns = new TreeMap<>();
            for (TableObservations.PatternWindow w : t.patternMinutes(now)) {
                if (w.period() >= from) patterns.put(w.period(), w.figures());
            }
            Map<Long, byte[]> last = published.computeIfAbsent(tableId, x -> new java.util.HashMap<>());
            minutes.forEach((minute, resources) -> offer(out, last, tableId, minute, ObservationRows.MINUTE_PART,
                    ObservationRows.minute(resources, units.get(minute), patterns.getOrDefault(minute, Map.of()))));
            seconds.forEach((second, resources) -> offer(out, last, tableId, Math.floorDiv(second, 60),
                    1 + (int) Math.floorMod(second, 60), ObservationRows.second(resources)));
            last.keySet().removeIf(row -> Math.floorDiv(row, 61) < nowMinute);
            publishedFrom.put(tableId, nowMinute);
        }
        published.keySet().retainAll(tables.keySet());
        publishedFrom.keySet().retainAll(tables.keySet());
        return out;
    }

    private static void offer(List<Published> out, Map<Long, byte[]> last, long tableId, long minute, int part,
                              byte[] figures) {
        byte[] before = last.put(minute * 61 + part, figures);
        if (!java.util.Arrays.equals(before, figures)) out.add(new Published(tableId, minute, part, figures));
    }

    private TableObservations table(TableDefinition definition) {
        TableObservations t = tables.get(definition.id());
        if (t == null) {
            t = tables.computeIfAbsent(definition.id(), id -> new TableObservations(definition, partitionMap, keyCap));
        } else if (t.definition != definition) {
            t.definition = definition;
        }
        return t;
    }

    /** A table deleted: its observations go with it. */
    public void tableDeleted(long tableId) {
        tables.remove(tableId);
        ObservedElsewhere e = elsewhere;
        if (e != null) e.tableDeleted(tableId);
    }

    private void fault(RuntimeException e) {
        if (!faultReported.getAndSet(true)) {
            System.err.println("stator: the advisor could not record a request (reported once): " + e);
        }
    }

    // ---- reads ----------------------------------------------------------------------------------

    /**
     * A read done: a GetItem's (or a batch's or a transaction's get), a Query's or a Scan's page.
     *
     * @param keyConditions a Query's, else null
     * @param totalSegments a Scan's TotalSegments, else 0
     */
    public void read(Operation operation, ReadPlan plan, Map<String, KeyCondition> keyConditions, int totalSegments,
                     Page page) {
        try {
            recordRead(operation, plan, keyConditions, totalSegments, page, null);
        } catch (RuntimeException e) {
            fault(e);
        }
    }

    /** A read refused by its table's or index's throughput. */
    public void readThrottled(Operation operation, ReadPlan plan, Map<String, KeyCondition> keyConditions,
                              int totalSegments, ThroughputExceededException refusal) {
        try {
            recordRead(operation, plan, keyConditions, totalSegments, null, refusal);
        } catch (RuntimeException e) {
            fault(e);
        }
    }

    private void recordRead(Operation operation, ReadPlan plan, Map<String, KeyCondition> keyConditions,
                            int totalSegments, Page page, ThroughputExceededException refusal) {
        long now = clock.millis();
        TableDefinition table = plan.target().table();
        IndexDefinition index = plan.target().index();
        TableObservations t = table(table);
        IndexDefinition resourceIndex = index != null && index.global() ? index : null;
        ResourceObservations r = t.resource(resourceIndex == null ? 0 : resourceIndex.id());
        KeyBytes partitionKey = plan.scan() ? null : KeyBytes.partition(plan.range().from());
        KeyBytes item = plan.singleItem() ? KeyBytes.item(plan.range().from()) : null;
        ConsumedCapacity consumed = page == null ? null : page.consumed();
        long halves = consumed == null ? 0 : KeyCounter.Sample.halves(consumed.total());
        boolean insights = !operation.partiql();
        List<String> reasons = refusal == null ? List.of() : reasonsOn(refusal, table, resourceIndex);
        KeyCounter.Sample sample = new KeyCounter.Sample(halves, 0, insights ? halves : 0,
                refusal != null && insights ? 1 : 0, refusal == null ? 0 : 1, 0, 0);
        long itemBytes = item != null && page != null && page.count() > 0 ? page.bytesRead() : -1;
        r.record(now, partitionKey, item, partitionKey == null ? 0 : partitionKey.partitionHash(), sample, reasons,
                itemBytes);
        if (itemBytes >= LargeItems.WARN_BYTES) t.largestItems.offer(item, itemBytes, now);

        Signature signature = readSignature(operation, plan, t, table, index, keyConditions, totalSegments);
        countRead(t.patterns(now, signature), plan.singleItem(), now, halves, refusal, consumed, page, itemBytes);
        if (refusal != null) {
            t.throttled(new TableObservations.Logged(now, signature, table, resourceIndex,
                    partitionKey == null ? null : (item != null ? item : partitionKey), refusal));
        }
    }

    private static void countRead(SignatureCounters c, boolean singleItem, long now, long halves,
                                  ThroughputExceededException refusal, ConsumedCapacity consumed, Page page,
                                  long itemBytes) {
        c.call(Math.floorDiv(now, 1000), halves);
        if (refusal != null) {
            c.throttled.increment();
            return;
        }
        c.tableReadHalves.add(KeyCounter.Sample.halves(consumed.tableUnits()));
        consumed.globalIndexUnits().forEach((n, u) -> c.index(n, true).readHalves.add(KeyCounter.Sample.halves(u)));
        consumed.localIndexUnits().forEach((n, u) -> c.index(n, false).readHalves.add(KeyCounter.Sample.halves(u)));
        // A single item's read scans what it returns (SignatureCounters.figures): one adder less.
        if (!singleItem) c.scanned.add(page.scannedCount());
        c.returned.add(page.count());
        c.bytesRead.add(page.bytesRead());
        if (itemBytes >= 0) c.maxItemBytes.accumulate(itemBytes);
    }

    private static Signature readSignature(Operation operation, ReadPlan plan, TableObservations t,
                                           TableDefinition table, IndexDefinition index,
                                           Map<String, KeyCondition> keyConditions, int totalSegments) {
        List<Path> projection = plan.projection();
        if (plan.singleItem()) return Signature.get(operation, t.itemKey(table), projection, plan.consistentRead());
        if (plan.scan()) {
            return Signature.scan(operation, index, plan.filter(), projection, plan.countOnly(), plan.consistentRead(),
                    totalSegments);
        }
        return Signature.query(operation, table, index, keyConditions, plan.filter(), projection, plan.countOnly(),
                plan.consistentRead());
    }

    // ---- writes ---------------------------------------------------------------------------------

    /**
     * A write admitted and priced (committed, or refused by its condition, which is billed all the
     * same: {@code conditionFailed}).
     */
    public void write(Operation operation, ObservedWrite write, ConsumedCapacity consumed, boolean conditionFailed) {
        try {
            recordWrite(operation, write, consumed, conditionFailed, null);
        } catch (RuntimeException e) {
            fault(e);
        }
    }

    /** A write refused by the throughput of its table, a global index, or their partitions. */
    public void writeThrottled(Operation operation, ObservedWrite write, ThroughputExceededException refusal) {
        try {
            recordWrite(operation, write, null, false, refusal);
        } catch (RuntimeException e) {
            fault(e);
        }
    }

    private void recordWrite(Operation operation, ObservedWrite w, ConsumedCapacity consumed, boolean conditionFailed,
                             ThroughputExceededException refusal) {
        long now = clock.millis();
        TableDefinition table = w.table();
        TableObservations t = table(table);
        boolean insights = !operation.partiql();
        KeyBytes partitionKey = KeyBytes.partition(w.rowKey());
        KeyBytes item = KeyBytes.item(w.rowKey());

        // The table, with its local indexes (they draw on the table's capacity).
        long tableHalves = 0;
        if (consumed != null) {
            double units = consumed.tableUnits();
            for (double u : consumed.localIndexUnits().values()) units += u;
            tableHalves = KeyCounter.Sample.halves(units);
        }
        List<String> tableReasons = refusal == null ? List.of() : reasonsOn(refusal, table, null);
        boolean written = refusal == null && !conditionFailed && w.written();
        long items = written ? (w.newItem() != null ? 1 : 0) - (w.oldItem() != null ? 1 : 0) : 0;
        long bytes = written ? w.newBytes() - w.oldBytes() : 0;
        KeyCounter.Sample sample = new KeyCounter.Sample(0, tableHalves, insights ? 3 * tableHalves : 0,
                !tableReasons.isEmpty() && insights ? 1 : 0, refusal == null ? 0 : 1, items, bytes);
        long itemBytes = refusal != null ? -1 : Math.max(w.oldBytes(), w.newBytes());
        t.resource(0).record(now, partitionKey, item, partitionKey.partitionHash(), sample, tableReasons,
                itemBytes > 0 ? itemBytes : -1);
        if (itemBytes >= LargeItems.WARN_BYTES) t.largestItems.offer(item, itemBytes, now);

        // Each global index entry changed, on its own key in its index.
        for (ObservedWrite.IndexChange c : w.indexChanges()) {
            if (!c.index().global()) continue;
            ResourceObservations r = t.resource(c.index().id());
            List<String> reasons = refusal == null ? List.of() : reasonsOn(refusal, table, c.index());
            if (c.removedKey() != null && (refusal == null || c.writtenKey() == null)) {
                recordEntry(r, now, c.index(), c.removedKey(), refusal == null
                        ? CapacityUnits.indexWrite(c.removedBytes(), -1) : 0, reasons, refusal != null);
            }
            if (c.writtenKey() != null) {
                recordEntry(r, now, c.index(), c.writtenKey(), refusal == null
                        ? CapacityUnits.indexWrite(-1, c.writtenBytes()) : 0, reasons, refusal != null);
            }
        }

        Signature signature = Signature.write(operation, w.action(), t.itemKey(table), w.condition(), w.update());
        long callHalves = consumed == null ? 0 : KeyCounter.Sample.halves(consumed.total());
        countWrite(t.patterns(now, signature), now, callHalves, refusal, conditionFailed, consumed, written, w);
        if (refusal != null) t.throttled(new TableObservations.Logged(now, signature, table, null, item, refusal));
    }

    private static void countWrite(SignatureCounters s, long now, long callHalves, ThroughputExceededException refusal,
                                   boolean conditionFailed, ConsumedCapacity consumed, boolean written, ObservedWrite w) {
        s.call(Math.floorDiv(now, 1000), callHalves);
        if (refusal != null) {
            s.throttled.increment();
            return;
        }
        if (conditionFailed) s.conditionFailed.increment();
        s.tableWriteHalves.add(KeyCounter.Sample.halves(consumed.tableUnits()));
        consumed.globalIndexUnits().forEach((n, u) -> s.index(n, true).writeHalves.add(KeyCounter.Sample.halves(u)));
        consumed.localIndexUnits().forEach((n, u) -> s.index(n, false).writeHalves.add(KeyCounter.Sample.halves(u)));
        if (!written) return;
        s.bytesWritten.add(w.newBytes());
        s.maxItemBytes.accumulate(Math.max(w.oldBytes(), w.newBytes()));
        for (ObservedWrite.IndexChange c : w.indexChanges()) {
            SignatureCounters.IndexCounters ic = s.index(c.index().name(), c.index().global());
            if (c.writtenKey() != null) {
                ic.entriesWritten.increment();
                ic.maxEntryBytes.accumulate(c.writtenBytes());
            }
            if (c.removedKey() != null && c.writtenKey() == null) ic.entriesRemoved.increment();
            if (c.moved()) {
                ic.keyMoves.increment();
                for (IndexDefinition.KeyAttribute k : c.index().keyAttributes()) {
                    if (!Objects.equals(value(w.oldItem(), k.name()), value(w.newItem(), k.name()))) {
                        ic.movedAttributes.computeIfAbsent(k.name(), x -> new java.util.concurrent.atomic.LongAdder())
                                .increment();
                    }
                }
            }
        }
    }

    private static void recordEntry(ResourceObservations r, long now, IndexDefinition index, byte[] entryKey,
                                    double units, List<String> reasons, boolean refused) {
        KeyBytes partitionKey = KeyBytes.partition(entryKey);
        KeyBytes item = index.hasSortKey() ? KeyBytes.indexItem(entryKey, index) : partitionKey;
        long halves = KeyCounter.Sample.halves(units);
        // Contributor Insights does not measure a write a global index throttled; the index's
        // Most Accessed graph shows its writes.
        KeyCounter.Sample sample = new KeyCounter.Sample(0, halves, 3 * halves, 0, refused && !reasons.isEmpty() ? 1 : 0,
                0, 0);
        r.record(now, partitionKey, item, partitionKey.partitionHash(), sample, reasons, -1);
    }

    private static AttributeValue value(Map<String, AttributeValue> item, String name) {
        return item == null ? null : item.get(name);
    }

    /** The reasons of a refusal that name this table (index null) or this index. */
    private static List<String> reasonsOn(ThroughputExceededException refusal, TableDefinition table,
                                          IndexDefinition index) {
        List<String> out = new ArrayList<>(refusal.reasons().size());
        for (ThroughputExceededException.Reason r : refusal.reasons()) {
            if (names(r, table.name(), index)) out.add(r.reason());
        }
        return out;
    }

    /** Whether a refusal's reason names the table (index null) or this global index of it. */
    static boolean names(ThroughputExceededException.Reason r, String tableName, IndexDefinition index) {
        boolean onIndex = r.reason().startsWith("Index");
        return index == null ? !onIndex && r.resource().endsWith(":table/" + tableName)
                : onIndex && r.resource().endsWith(":table/" + tableName + "/index/" + index.name());
    }

    // ---- what the read API and the findings read ------------------------------------------------

    /** The table's (index null) or a global index's traffic, or null when it had none. */
    ResourceObservations resource(TableDefinition table, IndexDefinition index) {
        TableObservations t = tables.get(table.id());
        return t == null ? null : t.existing(index == null ? 0 : index.id());
    }

    TableObservations tableObservations(TableDefinition table) {
        return tables.get(table.id());
    }

    /** The seconds kept of a table's or global index's traffic, the open one last. */
    List<ResourceSummary> seconds(TableDefinition table, IndexDefinition index) {
        ResourceObservations r = resource(table, index);
        long now = clock.millis();
        List<ResourceSummary> here = r == null ? List.of() : r.seconds(now);
        ObservedElsewhere e = elsewhere;
        return e == null ? here : e.seconds(table.id(), index == null ? 0 : index.id(), here, now);
    }

    /** The minutes kept of a table's or global index's traffic, the open one last. */
    List<ResourceSummary> minutes(TableDefinition table, IndexDefinition index) {
        ResourceObservations r = resource(table, index);
        long now = clock.millis();
        List<ResourceSummary> here = r == null ? List.of() : r.minutes(now);
        ObservedElsewhere e = elsewhere;
        if (e == null) return here;
        return e.minutes(table.id(), index == null ? 0 : index.id(), here, r == null ? List.of() : r.seconds(now), now);
    }

    /** The runs of closed minutes one partition key led by writes, of a table's or global index's traffic. */
    List<ResourceObservations.Lead> leads(TableDefinition table, IndexDefinition index) {
        ResourceObservations r = resource(table, index);
        return r == null ? List.of() : r.leads(clock.millis());
    }

    /** Contributor Insights' graphs of the last {@code minutes} minutes, {@code top} keys each. */
    public Reports.TopKeys topKeys(TableDefinition table, IndexDefinition index, int minutes, int top) {
        return TopKeysReport.of(this, table, index, minutes, top);
    }

    /** The modelled partitions now and their last {@code seconds} seconds. */
    public Reports.Partitions partitions(TableDefinition table, IndexDefinition index, int seconds) {
        return PartitionsReport.of(this, table, index, partitionMap.starts(table, index), seconds);
    }

    /**
     * The modelled partitions now and their periods from {@code fromSecond} to {@code toSecond}
     * (seconds since the epoch, both inclusive): by the second within the seconds kept (the last
     * {@value ResourceObservations#SECONDS_KEPT}), else by the minute.
     */
    public Reports.Partitions partitions(TableDefinition table, IndexDefinition index, long fromSecond, long toSecond) {
        long[] starts = partitionMap.starts(table, index);
        long now = Math.floorDiv(clock.millis(), 1000);
        if (fromSecond > now - ResourceObservations.SECONDS_KEPT) {
            return PartitionsReport.of(table, index, starts, seconds(table, index), fromSecond, toSecond, 1);
        }
        return PartitionsReport.of(table, index, starts, minutes(table, index), Math.floorDiv(fromSecond, 60),
                Math.floorDiv(toSecond, 60), 60);
    }

    /** The modelled partitions now and their last {@code minutes} minutes, by the minute. */
    public Reports.Partitions partitionMinutes(TableDefinition table, IndexDefinition index, int minutes) {
        long toMinute = Math.floorDiv(clock.millis(), 60_000);
        return PartitionsReport.of(table, index, partitionMap.starts(table, index), minutes(table, index),
                toMinute - minutes + 1, toMinute, 60);
    }

    /** A table's (index null) or global index's last closed second, or {@link Reports.Now#NONE}. */
    public Reports.Now now(TableDefinition table, IndexDefinition index) {
        long last = Math.floorDiv(clock.millis(), 1000) - 1;
        for (ResourceSummary s : seconds(table, index)) {
            if (s.period() != last) continue;
            long hottestRead = 0;
            long hottestWrite = 0;
            for (ResourceSummary.PartitionFigures p : s.partitions().values()) {
                hottestRead = Math.max(hottestRead, p.readHalves());
                hottestWrite = Math.max(hottestWrite, p.writeHalves());
            }
            long throttles = 0;
            for (long n : s.throttleEvents().values()) throttles += n;
            return new Reports.Now(last, s.readHalves() / 2.0, s.writeHalves() / 2.0, hottestRead / 2.0,
                    hottestWrite / 2.0, throttles);
        }
        return Reports.Now.NONE;
    }

    /** The items a table served one at a time in the last {@code minutes} minutes (at most the minutes kept), by size. */
    public Reports.ItemSizes itemSizes(TableDefinition table, int minutes) {
        long fromMinute = Math.floorDiv(clock.millis(), 60_000) - minutes + 1;
        long[] counts = new long[ResourceWindow.SIZE_BUCKETS];
        for (ResourceSummary m : minutes(table, null)) {
            if (m.period() < fromMinute) continue;
            for (int i = 0; i < counts.length; i++) counts[i] += m.itemSizes()[i];
        }
        long[] low = new long[counts.length];
        for (int i = 0; i < low.length; i++) low[i] = ResourceWindow.sizeBucketLowBytes(i);
        return new Reports.ItemSizes(ResourceWindow.SIZE_LABELS, low, counts);
    }

    /** The table's access patterns over the last {@code minutes} minutes, the costliest first. */
    public Reports.AccessPatterns accessPatterns(TableDefinition table, int minutes) {
        long now = clock.millis();
        long toMinute = Math.floorDiv(now, 60_000);
        long fromMinute = toMinute - minutes + 1;
        TableObservations t = tables.get(table.id());
        Map<Signature, PatternFigures> here = t == null ? Map.of() : t.patternsSince(now, fromMinute);
        ObservedElsewhere e = elsewhere;
        List<PatternFigures> patterns = new ArrayList<>(
                (e == null ? here : e.patterns(table.id(), here, fromMinute, now)).values());
        patterns.sort(java.util.Comparator.comparingLong(PatternFigures::totalHalves).reversed()
                .thenComparing(PatternFigures::calls, java.util.Comparator.reverseOrder())
                .thenComparing(p -> p.signature().describe()));
        return new Reports.AccessPatterns(fromMinute, toMinute, patterns);
    }

    /** The table's largest items read or written one at a time in the last hour, the largest first. */
    List<LargestItems.Seen> largestItems(TableDefinition table) {
        TableObservations t = tables.get(table.id());
        return t == null ? List.of() : t.largestItems.since(clock.millis());
    }

    /** The table's last throttled requests (at most {@value TableObservations#THROTTLES_KEPT}), oldest first. */
    public List<ThrottleEvent> throttleEvents(TableDefinition table) {
        TableObservations t = tables.get(table.id());
        if (t == null) return List.of();
        List<ThrottleEvent> out = new ArrayList<>();
        for (TableObservations.Logged e : t.throttled()) {
            out.add(new ThrottleEvent(e.timeMillis(), e.signature(), e.key() == null ? null : e.key().values(e.table(),
                    e.index()), e.refusal().reasons(), e.refusal().type().wireName()));
        }
        return out;
    }
}
