package io.stator.engine.table;

/**
 * A table's resource-based policy: the document (in the canonical form DynamoDB keeps, which the
 * front end computes) and its RevisionId, the epoch milliseconds of the change that set it, as
 * DynamoDB's revision ids are (13 digits, increasing with every change).
 */
public record ResourcePolicy(String document, String revisionId) {}
