// Generated from DynamoDB's service model by RequestRecordsGenerator: do not edit.
// To regenerate, run RequestRecordsTest with -Dstator.regenerate=true (docs/architecture.md).
package io.stator.server.protocol.request;

/** DynamoDB's {@code ReturnValuesOnConditionCheckFailure}, as a request spells it. */
public enum ReturnValuesOnConditionCheckFailure implements WireEnum {
    ALL_OLD("ALL_OLD"),
    NONE("NONE");

    private final String wireName;

    ReturnValuesOnConditionCheckFailure(String wireName) {
        this.wireName = wireName;
    }

    @Override
    public String wireName() {
        return wireName;
    }

    /** The value spelled {@code wireName}, or null when it is none of them. */
    public static ReturnValuesOnConditionCheckFailure ofWire(String wireName) {
        return switch (wireName) {
            case "ALL_OLD" -> ALL_OLD;
            case "NONE" -> NONE;
            default -> null;
        };
    }
}
