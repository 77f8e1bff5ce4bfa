package io.stator.server.advisor;

import io.stator.core.model.AttributeValue;
import io.stator.engine.Engine;
import io.stator.engine.advisor.Advisor;
import io.stator.engine.advisor.Finding;
import io.stator.engine.advisor.PatternCost;
import io.stator.engine.advisor.Reports;
import io.stator.engine.advisor.ThrottleEvent;
import io.stator.engine.capacity.Throughput;
import io.stator.engine.read.Page;
import io.stator.engine.read.ScanSpec;
import io.stator.engine.table.IndexDefinition;
import io.stator.engine.table.TableDefinition.TableClass;
import io.stator.engine.table.TableDefinition;
import io.stator.server.access.AdvisorPermissions;
import io.stator.server.access.Authorizer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Builds the console's pages ({@link View}) from the engine: the observations, the findings, the
 * catalog and its counters. Nothing here is on a request's path: a page is built when someone
 * looks, from what the observations recorded anyway, and reads items without admitting, charging
 * or observing them ({@code Items.browse}), so that looking changes nothing it shows.
 *
 * <p>Findings are computed at most once every {@value #FINDINGS_TTL_MILLIS} ms per table (the
 * Overview asks for every table's every two seconds, and a hundred tables' findings are work).
 */
public final class Views {

    /** Items on the Table page. */
    static final int ITEMS_SHOWN = 25;
    /** Keys listed per heat-map row and cell. */
    static final int KEYS_PER_PARTITION = 10;
    /** Access patterns listed per table on the Cost page. */
    static final int PATTERNS_PER_TABLE = 10;
    static final long FINDINGS_TTL_MILLIS = 2_000;
    static final int MAX_CACHED = 1_024;

    /** What the caller may see: keys of a table (index null) or global index, and items of a table. */
    public interface Visibility {
        boolean keys(TableDefinition table, IndexDefinition index);

        boolean items(TableDefinition table);

        /** The findings and the access patterns, which quote keys or name attributes (DescribeTable). */
        boolean findings(TableDefinition table);

        Visibility ALL = new Visibility() {
            @Override public boolean keys(TableDefinition table, IndexDefinition index) { return true; }

            @Override public boolean items(TableDefinition table) { return true; }

            @Override public boolean findings(TableDefinition table) { return true; }
        };
    }

    /** What {@code access} may see, asked of the actions' authorization point ({@code AdvisorPermissions}). */
    public static Visibility visibility(Authorizer access, Engine engine) {
        if (!access.enforced()) return Visibility.ALL;
        return new Visibility() {
            @Override public boolean keys(TableDefinition table, IndexDefinition index) {
                return allowed(() -> AdvisorPermissions.keys(access, engine, table.name(),
                        index == null ? null : index.name()));
            }

            @Override public boolean items(TableDefinition table) {
                return allowed(() -> AdvisorPermissions.items(access, engine, table.name()));
            }

            @Override public boolean findings(TableDefinition table) {
                return allowed(() -> AdvisorPermissions.table(access, engine, table.name()));
            }
        };
    }

    private static boolean allowed(Runnable check) {
        try {
            check.run();
            return true;
        } catch (io.stator.core.error.DynamoDbException e) {
            return false;
        }
    }

    private record Cached(long atNanos, List<Finding> findings) {}

    private final Engine engine;
    private final Advisor advisor;
    private final Map<Long, Cached> findings = new ConcurrentHashMap<>();

    public Views(Engine engine, Advisor advisor) {
        this.engine = engine;
        this.advisor = advisor;
    }

    public Advisor advisor() { return advisor; }

    public Engine engine() { return engine; }

    /** The tables a page lists, by name (none being filled by a restore or an import). */
    public List<TableDefinition> tables() {
        return engine.catalog().all().stream().filter(t -> !t.filling())
                .sorted(Comparator.comparing(TableDefinition::name)).toList();
    }

    /** One table's findings, computed at most every {@value #FINDINGS_TTL_MILLIS} ms. */
    public List<Finding> findings(TableDefinition table) {
        long now = System.nanoTime();
        Cached c = findings.get(table.id());
        if (c == null || now - c.atNanos() > FINDINGS_TTL_MILLIS * 1_000_000) {
            c = new Cached(now, advisor.findings(table));
            // Deleted tables' entries go with the rest now and then: the cache stays small.
            if (findings.size() >= MAX_CACHED) findings.clear();
            findings.put(table.id(), c);
        }
        return c.findings();
    }

    // ---- Overview --------------------------------------------------------------------------------

