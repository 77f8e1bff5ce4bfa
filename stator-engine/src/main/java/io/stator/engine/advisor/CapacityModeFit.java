package io.stator.engine.advisor;

import io.stator.engine.table.IndexDefinition;
import io.stator.engine.table.TableDefinition;
import io.stator.engine.table.TableDefinition.BillingMode;
import io.stator.engine.table.TableDefinition.TableClass;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * F15, capacity mode or table class misfit: the table would cost less a month in the other
 * capacity mode, the other table class, or both (advisor.md, sections 5 and 6).
 *
 * <p><b>What is compared.</b> The table's traffic over the minutes observed (the last hour at
 * most, from its first busy minute to now, at least {@value #MIN_SPAN_MINUTES} minutes), table and
 * global indexes together, projected by the scale, priced four ways: each capacity mode in each
 * table class, storage included. On demand bills the average rate. Provisioned bills, for a
 * provisioned table, the capacity it has (projected too); for an on-demand one, the busiest second's rate over a
 * {@value #TARGET_UTILISATION} target utilisation, as the TOOLS cost template prices provisioned
 * capacity with an efficiency factor ("achieving 50% efficiency is good"). The cheapest of the four
 * is the finding's advice when it saves at least {@value #MIN_SAVING_DOLLARS} dollar a month. The
 * table's size (its items' bytes and 100 bytes an item, as DynamoDB bills storage; its indexes'
 * entries are left out) is projected by the scale like its traffic, so that the ratio of the two,
 * which decides the class, is the one observed.
 *
 * <p><b>Utilisation.</b> An on-demand table has nothing provisioned, so its utilisation is its
 * average rate over its busiest second's (what provisioning must cover), both priced on demand so
 * that reads and writes weigh as they bill; a provisioned table's is its average over what it has
 * provisioned. Provisioned pays above the break-even utilisation, provisioned price over on-demand
 * price at the same rate (28.9% with 2024-11's prices, derived from {@link Prices}); at a 50%
 * target, an on-demand table pays to switch above twice that, 57.8%. Standard-IA pays when storage
 * is more than a share of the throughput's cost derived from the two classes' prices (41.7%: its
 * throughput costs 25% more, its storage 60% less; TOOLS' Table Class Evaluator says 42%).
 */
final class CapacityModeFit implements FindingRule {

    static final int SPAN_MINUTES = 60;
    static final int MIN_SPAN_MINUTES = 10;
    /** The provisioned utilisation assumed for an on-demand table (TOOLS cost template's efficiency). */
    static final double TARGET_UTILISATION = 0.5;
    /** Less than this saved a month is not worth a finding. */
    static final double MIN_SAVING_DOLLARS = 1.0;
    /** What DynamoDB bills per item stored beyond its size (dynamodb-throughput.md, section 12). */
    static final long ITEM_OVERHEAD_BYTES = 100;

    static final String FIX_MODE = "Switch the capacity mode (UpdateTable BillingMode): provisioned capacity with auto "
            + "scaling suits steady, predictable traffic; on demand suits spiky or unpredictable traffic and idle tables. "
            + "A table may switch to on demand up to four times in 24 hours.";
    static final String FIX_CLASS = "Switch the table class (UpdateTable TableClass): Standard-IA stores for 60% less "
            + "and serves throughput for 25% more, so it suits tables whose storage outweighs their traffic.";
    static final List<String> SOURCES = List.of("CostOptimization_TableCapacityMode", "CostOptimization_TableClass",
            "bp-switching-capacity-modes", "awslabs/amazon-dynamodb-tools: Cost Template, Table Class Evaluator");

    /** Units per second: averages over the span and the busiest second, projected. */
    record Rates(double averageRead, double averageWrite, double peakRead, double peakWrite) {

        Rates plus(Rates o) {
            return new Rates(averageRead + o.averageRead, averageWrite + o.averageWrite, peakRead + o.peakRead,
                    peakWrite + o.peakWrite);
        }

        Rates times(double f) {
            return new Rates(averageRead * f, averageWrite * f, peakRead * f, peakWrite * f);
        }
    }

    /**
     * What the table uses, each resource (the table, each global index) apart.
     *
     * @param provisioned each resource's read and write capacity units (projected), or null on demand
     */
    record Usage(List<Rates> rates, List<double[]> provisioned, double storageBytes) {

        Rates total() {
            Rates t = new Rates(0, 0, 0, 0);
            for (Rates r : rates) t = t.plus(r);
            return t;
        }
    }

    /** A month's cost in one mode and class: throughput and storage. */
    static double monthly(Prices prices, Usage usage, boolean provisioned, TableClass tableClass) {
        return throughputMonthly(prices, usage, provisioned, tableClass) + prices.storageMonthly(tableClass,
                usage.storageBytes());
    }

    static double throughputMonthly(Prices prices, Usage usage, boolean provisioned, TableClass tableClass) {
        double sum = 0;
        for (int i = 0; i < usage.rates().size(); i++) {
            Rates r = usage.rates().get(i);
            if (!provisioned) {
                sum += prices.onDemandMonthly(tableClass, r.averageRead(), r.averageWrite());
            } else if (usage.provisioned() != null) {
                double[] units = usage.provisioned().get(i);
                sum += prices.provisionedMonthly(tableClass, units[0], units[1]);
            } else {
                // One unit of each is the least a table or index may have provisioned.
                sum += prices.provisionedMonthly(tableClass, Math.max(1, r.peakRead() / TARGET_UTILISATION),
                        Math.max(1, r.peakWrite() / TARGET_UTILISATION));
            }
        }
        return sum;
    }

    /**
     * The table's traffic of the last hour from its first busy minute, with what it has
     * provisioned, projected; null when it was busy for less than {@code minSpanMinutes}.
     *
     * @param first the first busy minute (minutes since the epoch)
     */
    record Measured(Usage usage, long first, long spanMinutes, boolean provisionedNow, List<double[]> capacity) {}

    static Measured measure(AdvisorContext context, int minSpanMinutes) {
        TableDefinition table = context.table();
        long nowMinute = Math.floorDiv(context.nowMillis(), 60_000);
        long fromMinute = nowMinute - SPAN_MINUTES + 1;
        long first = Long.MAX_VALUE;
        List<IndexDefinition> resources = context.resources();
        List<List<ResourceSummary>> minutes = new ArrayList<>();
        for (IndexDefinition r : resources) {
            List<ResourceSummary> busy = new ArrayList<>();
            for (ResourceSummary m : context.minutes(r)) {
                if (m.period() < fromMinute || m.readHalves() + m.writeHalves() == 0) continue;
                busy.add(m);
                first = Math.min(first, m.period());
            }
            minutes.add(busy);
        }
        if (first == Long.MAX_VALUE || nowMinute - first + 1 < minSpanMinutes) return null;
        long spanMinutes = nowMinute - first + 1;
        double seconds = spanMinutes * 60.0;

        boolean provisionedNow = table.billingMode() == BillingMode.PROVISIONED;
        List<Rates> rates = new ArrayList<>();
        List<double[]> capacity = provisionedNow ? new ArrayList<>() : null;
        for (int i = 0; i < resources.size(); i++) {
            long read = 0;
            long write = 0;
            long peakRead = 0;
            long peakWrite = 0;
            for (ResourceSummary m : minutes.get(i)) {
                read += m.readHalves();
                write += m.writeHalves();
                peakRead = Math.max(peakRead, m.peakReadHalves());
                peakWrite = Math.max(peakWrite, m.peakWriteHalves());
            }
            rates.add(new Rates(read / 2.0 / seconds, write / 2.0 / seconds, peakRead / 2.0, peakWrite / 2.0)
                    .times(context.scale()));
            if (provisionedNow) {
                IndexDefinition r = resources.get(i);
                TableDefinition.ProvisionedThroughput t = r == null ? table.throughput() : r.throughput();
                // Projected like the traffic: the table here is production's at 1/scale.
                capacity.add(t == null ? new double[] {0, 0} : new double[] {t.readCapacityUnits() * context.scale(),
                        t.writeCapacityUnits() * context.scale()});
            }
        }
        // Storage is projected too: the ratio of storage to traffic, which decides the class, stays the observed one.
        Usage usage = new Usage(rates, capacity,
                (context.sizeBytes() + (double) ITEM_OVERHEAD_BYTES * context.itemCount()) * context.scale());
        return new Measured(usage, first, spanMinutes, provisionedNow, capacity);
    }

    /** What the table costs a month in each capacity mode and table class, for the Cost page (null: no traffic). */
    static Reports.TableCost cost(AdvisorContext context) {
        Measured m = measure(context, 1);
        if (m == null) return null;
        Prices prices = context.prices();
        Map<String, Map<String, Double>> monthly = new LinkedHashMap<>();
        for (boolean provisioned : new boolean[] {false, true}) {
            Map<String, Double> byClass = new LinkedHashMap<>();
            for (TableClass c : TableClass.values()) byClass.put(c.name(), monthly(prices, m.usage(), provisioned, c));
            monthly.put(provisioned ? BillingMode.PROVISIONED.name() : BillingMode.PAY_PER_REQUEST.name(), byClass);
        }
        TableClass classNow = PatternCosts.tableClass(context);
        List<Reports.ResourceCost> resources = new ArrayList<>();
        List<IndexDefinition> rs = context.resources();
        for (int i = 0; i < rs.size(); i++) {
            Rates r = m.usage().rates().get(i);
            resources.add(new Reports.ResourceCost(rs.get(i) == null ? null : rs.get(i).name(), r.averageRead(),
                    r.averageWrite(), r.peakRead(), r.peakWrite(),
                    prices.onDemandMonthly(classNow, r.averageRead(), r.averageWrite())));
        }
        return new Reports.TableCost(context.table().billingMode().name(), classNow.name(), m.spanMinutes(),
                context.scale(), monthly, m.usage().storageBytes(),
                prices.storageMonthly(classNow, m.usage().storageBytes()), resources);
    }

    @Override
    public void find(AdvisorContext context, List<Finding> out) {
        TableDefinition table = context.table();
        Measured measured = measure(context, MIN_SPAN_MINUTES);
        if (measured == null) return;
        Usage usage = measured.usage();
        long first = measured.first();
        long spanMinutes = measured.spanMinutes();
        boolean provisionedNow = measured.provisionedNow();
        List<double[]> capacity = measured.capacity();
        Prices prices = context.prices();
        TableClass classNow = PatternCosts.tableClass(context);

        Map<String, Object> costs = new LinkedHashMap<>();
        boolean bestProvisioned = provisionedNow;
        TableClass bestClass = classNow;
        double now = monthly(prices, usage, provisionedNow, classNow);
        double best = now;
        for (boolean provisioned : new boolean[] {false, true}) {
            Map<String, Object> byClass = new LinkedHashMap<>();
            for (TableClass c : TableClass.values()) {
                double cost = monthly(prices, usage, provisioned, c);
                byClass.put(c.name(), cost);
                if (cost < best) {
                    best = cost;
                    bestProvisioned = provisioned;
                    bestClass = c;
                }
            }
            costs.put(provisioned ? BillingMode.PROVISIONED.name() : BillingMode.PAY_PER_REQUEST.name(), byClass);
        }
        if (now - best < MIN_SAVING_DOLLARS) return;

        Rates total = usage.total();
        // The rate provisioning is measured against: what is provisioned, or the busiest second.
        double referenceRead = total.peakRead();
        double referenceWrite = total.peakWrite();
        if (provisionedNow) {
            referenceRead = 0;
            referenceWrite = 0;
            for (double[] c : capacity) {
                referenceRead += c[0];
                referenceWrite += c[1];
            }
        }
        double atReference = prices.onDemandMonthly(classNow, referenceRead, referenceWrite);
        double utilisation = atReference == 0 ? 0 : prices.onDemandMonthly(classNow, total.averageRead(),
                total.averageWrite()) / atReference;
        double breakEven = atReference == 0 ? 0 : prices.breakEvenUtilisation(classNow, referenceRead, referenceWrite);
        double standardThroughput = throughputMonthly(prices, usage, provisionedNow, TableClass.STANDARD);
        double iaThroughput = throughputMonthly(prices, usage, provisionedNow, TableClass.STANDARD_INFREQUENT_ACCESS);
        double standardStorage = prices.storageMonthly(TableClass.STANDARD, usage.storageBytes());
        double iaStorage = prices.storageMonthly(TableClass.STANDARD_INFREQUENT_ACCESS, usage.storageBytes());

        Map<String, Object> evidence = new LinkedHashMap<>();
        evidence.put("billingMode", table.billingMode().name());
        evidence.put("tableClass", classNow.name());
        evidence.put("minutes", spanMinutes);
        evidence.put("scale", context.scale());
        evidence.put("observed", rates(total.times(1 / context.scale())));
        evidence.put("projected", rates(total));
        if (provisionedNow) {
            evidence.put("provisionedReadCapacityUnits", referenceRead);
            evidence.put("provisionedWriteCapacityUnits", referenceWrite);
        }
        // Shares as percentages: the answer rounds numbers to hundredths.
        evidence.put("utilisationPercent", 100 * utilisation);
        evidence.put("breakEvenUtilisationPercent", 100 * breakEven);
        if (!provisionedNow) {
            evidence.put("targetUtilisationPercent", 100 * TARGET_UTILISATION);
            evidence.put("provisionedPaysAbovePercent", 100 * breakEven / TARGET_UTILISATION);
        }
        evidence.put("storageBytes", usage.storageBytes());
        double storageShare = standardThroughput > 0 ? standardStorage / standardThroughput : Double.NaN;
        double iaPaysAbove = (iaThroughput / standardThroughput - 1) / (1 - iaStorage / standardStorage);
        if (standardThroughput > 0 && standardStorage > 0) {
            evidence.put("storageShareOfThroughputPercent", 100 * storageShare);
            evidence.put("standardInfrequentAccessPaysAbovePercent", 100 * iaPaysAbove);
        }
        evidence.put("monthlyCost", costs);
        evidence.put("cheapest", Map.of("billingMode", (bestProvisioned ? BillingMode.PROVISIONED
                : BillingMode.PAY_PER_REQUEST).name(), "tableClass", bestClass.name()));

        List<String> fix = new ArrayList<>();
        if (bestProvisioned != provisionedNow) fix.add(FIX_MODE);
        if (bestClass != classNow) fix.add(FIX_CLASS);
        out.add(context.finding("F15", "Capacity mode or table class misfit", Finding.Severity.INFO, null,
                summary(provisionedNow, classNow, bestProvisioned, bestClass, utilisation, breakEven, storageShare,
                        iaPaysAbove, now, best),
                evidence, first * 60_000, context.nowMillis(), String.join(" ", fix), SOURCES, now - best));
    }

    private static Map<String, Object> rates(Rates r) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("averageReadUnitsPerSecond", r.averageRead());
        m.put("averageWriteUnitsPerSecond", r.averageWrite());
        m.put("peakReadUnitsPerSecond", r.peakRead());
        m.put("peakWriteUnitsPerSecond", r.peakWrite());
        return m;
    }

    private static String summary(boolean provisionedNow, TableClass classNow, boolean provisioned, TableClass tableClass,
                                  double utilisation, double breakEven, double storageShare, double iaPaysAbove,
                                  double now, double best) {
        List<String> changes = new ArrayList<>();
        if (provisioned != provisionedNow) changes.add(provisioned ? "provisioned capacity" : "on demand");
        if (tableClass != classNow) changes.add(tableClass == TableClass.STANDARD ? "Standard" : "Standard-IA");
        String why = "";
        if (provisioned != provisionedNow) {
            why = provisionedNow
                    ? String.format(Locale.ROOT, " (used at %.0f%% of what is provisioned; provisioned pays above %.1f%%)",
                            100 * utilisation, 100 * breakEven)
                    : String.format(Locale.ROOT, " (used at %.0f%% of its peak on demand; at a %.0f%% target utilisation "
                            + "provisioned pays above %.1f%%)", 100 * utilisation, 100 * TARGET_UTILISATION,
                            100 * breakEven / TARGET_UTILISATION);
        }
        if (tableClass != classNow && !Double.isNaN(storageShare)) {
            why += String.format(Locale.ROOT, " (storage costs %.0f%% of the throughput on Standard; Standard-IA pays "
                    + "above %.1f%%)", 100 * storageShare, 100 * iaPaysAbove);
        }
        return String.format(Locale.ROOT, "The table would cost $%,.2f a month with %s instead of $%,.2f%s",
                best, String.join(" and ", changes), now, why);
    }
}
