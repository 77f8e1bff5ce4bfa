package io.stator.engine.advisor;

import io.stator.engine.table.IndexDefinition;
import io.stator.engine.table.TableDefinition.TableClass;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What an access pattern's units cost a month, and the figures the pattern findings (F7, F8,
 * F10 to F14) show of a pattern, in one place.
 *
 * <p><b>Rates.</b> A pattern's units per second are its units over the table's session
 * ({@link PatternCost#sessionSeconds}: from the first second any of the table's patterns ran, in
 * the hour kept, to the last), as the access patterns' costs are. A job that ran once in a
 * ten-minute session is priced as one run every ten minutes, not as a rate kept up all month; the
 * rate is then projected (times {@code --advisor-scale}).
 *
 * <p><b>Prices.</b> On-demand request units of the table's class ({@link Prices#onDemandMonthly}),
 * for a provisioned table too: what the units would cost on demand, since what a provisioned
 * table pays depends on what is provisioned rather than on what one pattern uses.
 */
final class PatternCosts {

    /** Said in the evidence of every finding priced here. */
    static final String PRICED_AS = "on-demand request units of the table's class, at the projected rate over the "
            + "table's session (its first call to its last)";

    private PatternCosts() {}

    static TableClass tableClass(AdvisorContext context) {
        TableClass c = context.table().tableClass();
        return c == null ? TableClass.STANDARD : c;
    }

    /** The table's session in seconds (see {@link PatternCost#sessionSeconds}). */
    static long sessionSeconds(AdvisorContext context) {
        return PatternCost.sessionSeconds(context.patterns());
    }

    /** The seconds from the table's first call to its last (in the hour kept): how long it has had traffic. */
    static long trafficSeconds(AdvisorContext context) {
        return context.patterns().isEmpty() ? 0 : sessionSeconds(context);
    }

    /** A month of these read units (halves) spread over the session, projected. */
    static double readMonthly(AdvisorContext context, long readHalves) {
        return context.prices().onDemandMonthly(tableClass(context), projectedPerSecond(context, readHalves), 0);
    }

    /** A month of these write units (halves) spread over the session, projected. */
    static double writeMonthly(AdvisorContext context, long writeHalves) {
        return context.prices().onDemandMonthly(tableClass(context), 0, projectedPerSecond(context, writeHalves));
    }

    /** Units (halves) per second over the session, projected. */
    static double projectedPerSecond(AdvisorContext context, long halves) {
        return halves / 2.0 / sessionSeconds(context) * context.scale();
    }

    /** A pattern's read units, every arm (the table and each index), in halves. */
    static long readHalves(PatternFigures p) {
        long h = p.tableReadHalves();
        for (PatternFigures.IndexFigures i : p.indexes().values()) h += i.readHalves();
        return h;
    }

    /** A pattern's calls that were served (throttled ones read and wrote nothing). */
    static long served(PatternFigures p) {
        return p.calls() - p.throttled();
    }

    static double units(long halves) {
        return halves / 2.0;
    }

    /** The first moment of a pattern's traffic. */
    static long fromMillis(PatternFigures p) {
        return p.firstSecond() * 1000;
    }

    /** The last moment of a pattern's traffic. */
    static long toMillis(PatternFigures p) {
        return p.lastSecond() * 1000 + 999;
    }

    /** The evidence every pattern finding opens with: the signature and its calls. */
    static Map<String, Object> patternEvidence(PatternFigures p) {
        Map<String, Object> e = new LinkedHashMap<>();
        e.put("signature", p.signature().describe());
        e.put("calls", p.calls());
        e.put("activeSeconds", p.activeSeconds());
        return e;
    }

    /** The index a read pattern read, or null for the table. */
    static IndexDefinition index(AdvisorContext context, Signature s) {
        return s.index() == null ? null : context.table().index(s.index());
    }

    /** The read actions a pattern may be: single items, Queries, Scans (PartiQL SELECTs among them). */
    static boolean isRead(PatternFigures p) {
        return List.of("GetItem", "Query", "Scan").contains(p.signature().action());
    }
}
