package io.stator.server.protocol.request;

/**
 * A value of one of the model's enum shapes, as a generated Java enum holds it
 * ({@link RequestRecords#enumReader}): what it is spelled as on the wire.
 */
public interface WireEnum {

    /** The value as a request spells it, e.g. {@code ALL_OLD}. */
    String wireName();
}
