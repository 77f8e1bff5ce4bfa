package io.stator.engine.advisor;

/**
 * The DynamoDB operation a request was, as the advisor names its access patterns (and CloudWatch
 * its Operation dimension). PartiQL's three are kept apart: Contributor Insights does not count
 * them ("PartiQL requests are not supported", developer guide, contributorinsights_HowItWorks),
 * while the advisor's own figures do.
 */
public enum Operation {
    GET_ITEM("GetItem"),
    PUT_ITEM("PutItem"),
    UPDATE_ITEM("UpdateItem"),
    DELETE_ITEM("DeleteItem"),
    QUERY("Query"),
    SCAN("Scan"),
    BATCH_GET_ITEM("BatchGetItem"),
    BATCH_WRITE_ITEM("BatchWriteItem"),
    TRANSACT_GET_ITEMS("TransactGetItems"),
    TRANSACT_WRITE_ITEMS("TransactWriteItems"),
    EXECUTE_STATEMENT("ExecuteStatement"),
    BATCH_EXECUTE_STATEMENT("BatchExecuteStatement"),
    EXECUTE_TRANSACTION("ExecuteTransaction");

    private final String dynamoDbName;

    Operation(String dynamoDbName) {
        this.dynamoDbName = dynamoDbName;
    }

    /** The operation's name in DynamoDB's API. */
    public String dynamoDbName() { return dynamoDbName; }

    /** ExecuteStatement, BatchExecuteStatement or ExecuteTransaction. */
    public boolean partiql() {
        return this == EXECUTE_STATEMENT || this == BATCH_EXECUTE_STATEMENT || this == EXECUTE_TRANSACTION;
    }

    /** TransactGetItems, TransactWriteItems or ExecuteTransaction: billed twice on the table. */
    public boolean transactional() {
        return this == TRANSACT_GET_ITEMS || this == TRANSACT_WRITE_ITEMS || this == EXECUTE_TRANSACTION;
    }
}
