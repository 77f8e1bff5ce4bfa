package io.stator.server.advisor;

import io.stator.core.model.AttributeValue;
import io.stator.engine.advisor.Finding;
import io.stator.engine.advisor.PatternCost;
import io.stator.engine.advisor.PatternFigures;
import io.stator.engine.advisor.Reports;
import java.util.List;
import java.util.Map;

/**
 * What the console's pages show, one record per page, built by {@link Views}: the console renders
 * them as HTML and the read API writes the same records as JSON ({@link RecordJson}), so that
 * every page has its JSON twin. Units are units a second unless named otherwise; dollars are a
 * month at the advisor's scale. Keys and items are null where the caller may not read them.
 */
public final class View {

    private View() {}

    /** The modelled partition's ceilings (developer guide, burst-adaptive-capacity). */
    public static final int PARTITION_READ_CEILING = 3_000;
    public static final int PARTITION_WRITE_CEILING = 1_000;

    /** Every table, now. */
    public record Overview(long second, List<TableRow> tables, int critical, int warn, int info,
                           double dollarsPerMonth, String pricesDate, double scale) {}

    /**
     * One table's line: its units in the last second against its own ceiling (what its buckets
     * admit now: provisioned capacity, the on-demand maximum, or the table quota) and its busiest modelled
     * partition's against the partition's.
     */
    public record TableRow(String tableName, String billingMode, String tableClass, long itemCount,
                           long sizeBytes, double readUnits, double writeUnits, double readCeiling,
                           double writeCeiling, double hottestPartitionReadUnits, double hottestPartitionWriteUnits,
                           int partitions, long throttleEvents, int critical, int warn, int info,
                           Double dollarsPerMonth) {

        /** The larger of its read and write shares of the table's ceiling. */
        public double tableShare() {
            return Math.max(share(readUnits, readCeiling), share(writeUnits, writeCeiling));
        }

        /** The larger of its busiest partition's read and write shares of the partition's ceiling. */
        public double partitionShare() {
            return Math.max(hottestPartitionReadUnits / PARTITION_READ_CEILING,
                    hottestPartitionWriteUnits / PARTITION_WRITE_CEILING);
        }
    }

    static double share(double units, double ceiling) {
        return ceiling > 0 ? units / ceiling : 0;
    }

    /** One table: its shape, its size, and a page of its items. */
    public record Table(String tableName, String billingMode, String tableClass, String partitionKey,
                        String sortKey, List<Index> indexes, long itemCount, long sizeBytes, List<SizeBar> itemSizes,
                        List<Collection> collections, boolean collectionsKept, List<String> columns,
                        List<Map<String, AttributeValue>> items, boolean itemsHidden) {}

    /** A secondary index: kind (GSI or LSI), keys, projection, size, entry size, status. */
    public record Index(String indexName, String kind, String partitionKey, String sortKey, String projection,
                        List<String> nonKeyAttributes, long itemCount, long sizeBytes, double averageEntryBytes,
                        String status, boolean backfilling) {}

    /** Items read or written one at a time in the last hour, from {@code lowBytes} up. */
    public record SizeBar(String label, long lowBytes, long count) {}

    /** An item collection (a partition key's items and their local index entries) and its size. */
    public record Collection(Map<String, AttributeValue> key, long sizeBytes) {}

    /**
     * The partition heat map of a table or global index: rows are the modelled partitions, columns
     * time buckets of {@code bucketSeconds}; a cell is the larger of the read and write shares of
     * the partition's ceiling over its bucket (units a second averaged over the bucket).
     */
    public record HeatMap(String tableName, String indexName, boolean modelled, int bucketSeconds, long fromSecond,
                          long toSecond, List<Long> columns, List<HeatRow> rows, List<String> indexes) {}

    /**
     * One modelled partition's row.
     *
     * @param splitColumn the column in which it was split off a wider partition, or -1
     * @param cells       the share of the ceiling in each column (1.0 is 100%)
     */
    public record HeatRow(String firstHash, String lastHash, List<Double> cells, List<Double> readUnits,
                          List<Double> writeUnits, List<Long> throttleEvents, int splitColumn,
                          List<KeyUnits> topKeys) {}

    /** A key and its units over a span (null key: the caller may not read keys). */
    public record KeyUnits(Map<String, AttributeValue> key, double readUnits, double writeUnits) {}

    /** The partitions' busiest keys in one cell of the heat map. */
    public record HeatCell(String tableName, String indexName, String firstHash, long fromSecond, long toSecond,
                           double readUnits, double writeUnits, List<KeyUnits> topKeys) {}

    /** Contributor Insights' four graphs, with the resource's Contributor Insights status. */
    public record TopKeys(String tableName, String indexName, String status, Reports.TopKeys graphs,
                          boolean keysHidden, List<String> indexes) {}

    /** A table's throttled requests, the latest first. */
    public record ThrottleEvents(String tableName, List<Throttle> events, boolean keysHidden) {}

    /** One throttled request: when, what, which key, why, on which resource, as which error. */
    public record Throttle(long timeMillis, String operation, String signature, Map<String, AttributeValue> key,
                           String reason, String resource, String errorType) {}

    /** A table's access patterns with their cost (hidden: the caller may not describe the table). */
    public record AccessPatterns(String tableName, long fromMinute, long toMinute, List<Pattern> patterns,
                                 String pricesDate, double scale, boolean hidden) {}

    public record Pattern(PatternFigures figures, PatternCost cost) {}

    /** The findings of one table or of all, the most severe first. */
    public record Findings(String tableName, List<Finding> findings, boolean hidden, String pricesDate, double scale) {}

    /**
     * What tables cost a month: each priced in each capacity mode and table class (the what-if),
     * its indexes, and its costliest access patterns.
     */
    public record Cost(List<TableCost> tables, String pricesDate, String pricesRegion, double hoursPerMonth,
                       double scale) {}

    public record TableCost(String tableName, Reports.TableCost cost, List<Pattern> patterns) {}
}
