// Generated from DynamoDB's service model by RequestRecordsGenerator: do not edit.
// To regenerate, run RequestRecordsTest with -Dstator.regenerate=true (docs/architecture.md).
package io.stator.server.protocol.request;

/** DynamoDB's {@code ReturnItemCollectionMetrics}, as a request spells it. */
public enum ReturnItemCollectionMetrics implements WireEnum {
    SIZE("SIZE"),
    NONE("NONE");

    private final String wireName;

    ReturnItemCollectionMetrics(String wireName) {
        this.wireName = wireName;
    }

    @Override
    public String wireName() {
        return wireName;
    }

    /** The value spelled {@code wireName}, or null when it is none of them. */
    public static ReturnItemCollectionMetrics ofWire(String wireName) {
        return switch (wireName) {
            case "SIZE" -> SIZE;
            case "NONE" -> NONE;
            default -> null;
        };
    }
}
