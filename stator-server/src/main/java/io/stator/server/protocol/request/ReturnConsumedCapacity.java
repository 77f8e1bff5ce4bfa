// Generated from DynamoDB's service model by RequestRecordsGenerator: do not edit.
// To regenerate, run RequestRecordsTest with -Dstator.regenerate=true (docs/architecture.md).
package io.stator.server.protocol.request;

/** DynamoDB's {@code ReturnConsumedCapacity}, as a request spells it. */
public enum ReturnConsumedCapacity implements WireEnum {
    INDEXES("INDEXES"),
    TOTAL("TOTAL"),
    NONE("NONE");

    private final String wireName;

    ReturnConsumedCapacity(String wireName) {
        this.wireName = wireName;
    }

    @Override
    public String wireName() {
        return wireName;
    }

    /** The value spelled {@code wireName}, or null when it is none of them. */
    public static ReturnConsumedCapacity ofWire(String wireName) {
        return switch (wireName) {
            case "INDEXES" -> INDEXES;
            case "TOTAL" -> TOTAL;
            case "NONE" -> NONE;
            default -> null;
        };
    }
}