    public View.Overview overview(Visibility visibility) {
        List<View.TableRow> rows = new ArrayList<>();
        int critical = 0;
        int warn = 0;
        int info = 0;
        double dollars = 0;
        for (TableDefinition t : tables()) {
            int[] bySeverity = new int[3];
            if (visibility.findings(t)) {
                for (Finding f : findings(t)) bySeverity[f.severity().ordinal()]++;
            }
            Reports.Now now = engine.observations().now(t, null);
            Reports.TableCost cost = advisor.cost(t);
            Double monthly = cost == null ? null : cost.monthly().get(cost.billingMode()).get(cost.tableClass());
            if (monthly != null) dollars += monthly;
            long throttles = now.throttleEvents();
            double[] ceiling = ceilings(t);
            int partitions = engine.observations().partitions(t, null, 1).partitions().size();
            rows.add(new View.TableRow(t.name(), t.billingMode().name(), tableClass(t).name(),
                    engine.catalog().counters().itemCount(t.id()), engine.catalog().counters().sizeBytes(t.id()),
                    now.readUnits(), now.writeUnits(), ceiling[0], ceiling[1], now.hottestPartitionReadUnits(),
                    now.hottestPartitionWriteUnits(), partitions, throttles, bySeverity[2], bySeverity[1],
                    bySeverity[0], monthly));
            critical += bySeverity[2];
            warn += bySeverity[1];
            info += bySeverity[0];
        }
        return new View.Overview(Math.floorDiv(engine.observations().clock().millis(), 1000) - 1, rows, critical, warn,
                info, dollars, advisor.prices().date(), advisor.scale());
    }

    /** A table's read and write units a second at most now, as the capacity model admits them (0: no model). */
    private double[] ceilings(TableDefinition t) {
        return engine.capacityMeter().admission() instanceof Throughput throughput ? throughput.ceilings(t)
                : new double[] {0, 0};
    }

    private static TableClass tableClass(TableDefinition t) {
        return t.tableClass() == null ? TableClass.STANDARD : t.tableClass();
    }

    // ---- Table -----------------------------------------------------------------------------------

    public View.Table table(TableDefinition t, Visibility visibility) {
        var counters = engine.catalog().counters();
        List<View.Index> indexes = new ArrayList<>();
        for (IndexDefinition i : t.indexes()) {
            long count = i.global() ? counters.indexItemCount(t.id(), i.id()) : 0;
            long size = i.global() ? counters.indexSizeBytes(t.id(), i.id()) : 0;
            indexes.add(new View.Index(i.name(), i.global() ? "GSI" : "LSI", i.partitionKey().isEmpty() ? null
                    : keyText(i.partitionKey()), i.sortKey().isEmpty() ? null : keyText(i.sortKey()),
                    i.projectionType().name(), i.nonKeyAttributes(), count, size,
                    count == 0 ? 0 : (double) size / count, i.status().name(), i.backfilling()));
        }
        Reports.ItemSizes sizes = engine.observations().itemSizes(t, 60);
        List<View.SizeBar> bars = new ArrayList<>();
        for (int b = 0; b < sizes.counts().length; b++) {
            bars.add(new View.SizeBar(sizes.labels().get(b), sizes.lowBytes()[b], sizes.counts()[b]));
        }
        boolean collectionsKept = !t.localIndexes().isEmpty();
        List<View.Collection> collections = new ArrayList<>();
        boolean keys = visibility.keys(t, null);
        if (collectionsKept && keys) {
            Reports.TopKeys top = engine.observations().topKeys(t, null, 60, 25);
            for (Reports.Contributor c : top.mostAccessedPartitionKeys()) {
                collections.add(new View.Collection(c.key(), counters.collectionSize(t.id(),
                        io.stator.engine.item.RowKeys.partitionKey(t, c.key()))));
            }
            collections.sort(Comparator.comparingLong(View.Collection::sizeBytes).reversed());
        }
        List<Map<String, AttributeValue>> items = null;
        Set<String> columns = new LinkedHashSet<>();
        columns.add(t.keySchema().partitionKey());
        if (t.keySchema().hasSortKey()) columns.add(t.keySchema().sortKey());
        boolean itemsShown = visibility.items(t);
        if (itemsShown) {
            Page page = engine.items().browse(t, new ScanSpec(null, null, null, null, null, 0, 1, ITEMS_SHOWN, false));
            items = page.items();
            for (Map<String, AttributeValue> item : items) columns.addAll(item.keySet());
        }
        return new View.Table(t.name(), t.billingMode().name(), tableClass(t).name(),
                t.keySchema().partitionKey() + " (" + t.keySchema().partitionKeyType() + ")",
                t.keySchema().hasSortKey() ? t.keySchema().sortKey() + " (" + t.keySchema().sortKeyType() + ")" : null,
                indexes, counters.itemCount(t.id()), counters.sizeBytes(t.id()), bars, collections, collectionsKept,
                new ArrayList<>(columns), items, !itemsShown);
    }

