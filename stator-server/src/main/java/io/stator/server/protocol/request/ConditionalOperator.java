// Generated from DynamoDB's service model by RequestRecordsGenerator: do not edit.
// To regenerate, run RequestRecordsTest with -Dstator.regenerate=true (docs/architecture.md).
package io.stator.server.protocol.request;

/** DynamoDB's {@code ConditionalOperator}, as a request spells it. */
public enum ConditionalOperator implements WireEnum {
    OR("OR"),
    AND("AND");

    private final String wireName;

    ConditionalOperator(String wireName) {
        this.wireName = wireName;
    }

    @Override
    public String wireName() {
        return wireName;
    }

    /** The value spelled {@code wireName}, or null when it is none of them. */
    public static ConditionalOperator ofWire(String wireName) {
        return switch (wireName) {
            case "OR" -> OR;
            case "AND" -> AND;
            default -> null;
        };
    }
}
