package io.stator.engine.replication;

import io.stator.core.error.DynamoDbException;
import io.stator.core.error.ErrorType;
import io.stator.engine.table.TableArns;
import java.util.List;

/**
 * The six operations of global tables version 2017.11.29 (Legacy), answered as DynamoDB answers
 * them today: it creates no global table of that version any more, so none exists. CreateGlobalTable,
 * and an UpdateGlobalTable that adds a replica, are refused as unsupported; the other operations
 * find no global table of the name they are given, even when it names a table that is global in
 * version 2019.11.21 (the current version, which UpdateTable's ReplicaUpdates makes); ListGlobalTables
 * lists none. The texts are DynamoDB's, captured from us-east-1 in September and October 2026
 * (docs/dynamodb/global-tables.md, section 2).
 */
public final class LegacyGlobalTables {

    static final String NOT_SUPPORTED = "DynamoDB global tables version 2017.11.29 is not supported. We recommend"
            + " using DynamoDB global tables version 2019.11.21, instead of version 2017.11.29 (Legacy).";

    private final TableArns arns;

    public LegacyGlobalTables(TableArns arns) {
        this.arns = arns;
    }

    /**
     * A global table's ARN, {@code arn:aws:dynamodb::ACCOUNT:global-table/NAME}: it has no region
     * (Service Authorization Reference, resource type "global-table").
     */
    public String globalTableArn(String globalTableName) {
        return "arn:aws:dynamodb::" + arns.accountId() + ":global-table/" + globalTableName;
    }

    /** The ARN of the table named {@code tableName} in {@code region}, a global table's replica there. */
    public String replicaTableArn(String region, String tableName) {
        return new TableArns(region, arns.accountId()).tableArn(tableName);
    }

    /** CreateGlobalTable with its ReplicationGroup's regions: always refused. */
    public void create(String globalTableName, List<String> replicationGroup) {
        if (replicationGroup.isEmpty()) {
            throw DynamoDbException.invalidParameter("Global table must have atleast one replica");
        }
        throw DynamoDbException.invalidParameter(NOT_SUPPORTED);
    }

    /** One of UpdateGlobalTable's ReplicaUpdates: the region it adds, or the one it removes, or neither. */
    public record ReplicaUpdate(String createRegion, String deleteRegion) {}

    /**
     * UpdateGlobalTable: an empty ReplicaUpdates, or an update with no action, is invalid (DynamoDB
     * says no more than that); adding a replica is unsupported, checked before the global table is
     * looked up; removing one finds no global table.
     */
    public void update(String globalTableName, List<ReplicaUpdate> replicaUpdates) {
        boolean anEmptyUpdate = replicaUpdates.stream().anyMatch(u -> u.createRegion() == null && u.deleteRegion() == null);
        if (replicaUpdates.isEmpty() || anEmptyUpdate) {
            throw DynamoDbException.validation("One or more parameter values were invalid");
        }
        if (replicaUpdates.stream().anyMatch(u -> u.createRegion() != null)) {
            throw DynamoDbException.invalidParameter(NOT_SUPPORTED);
        }
        throw notFound(globalTableName);
    }

    /** DescribeGlobalTable: no global table of that name. */
    public void describe(String globalTableName) {
        throw notFound(globalTableName);
    }

    /** DescribeGlobalTableSettings: no global table of that name (DynamoDB's text lacks describe's prefix). */
    public void describeSettings(String globalTableName) {
        throw settingsNotFound(globalTableName);
    }

    /** UpdateGlobalTableSettings, whatever settings it sets: no global table of that name. */
    public void updateSettings(String globalTableName) {
        throw settingsNotFound(globalTableName);
    }

    /**
     * ListGlobalTables, in {@code regionName} or this server's region: the names of the global
     * tables, none. (DynamoDB answers a RegionName that is no region with InternalServerError; a
     * bad request here gets no 500, and a region Stator does not know has no global tables either.)
     */
    public List<String> list(String regionName) {
        return List.of();
    }

    private static DynamoDbException notFound(String globalTableName) {
        return new DynamoDbException(ErrorType.GLOBAL_TABLE_NOT_FOUND,
                "Global table not found: Global table with name: '" + globalTableName + "' does not exist.");
    }

    private static DynamoDbException settingsNotFound(String globalTableName) {
        return new DynamoDbException(ErrorType.GLOBAL_TABLE_NOT_FOUND,
                "Global table with name: '" + globalTableName + "' does not exist.");
    }
}