    private static String keyText(List<IndexDefinition.KeyAttribute> attributes) {
        return String.join(" + ", attributes.stream().map(a -> a.name() + " (" + a.type() + ")").toList());
    }


    // ---- Partition heat map ----------------------------------------------------------------------

    /** The buckets a heat map may use, and the span each covers (the seconds kept, or an hour of minutes). */
    public static final List<Integer> BUCKETS = List.of(1, 10, 60);

    static int spanSeconds(int bucketSeconds) {
        return switch (bucketSeconds) {
            case 1 -> 60;
            case 10 -> 300;
            default -> 3600;
        };
    }

    public View.HeatMap heatMap(TableDefinition t, IndexDefinition index, int bucketSeconds, Visibility visibility) {
        int span = spanSeconds(bucketSeconds);
        Reports.Partitions report = bucketSeconds >= 60
                ? engine.observations().partitionMinutes(t, index, span / 60)
                : engine.observations().partitions(t, index, span);
        long lastBucket = Math.floorDiv(report.toSecond(), bucketSeconds) * bucketSeconds;
        int n = span / bucketSeconds;
        long firstBucket = lastBucket - (long) (n - 1) * bucketSeconds;
        List<Long> columns = new ArrayList<>(n);
        for (int c = 0; c < n; c++) columns.add(firstBucket + (long) c * bucketSeconds);
        boolean keys = visibility.keys(t, index);
        List<View.HeatRow> rows = new ArrayList<>();
        for (Reports.Partition p : report.partitions()) {
            double[] read = new double[n];
            double[] write = new double[n];
            long[] throttles = new long[n];
            for (Reports.PartitionSecond s : p.seconds()) {
                int c = (int) Math.floorDiv(s.second() - firstBucket, bucketSeconds);
                if (c < 0 || c >= n) continue;
                read[c] += s.readUnits();
                write[c] += s.writeUnits();
                throttles[c] += s.throttleEvents();
            }
            List<Double> cells = new ArrayList<>(n);
            List<Double> readPerSecond = new ArrayList<>(n);
            List<Double> writePerSecond = new ArrayList<>(n);
            List<Long> throttleList = new ArrayList<>(n);
            for (int c = 0; c < n; c++) {
                double r = read[c] / bucketSeconds;
                double w = write[c] / bucketSeconds;
                readPerSecond.add(round(r));
                writePerSecond.add(round(w));
                cells.add(round(Math.max(r / View.PARTITION_READ_CEILING, w / View.PARTITION_WRITE_CEILING)));
                throttleList.add(throttles[c]);
            }
            int splitColumn = p.splitAt() < 0 ? -1 : (int) Math.floorDiv(p.splitAt() - firstBucket, bucketSeconds);
            if (splitColumn >= n) splitColumn = -1;
            rows.add(new View.HeatRow(hash(p.firstHash()), hash(p.lastHash()), cells, readPerSecond, writePerSecond,
                    throttleList, splitColumn, keys ? keyUnits(p.topKeys()) : null));
        }
        List<String> indexes = t.globalIndexes().stream().map(IndexDefinition::name).toList();
        return new View.HeatMap(t.name(), index == null ? null : index.name(), true, bucketSeconds, firstBucket,
                lastBucket + bucketSeconds - 1, columns, rows, indexes);
    }

    /** One cell: a partition's busiest keys from {@code fromSecond} for {@code bucketSeconds}. */
    public View.HeatCell heatCell(TableDefinition t, IndexDefinition index, String firstHash, long fromSecond,
                                  int bucketSeconds, Visibility visibility) {
        long toSecond = fromSecond + bucketSeconds - 1;
        Reports.Partitions report = engine.observations().partitions(t, index, fromSecond, toSecond);
        for (Reports.Partition p : report.partitions()) {
            if (!hash(p.firstHash()).equals(firstHash)) continue;
            return new View.HeatCell(t.name(), index == null ? null : index.name(), firstHash, fromSecond, toSecond,
                    round(p.readUnits()), round(p.writeUnits()), visibility.keys(t, index) ? keyUnits(p.topKeys()) : null);
        }
        return new View.HeatCell(t.name(), index == null ? null : index.name(), firstHash, fromSecond, toSecond, 0, 0,
                visibility.keys(t, index) ? List.of() : null);
    }

