package io.stator.engine.advisor;

import io.stator.engine.table.TableCounters;
import io.stator.engine.table.TableDefinition;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The data-model advisor: its findings, computed on request from what {@link Observations}
 * recorded of each table and its global indexes (docs/advisor.md, "The findings"). Each
 * {@link FindingRule} is one finding's detection; a rule that fails is reported once and left out,
 * never failing the answer.
 */
public final class Advisor {

    /** Every finding's rule, in the order of their ids. */
    private static final List<FindingRule> RULES = List.of(HotPartitionKeys.WRITES, HotPartitionKeys.READS,
            new HotItems(), new HotModelledPartitions(), new LowCardinalityKeys(), new TimeBucketKeys(),
            new ScanOnHotPath(), new FilterDiscards(), new SkewedIndexKeys(), new IndexWriteAmplification(),
            new UnusedIndexes(), new LargeItems(), new UnboundedCollections(), new ConsistentReadsByDefault(),
            new CapacityModeFit(), new ThrottlesObserved(), new OnDemandSpikes());

    private final Observations observations;
    private final TableCounters counters;
    private final Prices prices;
    private final double scale;
    private final AtomicBoolean faultReported = new AtomicBoolean();

    /**
     * @param scale the production multiplier (--advisor-scale): observed rates times this are the
     *              rates the findings judge and price
     */
    public Advisor(Observations observations, TableCounters counters, Prices prices, double scale) {
        if (!(scale > 0) || Double.isInfinite(scale)) throw new IllegalArgumentException("scale must be positive: " + scale);
        this.observations = observations;
        this.counters = counters;
        this.prices = prices;
        this.scale = scale;
    }

    public double scale() { return scale; }

    public Prices prices() { return prices; }

    /** One table's findings, the most severe first. */
    public List<Finding> findings(TableDefinition table) {
        AdvisorContext context = context(table);
        List<Finding> out = new ArrayList<>();
        for (FindingRule rule : RULES) {
            List<Finding> found = new ArrayList<>();
            try {
                rule.find(context, found);
                out.addAll(found);
            } catch (RuntimeException e) {
                if (!faultReported.getAndSet(true)) {
                    System.err.println("stator: the advisor left out a finding it could not compute (reported once): " + e);
                }
            }
        }
        out.sort(ORDER);
        return out;
    }

    /** What the table costs a month in each capacity mode and table class; null when it had no traffic. */
    public Reports.TableCost cost(TableDefinition table) {
        return CapacityModeFit.cost(context(table));
    }

    private AdvisorContext context(TableDefinition table) {
        return new AdvisorContext(observations, counters, table, counters.itemCount(table.id()),
                counters.sizeBytes(table.id()), prices, scale);
    }

    /** Every table's findings, the most severe first. */
    public List<Finding> findings(Collection<TableDefinition> tables) {
        List<Finding> out = new ArrayList<>();
        for (TableDefinition t : tables) out.addAll(findings(t));
        out.sort(ORDER);
        return out;
    }

    private static final Comparator<Finding> ORDER = Comparator.comparing(Finding::severity).reversed()
            .thenComparing(Finding::tableName).thenComparing(f -> f.indexName() == null ? "" : f.indexName())
            .thenComparingInt(f -> Integer.parseInt(f.id().substring(1)));
}
