package io.stator.server.advisor;

import com.fasterxml.jackson.core.JsonGenerator;
import io.stator.engine.advisor.ContributorInsights;
import io.stator.engine.advisor.Finding;
import io.stator.engine.advisor.PatternCost;
import io.stator.engine.advisor.PatternFigures;
import io.stator.engine.advisor.Prices;
import io.stator.engine.advisor.Reports;
import io.stator.engine.advisor.Signature;
import io.stator.engine.table.IndexDefinition;
import io.stator.engine.table.TableDefinition;
import io.stator.server.protocol.AttributeValueJson;
import java.io.IOException;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/** The read API's answers as JSON (their shapes: docs/advisor.md). Units are units; times ISO-8601 UTC. */
final class AdvisorJson {

    /** A modelled partition's ceilings (developer guide, burst-adaptive-capacity). */
    static final int READ_CEILING = 3_000;
    static final int WRITE_CEILING = 1_000;

    private AdvisorJson() {}

    private static void names(JsonGenerator g, TableDefinition table, IndexDefinition index) throws IOException {
        g.writeStringField("tableName", table.name());
        if (index != null) g.writeStringField("indexName", index.name());
    }

    static void topKeys(JsonGenerator g, TableDefinition table, IndexDefinition index, ContributorInsights.Description ci,
                        Reports.TopKeys top) throws IOException {
        names(g, table, index);
        g.writeObjectFieldStart("contributorInsights");
        g.writeStringField("status", ci.status().name());
        if (ci.mode() != null) g.writeStringField("mode", ci.mode().name());
        g.writeArrayFieldStart("rules");
        for (String rule : ci.rules()) g.writeString(rule);
        g.writeEndArray();
        g.writeEndObject();
        g.writeStringField("from", minute(top.fromMinute()));
        g.writeStringField("to", minute(top.toMinute()));
        contributors(g, "mostAccessedPartitionKeys", top.mostAccessedPartitionKeys());
        contributors(g, "mostAccessedItems", top.mostAccessedItems());
        contributors(g, "mostThrottledPartitionKeys", top.mostThrottledPartitionKeys());
        contributors(g, "mostThrottledItems", top.mostThrottledItems());
    }

