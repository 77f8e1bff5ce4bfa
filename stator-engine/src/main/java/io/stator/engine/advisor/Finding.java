package io.stator.engine.advisor;

import io.stator.core.model.AttributeValue;
import java.util.List;
import java.util.Map;

/**
 * One thing the advisor found in a table's or a global index's traffic (docs/advisor.md, "The
 * findings"): what it is, how bad, the numbers that show it, the fix the literature recommends
 * and where it says so, and what it costs a month where that applies.
 *
 * @param id              F1 to F17 (/work/shared/reference/advisor.md, section 6)
 * @param indexName       the global index it is about, or null for the table
 * @param evidence        JSON-shaped: numbers, strings, booleans, lists, maps with string keys,
 *                        and {@link Key}s; in the order it is to be read
 * @param fromMillis      the first moment of the traffic it rests on
 * @param toMillis        the last
 * @param dollarsPerMonth what the pattern or resource costs a month at the projected rate (or
 *                        what the fix would save, as the finding says), from {@link Prices}; null
 *                        where no cost applies
 */
public record Finding(String id, String title, Severity severity, String tableName, String indexName, String summary,
                      Map<String, Object> evidence, long fromMillis, long toMillis, String fix, List<String> sources,
                      Double dollarsPerMonth) {

    public enum Severity { INFO, WARN, CRITICAL }

    /** A key in evidence: written as DynamoDB JSON. */
    public record Key(Map<String, AttributeValue> attributes) {}
}
