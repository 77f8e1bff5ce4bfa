package io.stator.server.access;

import io.stator.engine.Engine;
import io.stator.server.access.Authorizer;

/**
 * The advisor's read API asks the same authorization point as the actions ({@link Permissions}):
 * its answers show keys and traffic, so with --policies a caller reads them only where DynamoDB
 * would let it read the same. Contributor Insights' graphs and the partitions' traffic (which names
 * keys) need dynamodb:DescribeContributorInsights on the table or the index, as DynamoDB's own
 * Contributor Insights data does; the access patterns and the findings need dynamodb:DescribeTable
 * on the table; the findings of every table, dynamodb:ListTables on no resource as well; the
 * console's page of a table's items, dynamodb:Scan on the table.
 */
public final class AdvisorPermissions {

    private AdvisorPermissions() {}

    /** top-keys and partitions. */
    public static void keys(Authorizer access, Engine engine, String tableNameOrArn, String indexName) {
        if (access.enforced()) {
            Permissions.tableOrIndex(access, engine, "DescribeContributorInsights", tableNameOrArn, indexName);
        }
    }

    /** access-patterns and a table's findings. */
    public static void table(Authorizer access, Engine engine, String tableNameOrArn) {
        if (access.enforced()) Permissions.table(access, engine, "DescribeTable", tableNameOrArn);
    }

    /** The console's page of a table's items: what a Scan of it needs. */
    public static void items(Authorizer access, Engine engine, String tableNameOrArn) {
        if (access.enforced()) Permissions.table(access, engine, "Scan", tableNameOrArn);
    }

    /** The findings of every table. */
    public static void everyTable(Authorizer access) {
        if (access.enforced()) Permissions.account(access, "ListTables");
    }
}