    private static void contributors(JsonGenerator g, String field, List<Reports.Contributor> list) throws IOException {
        if (list == null) return;
        g.writeArrayFieldStart(field);
        for (Reports.Contributor c : list) {
            g.writeStartObject();
            g.writeFieldName("key");
            AttributeValueJson.writeItem(g, c.key());
            g.writeNumberField("maximum", c.maximum());
            g.writeNumberField("sum", c.sum());
            g.writeBooleanField("approximate", c.approximate());
            g.writeArrayFieldStart("datapoints");
            for (Reports.Datapoint d : c.datapoints()) {
                g.writeStartObject();
                g.writeStringField("minute", minute(d.minute()));
                g.writeNumberField("value", d.value());
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeEndObject();
        }
        g.writeEndArray();
    }

    static void partitions(JsonGenerator g, TableDefinition table, IndexDefinition index, Reports.Partitions report)
            throws IOException {
        names(g, table, index);
        g.writeBooleanField("modelled", true);
        g.writeObjectFieldStart("ceilings");
        g.writeNumberField("readUnitsPerSecond", READ_CEILING);
        g.writeNumberField("writeUnitsPerSecond", WRITE_CEILING);
        g.writeEndObject();
        g.writeStringField("from", second(report.fromSecond()));
        g.writeStringField("to", second(report.toSecond()));
        g.writeNumberField("periodSeconds", report.periodSeconds());
        g.writeArrayFieldStart("partitions");
        for (Reports.Partition p : report.partitions()) {
            g.writeStartObject();
            g.writeStringField("firstHash", hash(p.firstHash()));
            g.writeStringField("lastHash", hash(p.lastHash()));
            g.writeNumberField("readUnits", p.readUnits());
            g.writeNumberField("writeUnits", p.writeUnits());
            g.writeNumberField("peakReadUnitsPerSecond", p.peakReadUnitsPerSecond());
            g.writeNumberField("peakWriteUnitsPerSecond", p.peakWriteUnitsPerSecond());
            g.writeNumberField("throttleEvents", p.throttleEvents());
            if (p.splitAt() >= 0) g.writeStringField("splitAt", second(p.splitAt()));
            g.writeArrayFieldStart("seconds");
            for (Reports.PartitionSecond s : p.seconds()) {
                g.writeStartObject();
                g.writeStringField("second", second(s.second()));
                g.writeNumberField("readUnits", s.readUnits());
                g.writeNumberField("writeUnits", s.writeUnits());
                g.writeNumberField("throttleEvents", s.throttleEvents());
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeArrayFieldStart("topKeys");
            for (Reports.KeyUnits k : p.topKeys()) {
                g.writeStartObject();
                g.writeFieldName("key");
                AttributeValueJson.writeItem(g, k.key());
                g.writeNumberField("readUnits", k.readUnits());
                g.writeNumberField("writeUnits", k.writeUnits());
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeEndObject();
        }
        g.writeEndArray();
    }

    /** The access patterns, each with its cost (PatternCost) at the prices and scale the answer names. */
    static void accessPatterns(JsonGenerator g, TableDefinition table, Reports.AccessPatterns report, Prices prices,
                               double scale) throws IOException {
        names(g, table, null);
        g.writeStringField("from", minute(report.fromMinute()));
        g.writeStringField("to", minute(report.toMinute()));
        pricing(g, prices, scale);
        List<PatternCost> costs = PatternCost.of(report.patterns(), table.tableClass(), prices, scale);
        g.writeArrayFieldStart("patterns");
        for (int i = 0; i < costs.size(); i++) pattern(g, report.patterns().get(i), costs.get(i));
        g.writeEndArray();
    }

    private static void pattern(JsonGenerator g, PatternFigures p, PatternCost cost) throws IOException {
        Signature s = p.signature();
        g.writeStartObject();
        g.writeStringField("signature", s.describe());
        g.writeStringField("operation", s.operation().dynamoDbName());
        g.writeStringField("action", s.action());
        if (s.index() != null) g.writeStringField("index", s.index());
        g.writeStringField("keyCondition", s.keyCondition());
        strings(g, "filter", s.filter());
        if (s.projection() != null) strings(g, "projection", s.projection());
        if (s.countOnly()) g.writeStringField("select", "COUNT");
        g.writeBooleanField("consistentRead", s.consistentRead());
        g.writeBooleanField("transactional", s.transactional());
        g.writeBooleanField("partiql", s.operation().partiql());
        if (s.segments() > 0) g.writeNumberField("segments", s.segments());
        strings(g, "condition", s.condition());
        strings(g, "update", s.update());

        long calls = p.calls();
        long seconds = Math.max(1, p.activeSeconds());
        g.writeNumberField("calls", calls);
        g.writeNumberField("activeSeconds", p.activeSeconds());
        g.writeObjectFieldStart("callsPerSecond");
        g.writeNumberField("average", (double) calls / seconds);
        g.writeNumberField("peak", p.peakCallsPerSecond());
        g.writeEndObject();
        g.writeNumberField("throttled", p.throttled());
        g.writeNumberField("conditionFailed", p.conditionFailed());
        g.writeObjectFieldStart("units");
        g.writeNumberField("total", p.totalHalves() / 2.0);
        g.writeNumberField("peakPerSecond", p.peakHalvesPerSecond() / 2.0);
        units(g, "table", p.tableReadHalves(), p.tableWriteHalves(), 1);
        g.writeObjectFieldStart("indexes");
        for (Map.Entry<String, PatternFigures.IndexFigures> i : p.indexes().entrySet()) {
            units(g, i.getKey(), i.getValue().readHalves(), i.getValue().writeHalves(), 1);
        }
        g.writeEndObject();
        g.writeEndObject();
        g.writeObjectFieldStart("unitsPerCall");
        double perCall = calls == 0 ? 0 : 1.0 / calls;
        g.writeNumberField("average", p.totalHalves() / 2.0 * perCall);
        g.writeNumberField("max", p.maxCallHalves() / 2.0);
        units(g, "table", p.tableReadHalves(), p.tableWriteHalves(), perCall);
        g.writeObjectFieldStart("indexes");
        for (Map.Entry<String, PatternFigures.IndexFigures> i : p.indexes().entrySet()) {
            units(g, i.getKey(), i.getValue().readHalves(), i.getValue().writeHalves(), perCall);
        }
        g.writeEndObject();
        g.writeEndObject();
        g.writeNumberField("scannedCount", p.scanned());
        g.writeNumberField("count", p.returned());
        if (p.scanned() > 0) g.writeNumberField("keptShare", (double) p.returned() / p.scanned());
        g.writeNumberField("bytesRead", p.bytesRead());
        g.writeNumberField("bytesWritten", p.bytesWritten());
        g.writeNumberField("maxItemBytes", p.maxItemBytes());
        g.writeObjectFieldStart("indexWrites");
        for (Map.Entry<String, PatternFigures.IndexFigures> e : p.indexes().entrySet()) {
            PatternFigures.IndexFigures i = e.getValue();
            if (i.entriesWritten() + i.entriesRemoved() == 0) continue;
            g.writeObjectFieldStart(e.getKey());
            g.writeBooleanField("global", i.global());
            g.writeNumberField("entriesWritten", i.entriesWritten());
            g.writeNumberField("entriesRemoved", i.entriesRemoved());
            g.writeNumberField("keyMoves", i.keyMoves());
            g.writeObjectFieldStart("movedAttributes");
            for (Map.Entry<String, Long> m : i.movedAttributes().entrySet()) g.writeNumberField(m.getKey(), m.getValue());
            g.writeEndObject();
            g.writeNumberField("maxEntryBytes", i.maxEntryBytes());
            g.writeEndObject();
        }
        g.writeEndObject();
        g.writeObjectFieldStart("cost");
        g.writeNumberField("dollarsPerMonth", round(cost.dollarsPerMonth()));
        g.writeNumberField("tableDollarsPerMonth", round(cost.tableDollarsPerMonth()));
        g.writeObjectFieldStart("indexDollarsPerMonth");
        for (Map.Entry<String, Double> i : cost.indexDollarsPerMonth().entrySet()) {
            g.writeNumberField(i.getKey(), round(i.getValue()));
        }
        g.writeEndObject();
        g.writeNumberField("provisionedDollarsPerMonth", round(cost.provisionedDollarsPerMonth()));
        g.writeNumberField("shareOfTable", cost.shareOfTable());
        g.writeEndObject();
        g.writeEndObject();
    }

    private static void units(JsonGenerator g, String field, long readHalves, long writeHalves, double scale)
            throws IOException {
        g.writeObjectFieldStart(field);
        g.writeNumberField("read", readHalves / 2.0 * scale);
        g.writeNumberField("write", writeHalves / 2.0 * scale);
        g.writeEndObject();
    }

    /**
     * The findings, the most severe first, with the price table they were priced from, the
     * production multiplier they were projected with, and the tables they were looked for in.
     */
    static void findings(JsonGenerator g, List<String> tables, List<Finding> findings, Prices prices, double scale)
            throws IOException {
        pricing(g, prices, scale);
        strings(g, "tables", tables);
        g.writeArrayFieldStart("findings");
        for (Finding f : findings) {
            g.writeStartObject();
            g.writeStringField("id", f.id());
            g.writeStringField("title", f.title());
            g.writeStringField("severity", f.severity().name());
            g.writeStringField("tableName", f.tableName());
            if (f.indexName() != null) g.writeStringField("indexName", f.indexName());
            g.writeStringField("summary", f.summary());
            g.writeStringField("from", Instant.ofEpochMilli(f.fromMillis()).toString());
            g.writeStringField("to", Instant.ofEpochMilli(f.toMillis()).toString());
            g.writeFieldName("evidence");
            evidence(g, f.evidence());
            g.writeStringField("fix", f.fix());
            strings(g, "sources", f.sources());
            if (f.dollarsPerMonth() != null) g.writeNumberField("dollarsPerMonth", round(f.dollarsPerMonth()));
            g.writeEndObject();
        }
        g.writeEndArray();
    }

    /** The production multiplier and the price table an answer's dollars come from. */
    private static void pricing(JsonGenerator g, Prices prices, double scale) throws IOException {
        g.writeNumberField("scale", scale);
        g.writeObjectFieldStart("prices");
        g.writeStringField("date", prices.date());
        g.writeStringField("region", prices.region());
        g.writeStringField("sources", prices.sources());
        g.writeEndObject();
    }

    /** A finding's evidence: JSON's own shapes, and keys as DynamoDB JSON. */
    private static void evidence(JsonGenerator g, Object value) throws IOException {
        switch (value) {
            case null -> g.writeNull();
            case Finding.Key k -> AttributeValueJson.writeItem(g, k.attributes());
            case Map<?, ?> m -> {
                g.writeStartObject();
                for (Map.Entry<?, ?> e : m.entrySet()) {
                    g.writeFieldName(String.valueOf(e.getKey()));
                    evidence(g, e.getValue());
                }
                g.writeEndObject();
            }
            case Collection<?> c -> {
                g.writeStartArray();
                for (Object o : c) evidence(g, o);
                g.writeEndArray();
            }
            case Double d -> g.writeNumber(round(d));
            case Float f -> g.writeNumber(round(f));
            case Number n -> g.writeNumber(n.longValue());
            case Boolean b -> g.writeBoolean(b);
            case Instant i -> g.writeString(i.toString());
            default -> g.writeString(value.toString());
        }
    }

    /** Dollars and units to the cent or hundredth: enough for a report, and stable in tests. */
    private static double round(double v) {
        return Math.round(v * 100) / 100.0;
    }

    private static void strings(JsonGenerator g, String field, List<String> values) throws IOException {
        g.writeArrayFieldStart(field);
        for (String v : values) g.writeString(v);
        g.writeEndArray();
    }

    private static String minute(long minute) {
        return Instant.ofEpochSecond(minute * 60).toString();
    }

    private static String second(long second) {
        return Instant.ofEpochSecond(second).toString();
    }

    /** A hash as 16 hexadecimal digits: unsigned, and sorting as the partitions do. */
    private static String hash(long hash) {
        return String.format("%016x", hash);
    }
}
