// Generated from DynamoDB's service model by RequestRecordsGenerator: do not edit.
// To regenerate, run RequestRecordsTest with -Dstator.regenerate=true (docs/architecture.md).
package io.stator.server.protocol.request;

/** DynamoDB's {@code Select}, as a request spells it. */
public enum Select implements WireEnum {
    SPECIFIC_ATTRIBUTES("SPECIFIC_ATTRIBUTES"),
    COUNT("COUNT"),
    ALL_ATTRIBUTES("ALL_ATTRIBUTES"),
    ALL_PROJECTED_ATTRIBUTES("ALL_PROJECTED_ATTRIBUTES");

    private final String wireName;

    Select(String wireName) {
        this.wireName = wireName;
    }

    @Override
    public String wireName() {
        return wireName;
    }

    /** The value spelled {@code wireName}, or null when it is none of them. */
    public static Select ofWire(String wireName) {
        return switch (wireName) {
            case "SPECIFIC_ATTRIBUTES" -> SPECIFIC_ATTRIBUTES;
            case "COUNT" -> COUNT;
            case "ALL_ATTRIBUTES" -> ALL_ATTRIBUTES;
            case "ALL_PROJECTED_ATTRIBUTES" -> ALL_PROJECTED_ATTRIBUTES;
            default -> null;
        };
    }
}
