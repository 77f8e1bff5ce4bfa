package io.stator.server.transfer;

/** An export's or an import's description, read-only, by DynamoDB's member names. */
public interface JobView {

    /** A member's text, or null when not set. */
    String string(String name);

    /** A number member's value (times in epoch milliseconds), or 0 when not set. */
    long number(String name);

    boolean has(String name);
}
