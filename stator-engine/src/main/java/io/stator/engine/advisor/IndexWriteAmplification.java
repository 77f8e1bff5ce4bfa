package io.stator.engine.advisor;

import io.stator.engine.table.IndexDefinition;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * F10, global secondary index write amplification (advisor.md, section 6): per write signature,
 * (the table's write units + every global index's) / the table's. Each global index an item is
 * projected into is written with it, and an update that changes an index key writes it twice
 * (developer guide, GSI, "Writes": "If an update to the table changes the value of an indexed key
 * attribute (from A to B), two writes are required"). Local indexes draw on the
 * table and are left out of the factor, as the reference defines it.
 *
 * <p>Warn when the factor is at least {@value #WARN_FACTOR}, or when a global index's key moves on
 * at least half of the signature's writes to that index (a write that wrote an entry of it; a
 * PutItem that replaces an item counts as an update), over at least {@value #MIN_WRITES} writes.
 */
final class IndexWriteAmplification implements FindingRule {

    static final double WARN_FACTOR = 3.0;
    static final double WARN_MOVE_SHARE = 0.50;
    static final int MIN_WRITES = 10;

    private static final String FIX = "Keep global index keys immutable (an attribute that changes on every update "
            + "makes each update a delete and a put on the index); drop global indexes no query needs; project "
            + "KEYS_ONLY or INCLUDE only the attributes the index's queries read, so that fewer updates reach it and "
            + "its entries are smaller.";
    private static final List<String> SOURCES = List.of("bp-indexes-general", "GSI");

    @Override
    public void find(AdvisorContext context, List<Finding> out) {
        for (PatternFigures p : context.patterns()) {
            Signature s = p.signature();
            if (PatternCosts.isRead(p) || "ConditionCheck".equals(s.action())) continue;
            long served = PatternCosts.served(p);
            if (served < MIN_WRITES || p.tableWriteHalves() == 0) continue;
            long indexHalves = 0;
            List<String> moving = new ArrayList<>();
            Map<String, Object> perIndex = new LinkedHashMap<>();
            for (Map.Entry<String, PatternFigures.IndexFigures> e : p.indexes().entrySet()) {
                PatternFigures.IndexFigures f = e.getValue();
                if (!f.global() || f.writeHalves() == 0) continue;
                indexHalves += f.writeHalves();
                double moveShare = f.entriesWritten() == 0 ? 0 : (double) f.keyMoves() / f.entriesWritten();
                if (f.entriesWritten() >= MIN_WRITES && moveShare >= WARN_MOVE_SHARE) moving.add(e.getKey());
                IndexDefinition index = context.table().index(e.getKey());
                Map<String, Object> i = new LinkedHashMap<>();
                i.put("projection", index == null ? null : index.projectionType().name());
                i.put("writeUnits", PatternCosts.units(f.writeHalves()));
                i.put("writeUnitsPerCall", PatternCosts.units(f.writeHalves()) / served);
                i.put("entriesWritten", f.entriesWritten());
                i.put("entriesRemoved", f.entriesRemoved());
                i.put("keyMoves", f.keyMoves());
                i.put("keyMoveShare", moveShare);
                i.put("movedAttributes", f.movedAttributes());
                i.put("dollarsPerMonth", PatternCosts.writeMonthly(context, f.writeHalves()));
                perIndex.put(e.getKey(), i);
            }
            double factor = (double) (p.tableWriteHalves() + indexHalves) / p.tableWriteHalves();
            if (factor < WARN_FACTOR && moving.isEmpty()) continue;

            double dollars = PatternCosts.writeMonthly(context, indexHalves);
            Map<String, Object> e = PatternCosts.patternEvidence(p);
            e.put("amplification", factor);
            e.put("tableWriteUnits", PatternCosts.units(p.tableWriteHalves()));
            e.put("tableWriteUnitsPerCall", PatternCosts.units(p.tableWriteHalves()) / served);
            e.put("globalIndexWriteUnits", PatternCosts.units(indexHalves));
            e.put("indexes", perIndex);
            e.put("keyMovingIndexes", moving);
            e.put("tableDollarsPerMonth", PatternCosts.writeMonthly(context, p.tableWriteHalves()));
            e.put("pricedAs", PatternCosts.PRICED_AS);
            StringBuilder summary = new StringBuilder(String.format(
                    "%s \"%s\" wrote %.1f units to %d global indexes for every unit it wrote to the table "
                            + "(amplification %.1f)", s.action(), s.describe(), factor - 1, perIndex.size(), factor));
            for (String name : moving) {
                PatternFigures.IndexFigures f = p.indexes().get(name);
                summary.append(String.format("; the key of %s moved on %.0f%% of its writes (%s)", name,
                        100.0 * f.keyMoves() / f.entriesWritten(), String.join(", ", f.movedAttributes().keySet())));
            }
            summary.append('.');
            out.add(context.finding("F10", "Global secondary index write amplification", Finding.Severity.WARN, null,
                    summary.toString(), e, PatternCosts.fromMillis(p), PatternCosts.toMillis(p), FIX, SOURCES, dollars));
        }
    }
}
