package io.stator.engine.advisor;

import io.stator.engine.table.TableDefinition.TableClass;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.EnumMap;
import java.util.Map;
import java.util.Properties;

/**
 * DynamoDB's prices, dated and sourced, read from one file ({@code prices.properties} beside this
 * class): every dollar the advisor shows is computed here. A month is 730 hours, as AWS bills.
 *
 * @param date    when the figures were read from AWS's price list
 * @param sources where they come from
 */
public record Prices(String date, String region, double hoursPerMonth, Map<TableClass, ClassPrices> classes,
                     String sources) {

    /**
     * One table class's prices, in dollars.
     *
     * @param writeRequestUnitsPerMillion on demand, per million write request units
     * @param readRequestUnitsPerMillion  on demand, per million read request units
     * @param writeCapacityUnitHour       provisioned, per WCU-hour
     * @param readCapacityUnitHour        provisioned, per RCU-hour
     * @param storageGbMonth              per GB-month stored
     */
    public record ClassPrices(double writeRequestUnitsPerMillion, double readRequestUnitsPerMillion,
                              double writeCapacityUnitHour, double readCapacityUnitHour, double storageGbMonth) {}

    private static final Prices STANDARD = load();

    /** The prices this build carries. */
    public static Prices standard() { return STANDARD; }

    private static Prices load() {
        Properties p = new Properties();
        try (InputStream in = Prices.class.getResourceAsStream("prices.properties")) {
            if (in == null) throw new IllegalStateException("prices.properties is missing from the build");
            p.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Map<TableClass, ClassPrices> classes = new EnumMap<>(TableClass.class);
        for (TableClass c : TableClass.values()) {
            classes.put(c, new ClassPrices(number(p, c + ".writeRequestUnitsPerMillion"),
                    number(p, c + ".readRequestUnitsPerMillion"), number(p, c + ".writeCapacityUnitHour"),
                    number(p, c + ".readCapacityUnitHour"), number(p, c + ".storageGbMonth")));
        }
        return new Prices(p.getProperty("date"), p.getProperty("region"), number(p, "hoursPerMonth"), classes,
                p.getProperty("sources"));
    }

    private static double number(Properties p, String name) {
        String v = p.getProperty(name);
        if (v == null) throw new IllegalStateException("prices.properties has no " + name);
        return Double.parseDouble(v.trim());
    }

    /** The seconds in a billed month. */
    public double secondsPerMonth() { return hoursPerMonth * 3600; }

    /** On demand: a month of these request units per second. */
    public double onDemandMonthly(TableClass tableClass, double readUnitsPerSecond, double writeUnitsPerSecond) {
        ClassPrices c = classes.get(tableClass);
        return secondsPerMonth() / 1e6
                * (readUnitsPerSecond * c.readRequestUnitsPerMillion() + writeUnitsPerSecond * c.writeRequestUnitsPerMillion());
    }

    /** Provisioned: a month of this much capacity provisioned. */
    public double provisionedMonthly(TableClass tableClass, double readCapacityUnits, double writeCapacityUnits) {
        ClassPrices c = classes.get(tableClass);
        return hoursPerMonth * (readCapacityUnits * c.readCapacityUnitHour() + writeCapacityUnits * c.writeCapacityUnitHour());
    }

    /**
     * What capacity provisioned at these rates costs as a share of the same rates on demand: the
     * utilisation (average over provisioned) above which provisioned is the cheaper (28.9% with
     * 2024-11's prices, for reads and writes alike: advisor.md, section 5).
     */
    public double breakEvenUtilisation(TableClass tableClass, double readUnitsPerSecond, double writeUnitsPerSecond) {
        return provisionedMonthly(tableClass, readUnitsPerSecond, writeUnitsPerSecond)
                / onDemandMonthly(tableClass, readUnitsPerSecond, writeUnitsPerSecond);
    }

    /** A month of this many bytes stored (the first 25 GB of free tier not taken off). */
    public double storageMonthly(TableClass tableClass, double bytes) {
        return bytes / 1e9 * classes.get(tableClass).storageGbMonth();
    }
}
