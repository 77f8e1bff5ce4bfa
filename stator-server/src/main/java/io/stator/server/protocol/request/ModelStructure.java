package io.stator.server.protocol.request;

/**
 * A structure of DynamoDB's service model as a request carried it: one of the records generated
 * from the model ({@link RequestRecords}). The request reader and the constraint checks walk
 * records through {@link #member}, by the position of the member in the model; actions read
 * them through their named accessors.
 */
public interface ModelStructure {

    /** The value of the member at {@code index} (the model's declared order), or null when absent. */
    Object member(int index);
}
