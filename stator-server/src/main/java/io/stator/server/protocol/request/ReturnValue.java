// Generated from DynamoDB's service model by RequestRecordsGenerator: do not edit.
// To regenerate, run RequestRecordsTest with -Dstator.regenerate=true (docs/architecture.md).
package io.stator.server.protocol.request;

/** DynamoDB's {@code ReturnValue}, as a request spells it. */
public enum ReturnValue implements WireEnum {
    ALL_NEW("ALL_NEW"),
    UPDATED_OLD("UPDATED_OLD"),
    ALL_OLD("ALL_OLD"),
    NONE("NONE"),
    UPDATED_NEW("UPDATED_NEW");

    private final String wireName;

    ReturnValue(String wireName) {
        this.wireName = wireName;
    }

    @Override
    public String wireName() {
        return wireName;
    }

    /** The value spelled {@code wireName}, or null when it is none of them. */
    public static ReturnValue ofWire(String wireName) {
        return switch (wireName) {
            case "ALL_NEW" -> ALL_NEW;
            case "UPDATED_OLD" -> UPDATED_OLD;
            case "ALL_OLD" -> ALL_OLD;
            case "NONE" -> NONE;
            case "UPDATED_NEW" -> UPDATED_NEW;
            default -> null;
        };
    }
}
