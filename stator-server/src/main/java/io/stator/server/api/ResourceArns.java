package io.stator.server.api;

import io.stator.core.error.DynamoDbException;
import io.stator.core.error.ErrorType;
import io.stator.engine.EngineConfig;
import io.stator.engine.table.Catalog;
import io.stator.engine.table.TableDefinition;

/**
 * Resolves the ResourceArn of the tagging actions to a table, with DynamoDB's errors: not an
 * ARN, an index ARN, another region's or account's ARN, or no such table.
 */
final class ResourceArns {

    private ResourceArns() {}

    static TableDefinition table(String arn, Catalog catalog, EngineConfig config) {
        if (!arn.startsWith("arn:")) {
            throw DynamoDbException.invalidParameter("ARNs must start with 'arn:': " + arn);
        }
        String[] parts = arn.split(":", 6);
        if (parts.length != 6 || !parts[2].equals("dynamodb") || !parts[5].startsWith("table/")) {
            throw DynamoDbException.invalidParameter("Provided Arn is not a DynamoDB resource arn: " + arn);
        }
        if (parts[5].contains("/index/")) {
            throw DynamoDbException.invalidParameter("Invalid resource arn provided, only table or stream is "
                    + "accepted. Provided resource arn: " + arn);
        }
        if (!parts[3].equals(config.region())) {
            throw DynamoDbException.validation("Invalid TableArn: Invalid ResourceArn provided as input " + arn);
        }
        if (!parts[4].equals(config.accountId())) {
            throw new DynamoDbException(ErrorType.ACCESS_DENIED, "Access is denied");
        }
        String name = parts[5].substring("table/".length());
        TableDefinition table = name.indexOf('/') >= 0 ? null : catalog.find(name);
        if (table == null) {
            throw DynamoDbException.resourceNotFound("Requested resource not found: ResourceArn: " + arn + " not found");
        }
        return table;
    }
}
