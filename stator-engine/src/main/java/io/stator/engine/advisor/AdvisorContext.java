package io.stator.engine.advisor;

import io.stator.core.model.AttributeValue;
import io.stator.engine.item.RowKeys;
import io.stator.engine.table.IndexDefinition;
import io.stator.engine.table.TableCounters;
import io.stator.engine.table.TableDefinition;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What a {@link FindingRule} reads of one table: its definition, its and its global indexes'
 * seconds and minutes, its access patterns, its throttles, its size, and how to project and price
 * them. Made per request for findings; nothing here is kept.
 */
final class AdvisorContext {

    /** The span the access patterns are read over, in minutes (all Observations keeps). */
    static final int PATTERN_MINUTES = 60;

    private final Observations observations;
    private final TableCounters counters;
    private final TableDefinition table;
    private final long itemCount;
    private final long sizeBytes;
    private final Prices prices;
    private final double scale;
    private final long nowMillis;
    private List<PatternFigures> patterns;

    AdvisorContext(Observations observations, TableCounters counters, TableDefinition table, long itemCount,
                   long sizeBytes, Prices prices, double scale) {
        this.observations = observations;
        this.counters = counters;
        this.table = table;
        this.itemCount = itemCount;
        this.sizeBytes = sizeBytes;
        this.prices = prices;
        this.scale = scale;
        this.nowMillis = observations.clock().millis();
    }

    TableDefinition table() { return table; }

    /** The table's global secondary indexes (a local index's traffic is its table's). */
    List<IndexDefinition> globalIndexes() {
        List<IndexDefinition> out = new ArrayList<>();
        for (IndexDefinition i : table.indexes()) if (i.global()) out.add(i);
        return out;
    }

    /** The table (null) and each global index: what per-resource rules walk. */
    List<IndexDefinition> resources() {
        List<IndexDefinition> out = new ArrayList<>();
        out.add(null);
        out.addAll(globalIndexes());
        return out;
    }

    /** The seconds kept (the last 300) of the table's (null) or a global index's traffic, the open one last. */
    List<ResourceSummary> seconds(IndexDefinition index) { return observations.seconds(table, index); }

    /** The minutes kept (the last 60), the open one last. */
    List<ResourceSummary> minutes(IndexDefinition index) { return observations.minutes(table, index); }

    /** The table's items served one at a time over the minutes kept, by size. */
    Reports.ItemSizes itemSizes() { return observations.itemSizes(table, ResourceObservations.MINUTES_KEPT); }

    /** The runs of closed minutes one partition key led by writes (kept past the 60 minutes), oldest first. */
    List<ResourceObservations.Lead> leads(IndexDefinition index) { return observations.leads(table, index); }

    /** The table's access patterns over the last hour, the costliest first. */
    List<PatternFigures> patterns() {
        if (patterns == null) patterns = observations.accessPatterns(table, PATTERN_MINUTES).patterns();
        return patterns;
    }

    /** The table's access patterns in each second kept (the last 300), the open one last. */
    List<TableObservations.PatternWindow> patternSeconds() {
        TableObservations t = observations.tableObservations(table);
        return t == null ? List.of() : t.patternSeconds(nowMillis);
    }

    /** The table's (null) or a global index's modelled partitions as they are now, with their seconds kept. */
    Reports.Partitions partitions(IndexDefinition index) {
        return observations.partitions(table, index, ResourceObservations.SECONDS_KEPT);
    }

    List<ThrottleEvent> throttleEvents() { return observations.throttleEvents(table); }

    /** The table's largest items (at least {@link LargeItems#WARN_BYTES}) of the last hour, the largest first. */
    List<LargestItems.Seen> largestItems() { return observations.largestItems(table); }

    /** The table's items and bytes now (DescribeTable's ItemCount and TableSizeBytes). */
    long itemCount() { return itemCount; }

    long sizeBytes() { return sizeBytes; }

    /** A global index's size now (DescribeTable's IndexSizeBytes). */
    long indexSizeBytes(IndexDefinition index) { return counters.indexSizeBytes(table.id(), index.id()); }

    /**
     * An item collection's size now, its items and their local index entries: kept only for a
     * table with a local index (what its 10 GB limit is enforced on); 0 otherwise.
     */
    long collectionSizeBytes(KeyBytes partitionKey) {
        Map<String, AttributeValue> key = values(partitionKey, null);
        return key == null ? 0 : counters.collectionSize(table.id(), RowKeys.partitionKey(table, key));
    }

    Prices prices() { return prices; }

    /** The production multiplier (--advisor-scale): observed rates times this are the projected ones. */
    double scale() { return scale; }

    long nowMillis() { return nowMillis; }

    /** A key of the table's (index null) or an index's, as attribute values. */
    Map<String, AttributeValue> values(KeyBytes key, IndexDefinition index) { return key.values(table, index); }

    Finding.Key key(KeyBytes key, IndexDefinition index) { return new Finding.Key(values(key, index)); }

    /** A finding about this table, or one of its global indexes. */
    Finding finding(String id, String title, Finding.Severity severity, IndexDefinition index, String summary,
                    Map<String, Object> evidence, long fromMillis, long toMillis, String fix, List<String> sources,
                    Double dollarsPerMonth) {
        return new Finding(id, title, severity, table.name(), index == null ? null : index.name(), summary, evidence,
                fromMillis, toMillis, fix, sources, dollarsPerMonth);
    }
}
