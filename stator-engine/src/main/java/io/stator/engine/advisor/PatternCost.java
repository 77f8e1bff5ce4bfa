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
 *   <li>On demand: its units a second over the table's session (from the first second any of the
 *       table's patterns ran to the last, both counted: {@link #sessionSeconds}) projected by the
 *       scale, for a 730-hour month, at the on-demand unit prices; split into the table's units and
 *       each secondary index's. Over the session, not over the pattern's own active seconds: a job
 *       that ran once in a ten-minute session is priced as one run every ten minutes, not as a
 *       rate kept up all month. The findings price patterns the same way ({@link PatternCosts}).</li>
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
        // Halves to units a second over the session, projected.
        double perSecond = scale / 2.0 / sessionSeconds(patterns);
        for (int i = 0; i < patterns.size(); i++) {
            PatternFigures p = patterns.get(i);
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

    /**
     * A table's session, in seconds: from the first second any of its patterns ran to the last,
     * both counted; at least 1. Ending at the last traffic rather than now keeps a report read
     * after a run from diluting its rates as the clock goes on.
     */
    public static long sessionSeconds(List<PatternFigures> patterns) {
        long first = Long.MAX_VALUE;
        long last = Long.MIN_VALUE;
        for (PatternFigures p : patterns) {
            first = Math.min(first, p.firstSecond());
            last = Math.max(last, p.lastSecond());
        }
        return last < first ? 1 : last - first + 1;
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
