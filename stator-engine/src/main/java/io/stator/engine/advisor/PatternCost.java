package io.stator.engine.advisor;

import io.stator.engine.table.TableDefinition.TableClass;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What an access pattern costs a month (advisor.md, section 6, "Cost per access pattern"), from
 * {@link Prices} in the table's class.
 *
 * <ul>
 *   <li>On demand: its units a second, averaged over the seconds it was active (its first to its
 *       last, both counted) and projected by the scale, for a 730-hour month, at the on-demand
 *       unit prices; split into the table's units and each secondary index's.</li>
 *   <li>Provisioned: its busiest second's units, projected, over a
 *       {@value CapacityModeFit#TARGET_UTILISATION} target utilisation (the TOOLS cost template's
 *       efficiency), at the provisioned prices: what capacity for it alone would cost.</li>
 *   <li>Its share of the table: what it spent over the span read (its units at on-demand prices)
 *       over what every pattern of the table spent; the shares add up to 1.</li>
 * </ul>
 *
 * @param indexDollarsPerMonth on demand, per secondary index it read or wrote
 */
public record PatternCost(double dollarsPerMonth, double tableDollarsPerMonth, Map<String, Double> indexDollarsPerMonth,
                          double provisionedDollarsPerMonth, double shareOfTable) {

    /** Each pattern's cost, in the order given; the shares are of these patterns together. */
    public static List<PatternCost> of(List<PatternFigures> patterns, TableClass tableClass, Prices prices,
                                       double scale) {
        if (tableClass == null) tableClass = TableClass.STANDARD;
        double[] spent = new double[patterns.size()];
        double spentByAll = 0;
        for (int i = 0; i < patterns.size(); i++) {
            PatternFigures p = patterns.get(i);
            spent[i] = prices.onDemandMonthly(tableClass, readHalves(p) / 2.0, writeHalves(p) / 2.0);
            spentByAll += spent[i];
        }
        List<PatternCost> out = new ArrayList<>(patterns.size());
        for (int i = 0; i < patterns.size(); i++) {
            PatternFigures p = patterns.get(i);
            // Halves to units a second over its active seconds, projected.
            double perSecond = scale / 2.0 / Math.max(1, p.activeSeconds());
            double table = prices.onDemandMonthly(tableClass, p.tableReadHalves() * perSecond,
                    p.tableWriteHalves() * perSecond);
            double total = table;
            Map<String, Double> indexes = new TreeMap<>();
            for (Map.Entry<String, PatternFigures.IndexFigures> e : p.indexes().entrySet()) {
                double cost = prices.onDemandMonthly(tableClass, e.getValue().readHalves() * perSecond,
                        e.getValue().writeHalves() * perSecond);
                indexes.put(e.getKey(), cost);
                total += cost;
            }
            long halves = readHalves(p) + writeHalves(p);
            double readShare = halves == 0 ? 0 : (double) readHalves(p) / halves;
            double peak = p.peakHalvesPerSecond() / 2.0 * scale / CapacityModeFit.TARGET_UTILISATION;
            double provisioned = prices.provisionedMonthly(tableClass, peak * readShare, peak * (halves == 0 ? 0
                    : 1 - readShare));
            out.add(new PatternCost(total, table, indexes, provisioned, spentByAll == 0 ? 0 : spent[i] / spentByAll));
        }
        return out;
    }

    private static long readHalves(PatternFigures p) {
        long sum = p.tableReadHalves();
        for (PatternFigures.IndexFigures i : p.indexes().values()) sum += i.readHalves();
        return sum;
    }

    private static long writeHalves(PatternFigures p) {
        long sum = p.tableWriteHalves();
        for (PatternFigures.IndexFigures i : p.indexes().values()) sum += i.writeHalves();
        return sum;
    }
}