    private static List<View.KeyUnits> keyUnits(List<Reports.KeyUnits> keys) {
        List<View.KeyUnits> out = new ArrayList<>();
        for (Reports.KeyUnits k : keys.subList(0, Math.min(KEYS_PER_PARTITION, keys.size()))) {
            out.add(new View.KeyUnits(k.key(), k.readUnits(), k.writeUnits()));
        }
        return out;
    }

    /** A partition's first or last hash as the read API writes it: 16 hexadecimal digits. */
    public static String hash(long hash) {
        return String.format("%016x", hash);
    }

    private static double round(double v) {
        return Math.round(v * 1000) / 1000.0;
    }

    // ---- Top keys, throttle events, access patterns, findings, cost -------------------------------

    public View.TopKeys topKeys(TableDefinition t, IndexDefinition index, int minutes, int top, Visibility visibility) {
        boolean keys = visibility.keys(t, index);
        var ci = engine.contributorInsights().describe(t, index, engine.observations().clock().instant());
        return new View.TopKeys(t.name(), index == null ? null : index.name(), ci.status().name(),
                keys ? engine.observations().topKeys(t, index, minutes, top) : null, !keys,
                t.globalIndexes().stream().map(IndexDefinition::name).toList());
    }

    public View.ThrottleEvents throttleEvents(TableDefinition t, Visibility visibility) {
        boolean keys = visibility.keys(t, null);
        List<View.Throttle> out = new ArrayList<>();
        List<ThrottleEvent> events = engine.observations().throttleEvents(t);
        for (int i = events.size() - 1; i >= 0; i--) {
            ThrottleEvent e = events.get(i);
            for (var reason : e.reasons()) {
                out.add(new View.Throttle(e.timeMillis(), e.signature().operation().dynamoDbName(),
                        e.signature().describe(), keys ? e.key() : null, reason.reason(), reason.resource(),
                        e.errorType()));
            }
            if (e.reasons().isEmpty()) {
                out.add(new View.Throttle(e.timeMillis(), e.signature().operation().dynamoDbName(),
                        e.signature().describe(), keys ? e.key() : null, null, null, e.errorType()));
            }
        }
        return new View.ThrottleEvents(t.name(), out, !keys);
    }

    public View.AccessPatterns accessPatterns(TableDefinition t, int minutes, Visibility visibility) {
        Reports.AccessPatterns report = engine.observations().accessPatterns(t, minutes);
        boolean shown = visibility.findings(t);
        return new View.AccessPatterns(t.name(), report.fromMinute(), report.toMinute(),
                shown ? patterns(t, report) : List.of(), advisor.prices().date(), advisor.scale(), !shown);
    }

    private List<View.Pattern> patterns(TableDefinition t, Reports.AccessPatterns report) {
        List<PatternCost> costs = PatternCost.of(report.patterns(), t.tableClass(), advisor.prices(), advisor.scale());
        List<View.Pattern> out = new ArrayList<>(costs.size());
        for (int i = 0; i < costs.size(); i++) out.add(new View.Pattern(report.patterns().get(i), costs.get(i)));
        return out;
    }

    /** The findings of one table, or of every table the caller may see ({@code t} null). */
    public View.Findings findings(TableDefinition t, Visibility visibility) {
        List<Finding> out = new ArrayList<>();
        boolean hidden = false;
        for (TableDefinition table : t == null ? tables() : List.of(t)) {
            if (visibility.findings(table)) out.addAll(findings(table));
            else hidden = true;
        }
        out.sort(Comparator.comparing(Finding::severity).reversed().thenComparing(Finding::tableName)
                .thenComparingInt(f -> Integer.parseInt(f.id().substring(1))));
        return new View.Findings(t == null ? null : t.name(), out, hidden, advisor.prices().date(), advisor.scale());
    }

    /** What one table costs (or every table, {@code t} null); its access patterns where the caller may see them. */
    public View.Cost cost(TableDefinition t, Visibility visibility) {
        List<View.TableCost> out = new ArrayList<>();
        for (TableDefinition table : t == null ? tables() : List.of(t)) {
            List<View.Pattern> patterns = visibility.findings(table)
                    ? patterns(table, engine.observations().accessPatterns(table, 60)) : List.of();
            List<View.Pattern> costliest = new ArrayList<>(patterns);
            costliest.sort(Comparator.comparingDouble((View.Pattern p) -> p.cost().dollarsPerMonth()).reversed());
            out.add(new View.TableCost(table.name(), advisor.cost(table),
                    costliest.subList(0, Math.min(PATTERNS_PER_TABLE, costliest.size()))));
        }
        return new View.Cost(out, advisor.prices().date(), advisor.prices().region(), advisor.prices().hoursPerMonth(),
                advisor.scale());
    }
}
