package io.stator.engine.table;

/**
 * The kinds of change one UpdateTable asks for, named after the request members that carry
 * them (DynamoDB's messages name the members).
 */
public enum TableChange {
    PROVISIONED_THROUGHPUT, BILLING_MODE, STREAM_SPECIFICATION, GLOBAL_SECONDARY_INDEX_UPDATES, SSE_SPECIFICATION,
    DELETION_PROTECTION_ENABLED, ON_DEMAND_THROUGHPUT, WARM_THROUGHPUT, TABLE_CLASS,
    VECTOR_INDEX_UPDATES
}
