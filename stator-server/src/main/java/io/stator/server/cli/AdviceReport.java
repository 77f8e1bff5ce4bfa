package io.stator.server.cli;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import software.amazon.awssdk.protocols.jsoncore.JsonNode;

/**
 * {@code stator advise}'s report: per table, its findings (the most severe first: what, the
 * numbers, the fix and its source, what it costs) and its access patterns (the costliest first),
 * from the read API's answers. Plain text that reads in a terminal and pastes into an issue.
 */
final class AdviceReport {

    /** An evidence value longer than this is cut: the report points at the finding, --json has all of it. */
    private static final int EVIDENCE_WIDTH = 160;
    /** The access patterns shown per table. */
    private static final int PATTERNS_SHOWN = 15;

    private AdviceReport() {}

    static void print(PrintStream out, String endpoint, JsonNode findings, Set<String> tables, List<JsonNode> patterns) {
        JsonNode prices = findings.field("prices").orElse(null);
        out.printf(Locale.ROOT, "Stator advisor: %s (rates projected x%s; prices %s of %s)%n", endpoint,
                number(findings.field("scale").orElse(null)),
                prices == null ? "?" : text(prices, "region"), prices == null ? "?" : text(prices, "date"));
        List<JsonNode> all = findings.field("findings").map(JsonNode::asArray).orElse(List.of());
        if (tables.isEmpty()) out.println("\nNo tables.");
        int i = 0;
        for (String table : tables) {
            List<JsonNode> own = new ArrayList<>();
            for (JsonNode f : all) if (table.equals(text(f, "tableName"))) own.add(f);
            out.printf(Locale.ROOT, "%n== Table %s: %s%n", table, own.isEmpty() ? "no findings"
                    : own.size() == 1 ? "1 finding" : own.size() + " findings");
            for (JsonNode f : own) finding(out, f);
            if (i < patterns.size()) patterns(out, patterns.get(i));
            i++;
        }
    }

    private static void finding(PrintStream out, JsonNode f) {
        String index = f.field("indexName").map(n -> " (index " + n.asString() + ")").orElse("");
        out.printf(Locale.ROOT, "%n  [%s] %s %s%s%n", text(f, "severity"), text(f, "id"), text(f, "title"), index);
        out.printf(Locale.ROOT, "      %s%n", text(f, "summary"));
        String cost = f.field("dollarsPerMonth").map(d -> "; " + AdviseCommand.money(Double.parseDouble(d.asNumber()))
                + " a month").orElse("");
        out.printf(Locale.ROOT, "      %s to %s%s%n", text(f, "from"), text(f, "to"), cost);
        for (Map.Entry<String, JsonNode> e : f.field("evidence").map(JsonNode::asObject).orElse(Map.of()).entrySet()) {
            String value = compact(e.getValue());
            if (value.length() > EVIDENCE_WIDTH) value = value.substring(0, EVIDENCE_WIDTH - 3) + "...";
            out.printf(Locale.ROOT, "      %s: %s%n", e.getKey(), value);
        }
        List<String> sources = new ArrayList<>();
        for (JsonNode s : f.field("sources").map(JsonNode::asArray).orElse(List.of())) sources.add(s.asString());
        out.printf(Locale.ROOT, "      fix: %s%s%n", text(f, "fix"), sources.isEmpty() ? "" : " [" + String.join("; ", sources) + "]");
    }

    private static void patterns(PrintStream out, JsonNode answer) {
        List<JsonNode> list = answer.field("patterns").map(JsonNode::asArray).orElse(List.of());
        if (list.isEmpty()) {
            out.println("\n  No traffic in the last hour.");
            return;
        }
        out.printf(Locale.ROOT, "%n  Access patterns, last hour, costliest first:%n");
        out.printf(Locale.ROOT, "    %10s %8s %11s %12s  %s%n", "calls", "calls/s", "units/call", "$/month", "signature");
        int shown = 0;
        for (JsonNode p : list) {
            if (shown++ == PATTERNS_SHOWN) {
                out.printf(Locale.ROOT, "    ... and %d more (--json shows them all)%n", list.size() - PATTERNS_SHOWN);
                break;
            }
            String dollars = p.field("cost").flatMap(c -> c.field("dollarsPerMonth"))
                    .map(d -> AdviseCommand.money(Double.parseDouble(d.asNumber()))).orElse("-");
            out.printf(Locale.ROOT, "    %10s %8s %11s %12s  %s%n", number(p.field("calls").orElse(null)),
                    number(p.field("callsPerSecond").flatMap(c -> c.field("average")).orElse(null)),
                    number(p.field("unitsPerCall").flatMap(u -> u.field("average")).orElse(null)), dollars,
                    text(p, "signature"));
        }
    }

    private static String text(JsonNode node, String field) {
        return node.field(field).map(n -> n.isString() ? n.asString() : compact(n)).orElse("");
    }

    private static String number(JsonNode n) {
        if (n == null || !n.isNumber()) return "-";
        double v = Double.parseDouble(n.asNumber());
        return v == Math.rint(v) && Math.abs(v) < 1e15 ? String.format(Locale.ROOT, "%,d", (long) v)
                : String.format(Locale.ROOT, "%,.2f", v);
    }

    /** A JSON value on one line. */
    private static String compact(JsonNode n) {
        if (n.isString()) return n.asString();
        if (n.isNumber()) return number(n);
        return n.toString();
    }
}
